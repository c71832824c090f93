// McpOAuthError: why the bridge could not obtain or keep an OAuth authorization, with a stable kebab-case code.
import { ToolwireError } from "../../../core/errors.js";

/**
 * Why an OAuth step failed. One line each:
 * - `invalid-oauth-config`: the auth options or the config's `auth` are malformed (a bad port, no client id).
 * - `missing-client-secret`: the environment variable that should hold the client secret or key is unset or empty.
 * - `authorization-timeout`: nobody finished the login in the browser within the timeout.
 * - `authorization-denied`: the authorization server sent the user back with an error (for example `access_denied`).
 * - `redirect-listen-failed`: the loopback redirect listener could not listen (for example the port is taken).
 * - `authorization-failed`: the authorization could not be completed (the server still refuses, or the flow broke).
 */
export type McpOAuthErrorCode =
  | "invalid-oauth-config"
  | "missing-client-secret"
  | "authorization-timeout"
  | "authorization-denied"
  | "redirect-listen-failed"
  | "authorization-failed";

/** An OAuth fault; the message says what happened and what to do. */
export class McpOAuthError extends ToolwireError<McpOAuthErrorCode> {
  override readonly name = "McpOAuthError";
}
