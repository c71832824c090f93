// The public API of toolwire/mcp, loaded by ./index.ts once the MCP SDK is known to be installed.
// A curated list: connecting, serving, authorizing, and their errors; the plumbing under them stays internal.

// Serve: a session as an MCP server, and the HTTP gateway's options.
export type {
  GatewayAuthOptions,
  Principal,
  ServeOAuthConfig,
  ServeTokenConfig,
} from "../gateway/authenticate.js";
// Errors.
export { GatewayError, type GatewayErrorCode } from "../gateway/errors.js";
// Bridge: an MCP server as a live tool source.
export {
  connectMcpServer,
  type McpConnection,
  type McpConnectOptions,
  type McpProtocolChoice,
} from "./connect-mcp-server.js";
export { McpConnectionError, type McpErrorCode, McpServeError, type McpServeErrorCode } from "./errors.js";
export type { McpToolResultDetails } from "./map-result.js";
export type {
  McpHttpServerConfig,
  McpServerConfig,
  McpServerOptions,
  McpStdioServerConfig,
} from "./mcp-config-types.js";
// Authorizing with HTTP servers: OAuth logins, client credentials, tokens and where they are kept.
export {
  AuthorizationPendingError,
  type CallbackAuthorization,
  type CreateMcpAuthProviderOptions,
  createMcpAuthProvider,
  createMcpClientCredentialsProvider,
  createMcpOAuthProvider,
  createMemoryOAuthStore,
  createOAuthFileStore,
  DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  defaultOAuthDir,
  type LoopbackAuthorization,
  type McpBearerAuthConfig,
  type McpClientCredentialsAuthConfig,
  type McpClientCredentialsOptions,
  type McpOAuthAuthConfig,
  McpOAuthError,
  type McpOAuthErrorCode,
  type McpOAuthProvider,
  type McpOAuthProviderOptions,
  type McpServerAuthConfig,
  type OAuthStore,
  type OAuthStoreState,
  type StoredTokens,
} from "./oauth/index.js";
export type { SkippedMcpTool } from "./read-tool-listing.js";
export type { ReconnectBackoff } from "./reconnect.js";
export {
  type GatewayOptions,
  type McpServerHandle,
  type ServeMcpHttpOptions,
  type ServeMcpOptions,
  type ServeMcpStdioOptions,
  type SessionSource,
  serveMcp,
} from "./serve-mcp.js";
