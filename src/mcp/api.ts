// The public API of toolwire/mcp, loaded by ./index.ts once the MCP SDK is known to be installed.
// A curated list: connecting (./client), serving (./server), authorizing, and their errors; the plumbing under them
// stays internal.

// Bridge: an MCP server as a live tool source.
export type { McpElicitation, McpElicitationAnswer, McpElicitationHandler } from "./client/answer-elicitation.js";
export { connectMcpServer } from "./client/connect-mcp-server.js";
export { McpConnectionError, type McpErrorCode } from "./client/errors.js";
export type { McpToolResultDetails } from "./client/map-result.js";
export type { McpAppResource } from "./client/mcp-app.js";
export type {
  McpHttpServerConfig,
  McpProtocolChoice,
  McpServerConfig,
  McpServerOptions,
  McpStdioServerConfig,
} from "./client/mcp-config-types.js";
export type { McpConnection, McpConnectOptions } from "./client/mcp-connection.js";
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
} from "./client/oauth/index.js";
export type { SkippedMcpTool } from "./client/read-tool-listing.js";
export type { ReconnectBackoff } from "./client/reconnect.js";
// Serve: a session as an MCP server, and the HTTP gateway's options.
export { McpServeError, type McpServeErrorCode } from "./server/errors.js";
export type { Principal } from "./server/gateway/authenticate.js";
export { GatewayError, type GatewayErrorCode } from "./server/gateway/errors.js";
export type { GatewayAuthOptions, ServeOAuthConfig, ServeTokenConfig } from "./server/gateway/gateway-auth-options.js";
export type { GatewayOptions } from "./server/gateway/gateway-options.js";
export type { SessionSource } from "./server/gateway/principal-servings.js";
export type { ServeMcpHttpOptions } from "./server/gateway/serve-http.js";
export { readAppFromConnections } from "./server/read-app-from-connections.js";
export type { AppResourceReader } from "./server/serve-app-resources.js";
export {
  type McpServerHandle,
  type ServeMcpOptions,
  type ServeMcpStdioOptions,
  serveMcp,
} from "./server/serve-mcp.js";
export { createMemoryTaskStore } from "./server/tasks/memory-task-store.js";
export type { ServeTasksOptions } from "./server/tasks/serve-tasks-options.js";
export type { TaskRecord, TaskStatus } from "./server/tasks/task-record.js";
export type { TaskControlMessage, TaskStore } from "./server/tasks/task-store.js";
