// The bridge's OAuth client: providers, the loopback redirect, token storage and the `auth` config of a server.
export {
  AuthorizationPendingError,
  AuthorizingHttpTransport,
  isMcpOAuthProvider,
} from "./authorizing-http-transport.js";
export {
  type CallbackAuthorization,
  createMcpOAuthProvider,
  DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  type LoopbackAuthorization,
  type McpOAuthProvider,
  type McpOAuthProviderOptions,
  printAuthorizationUrl,
} from "./create-mcp-oauth-provider.js";
export { type LoopbackRedirect, type LoopbackRedirectOptions, listenForRedirect } from "./loopback-redirect.js";
export {
  type CreateMcpAuthProviderOptions,
  checkMcpAuthConfig,
  createMcpAuthProvider,
  createMcpClientCredentialsProvider,
  type McpBearerAuthConfig,
  type McpClientCredentialsAuthConfig,
  type McpClientCredentialsOptions,
  type McpOAuthAuthConfig,
  type McpServerAuthConfig,
} from "./mcp-auth-config.js";
export { McpOAuthError, type McpOAuthErrorCode } from "./oauth-error.js";
export {
  createMemoryOAuthStore,
  createOAuthFileStore,
  defaultOAuthDir,
  type OAuthStore,
  type OAuthStoreState,
  oauthFileName,
  type StoredTokens,
} from "./oauth-store.js";
