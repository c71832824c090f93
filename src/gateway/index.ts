// The gateway's request checks: who is calling (authenticate) and whether the request's Host and Origin may reach
// this server (check-request-origin). Pure modules; serve-mcp wires them into the HTTP server.

export {
  type AuthOutcome,
  createGatewayAuthenticator,
  type GatewayAuthenticator,
  type GatewayAuthOptions,
  type Principal,
  resolveServeTokens,
  type ServeOAuthConfig,
  type ServeTokenConfig,
} from "./authenticate.js";
export {
  checkRequestOrigin,
  type RequestOriginRules,
  validateAllowedHosts,
  validateAllowedOrigins,
} from "./check-request-origin.js";
export { GatewayError, type GatewayErrorCode } from "./errors.js";
export { MAX_AUTHORIZATION_LENGTH } from "./read-bearer-credential.js";
export { DEFAULT_JWKS_TIMEOUT_MS, MAX_JWKS_BYTES, MAX_JWKS_KEYS } from "./verify-access-token.js";
