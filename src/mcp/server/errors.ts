// McpServeError: why `serveMcp` could not serve, with a stable kebab-case code.
import { ToolwireError } from "../../core/errors.js";

/**
 * Why `serveMcp` could not serve:
 * - `invalid-serve-options`: the options are malformed (an unknown transport, a bad port or host).
 * - `serve-failed`: the HTTP server could not listen (for example the port is taken).
 */
export type McpServeErrorCode = "invalid-serve-options" | "serve-failed";

/** `serveMcp` could not start; the message says what to change. */
export class McpServeError extends ToolwireError<McpServeErrorCode> {
  override readonly name = "McpServeError";
}
