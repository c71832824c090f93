// The public API of toolwire/mcp, loaded by ./index.ts once the MCP SDK is known to be installed.

export type {
  GatewayAuthOptions,
  Principal,
  ServeOAuthConfig,
  ServeTokenConfig,
} from "../gateway/authenticate.js";
export { GatewayError, type GatewayErrorCode } from "../gateway/errors.js";
export {
  ChildProcessTransport,
  type ChildProcessTransportOptions,
  minimalEnvironment,
} from "./child-process-transport.js";
export {
  connectMcpServer,
  type McpConnection,
  type McpConnectOptions,
  type McpProtocolChoice,
} from "./connect-mcp-server.js";
export { McpConnectionError, type McpErrorCode, McpServeError, type McpServeErrorCode } from "./errors.js";
export {
  type McpCallToolResultLike,
  type McpToolResultDetails,
  mapCallToolResult,
  mapContentBlock,
} from "./map-result.js";
export {
  checkMcpServerConfig,
  compileToolNameFilter,
  type McpConfigCheckOptions,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  serverSandbox,
} from "./mcp-config.js";
export {
  AuthorizationPendingError,
  AuthorizingHttpTransport,
  type CallbackAuthorization,
  type CreateMcpAuthProviderOptions,
  checkMcpAuthConfig,
  createMcpAuthProvider,
  createMcpClientCredentialsProvider,
  createMcpOAuthProvider,
  createMemoryOAuthStore,
  createOAuthFileStore,
  DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  defaultOAuthDir,
  isMcpOAuthProvider,
  type LoopbackAuthorization,
  type LoopbackRedirect,
  type LoopbackRedirectOptions,
  listenForRedirect,
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
  oauthFileName,
  printAuthorizationUrl,
  type StoredTokens,
} from "./oauth/index.js";
export type { SkippedMcpTool } from "./read-tool-listing.js";
export {
  RECONNECT_INITIAL_DELAY_MS,
  RECONNECT_MAX_DELAY_MS,
  type ReconnectBackoff,
  reconnectDelayMs,
} from "./reconnect.js";
export {
  type GatewayOptions,
  type McpServerHandle,
  type ServeMcpHttpOptions,
  type ServeMcpOptions,
  type ServeMcpStdioOptions,
  type SessionSource,
  serveMcp,
} from "./serve-mcp.js";
export { assignMcpToolNames, MAX_TOOL_NAME_LENGTH, sanitizeToolNamePart } from "./tool-names.js";
export { TOOLS_PAGE_SIZE } from "./tool-server.js";
