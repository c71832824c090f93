// The one error `createBuiltinTools` throws: options that cannot make a working set of tools.
import { ToolwireError } from "../core/errors.js";

/** Why `createBuiltinTools` refused its options. */
export type BuiltinToolsErrorCode = "invalid-workspace-root" | "invalid-option";

/**
 * Options that cannot make working tools: a root that is not an existing folder, a bad number. Never thrown by a call.
 */
export class BuiltinToolsError extends ToolwireError<BuiltinToolsErrorCode> {
  override readonly name = "BuiltinToolsError";
}
