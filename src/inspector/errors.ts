// InspectorError: the inspector cannot be used as asked, with a stable code.
import { ToolwireError } from "../core/errors.js";

/**
 * Why the inspector refused. One line each:
 * - `invalid-inspector-options`: an option of `createInspector` is malformed (a port outside 0-65535, a limit that
 *   is not a positive integer, a title that is not a string).
 * - `inspector-closed`: `watch` or `showRun` was called after `close()`.
 * - `invalid-stored-run`: `showRun` got something that is not a stored run (`{ status, turns: [...] }`).
 */
export type InspectorErrorCode = "invalid-inspector-options" | "inspector-closed" | "invalid-stored-run";

/** The inspector's options or use were wrong; the message says what to change. */
export class InspectorError extends ToolwireError<InspectorErrorCode> {
  override readonly name = "InspectorError";
}
