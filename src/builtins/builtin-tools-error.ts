// The one error `createBuiltinTools` throws: options that cannot make a working set of tools.

/** Why `createBuiltinTools` refused its options. */
export type BuiltinToolsErrorCode = "invalid-workspace-root" | "invalid-option";

/** Options that cannot make working tools: a root that is not an existing folder, a bad number. Never thrown by a call. */
export class BuiltinToolsError extends Error {
  override readonly name = "BuiltinToolsError";
  constructor(
    readonly code: BuiltinToolsErrorCode,
    message: string,
  ) {
    super(message);
  }
}
