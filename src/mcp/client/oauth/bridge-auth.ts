// What connectMcpServer needs from the OAuth client: the provider of a config, and auth failures as typed errors.
import {
  type AuthProvider,
  InsufficientScopeError,
  OAuthClientFlowError,
  type OAuthClientProvider,
  OAuthError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { McpConnectionError } from "../errors.js";
import { AuthorizationPendingError, isMcpOAuthProvider } from "./authorizing-http-transport.js";
import { driveOAuthClientProvider } from "./drive-oauth-client-provider.js";
import { createMcpAuthProvider, type McpServerAuthConfig } from "./mcp-auth-config.js";
import { McpOAuthError } from "./oauth-error.js";

/** Logins while connecting (the first one, then one more for a step-up) before connecting fails. */
export const MAX_AUTHORIZATIONS_PER_CONNECT = 2;

/**
 * The auth provider of a connection: the one given in the options (an SDK `OAuthClientProvider` with a loopback
 * redirect made one the bridge can finish logins with), else the one the config's `auth` describes, else none. Throws `McpConnectionError` `invalid-mcp-config` when `auth` is malformed or names an unset variable.
 */
export function resolveMcpAuthProvider(
  serverId: string,
  config: { readonly url?: string | URL; readonly auth?: McpServerAuthConfig },
  given: AuthProvider | OAuthClientProvider | undefined,
): AuthProvider | OAuthClientProvider | undefined {
  if (given !== undefined) {
    return isOAuthClientProvider(given) && !isMcpOAuthProvider(given) ? driveOAuthClientProvider(given) : given;
  }
  if (config.auth === undefined || config.url === undefined) return undefined;
  try {
    return createMcpAuthProvider({ id: serverId, url: config.url, auth: config.auth });
  } catch (error) {
    throw new McpConnectionError("invalid-mcp-config", serverId, messageOf(error), { cause: error });
  }
}

/** The pending authorization somewhere in an error's causes, when connecting stopped for a login. */
export function pendingAuthorizationOf(error: unknown): AuthorizationPendingError | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 6; depth++) {
    if (current instanceof AuthorizationPendingError) return current;
    const next = current instanceof Error ? current.cause : undefined;
    current =
      next ?? (current instanceof SdkError ? (current.data as { cause?: unknown } | undefined)?.cause : undefined);
  }
  return undefined;
}

/**
 * An auth failure as `McpConnectionError` `mcp-unauthorized`, with a message that says what to do; `undefined` when
 * the error is not about authorization.
 */
export function authorizationFailure(
  serverId: string,
  error: unknown,
  hasAuth: boolean,
): McpConnectionError | undefined {
  const found = findAuthError(error);
  if (found === undefined) return undefined;
  const what = `MCP server ${serverId}`;
  let message: string;
  if (found instanceof McpOAuthError) message = `${what}: ${found.message}`;
  else if (found instanceof InsufficientScopeError) {
    message = `${what} needs more scope (${found.requiredScope ?? "unnamed"}) than the authorization gives`;
  } else if (!hasAuth) {
    message = `${what} requires authorization (HTTP 401): give it an "auth" (for example { "type": "oauth" }) in its config, or an authProvider`;
  } else if (found instanceof OAuthError || found instanceof OAuthClientFlowError) {
    message = `${what}: the OAuth authorization failed: ${found.message}`;
  } else if (found instanceof SdkError && found.code === SdkErrorCode.ClientHttpForbidden) {
    message = `${what} still refuses the request after a new authorization (HTTP 403 insufficient_scope): ${found.message}`;
  } else {
    message = `${what} refused the authorization (HTTP 401): ${found.message}. Log in again (toolwire auth ${serverId})`;
  }
  return new McpConnectionError("mcp-unauthorized", serverId, message, { cause: error });
}

function findAuthError(error: unknown): Error | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 6; depth++) {
    if (
      current instanceof McpOAuthError ||
      current instanceof UnauthorizedError ||
      current instanceof InsufficientScopeError ||
      current instanceof OAuthError ||
      current instanceof OAuthClientFlowError ||
      (current instanceof SdkError &&
        (current.code === SdkErrorCode.ClientHttpAuthentication || current.code === SdkErrorCode.ClientHttpForbidden))
    ) {
      return current as Error;
    }
    const next = current instanceof Error ? current.cause : undefined;
    current =
      next ?? (current instanceof SdkError ? (current.data as { cause?: unknown } | undefined)?.cause : undefined);
  }
  return undefined;
}

/** An SDK `OAuthClientProvider` rather than a bare `AuthProvider`, told apart by two members only the former has. */
function isOAuthClientProvider(provider: AuthProvider | OAuthClientProvider): provider is OAuthClientProvider {
  return (
    typeof (provider as OAuthClientProvider).tokens === "function" &&
    typeof (provider as OAuthClientProvider).clientInformation === "function"
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
