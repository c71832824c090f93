// toolwire/mcp: bridge MCP servers into a registry (connectMcpServer) and serve a session over MCP (serveMcp).
// The MCP SDK is an optional peer dependency. Every module of ./api.ts imports it, and a static import of a missing
// package fails before any code of ours runs; so this entry checks the SDK first and only then imports ./api.js.
// `import` loads this file and `require()` loads ./index.cts, which does the same with require(). This file never
// require()s an ES module: under import(), Node 20 and 22 can crash when that meets a module another import() is
// still loading (test/e2e/entry-points.test.ts). The names below are ./api.ts's, one for one (a test keeps them so).
import { assertPackagesInstalled, MCP_FEATURE, MCP_SDK_PACKAGES } from "../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled(MCP_FEATURE, MCP_SDK_PACKAGES);

export const {
  AuthorizationPendingError,
  connectMcpServer,
  createMcpAuthProvider,
  createMcpClientCredentialsProvider,
  createMcpOAuthProvider,
  createMemoryOAuthStore,
  createMemoryTaskStore,
  createOAuthFileStore,
  DEFAULT_AUTHORIZATION_TIMEOUT_MS,
  defaultOAuthDir,
  GatewayError,
  McpConnectionError,
  McpOAuthError,
  McpServeError,
  readAppFromConnections,
  serveMcp,
} = await import("./api.js");

// A class is a value and a type: the destructured constants above carry the values, these the instance types.
export type AuthorizationPendingError = Api.AuthorizationPendingError;
export type GatewayError = Api.GatewayError;
export type McpConnectionError = Api.McpConnectionError;
export type McpOAuthError = Api.McpOAuthError;
export type McpServeError = Api.McpServeError;
