// GatewayError: why the HTTP gateway's authentication or request rules cannot be used as given, with a stable code.
import { ToolwireError } from "../../../core/errors.js";

/**
 * Why the gateway's options were refused. One line each:
 * - `invalid-serve-auth`: `serve.auth` is malformed (no tokens and no oauth, an empty or duplicate token, an empty
 *   principal, an oauth block without issuer or keys, a key set that cannot be read).
 * - `serve-token-unset`: a token given as `env:NAME` names a variable that is unset or empty; the message names the
 *   variable, never a value.
 * - `invalid-serve-options`: the request rules are malformed (an `allowedOrigins` entry that is `"*"` or not an
 *   origin, an `allowedHosts` entry that is not a host, a resource URL that is not an http(s) URL).
 */
export type GatewayErrorCode = "invalid-serve-auth" | "serve-token-unset" | "invalid-serve-options";

/** The gateway cannot start with these options; the message says what to change and never holds a credential. */
export class GatewayError extends ToolwireError<GatewayErrorCode> {
  override readonly name = "GatewayError";
}
