// AuthorizingHttpTransport: Streamable HTTP that finishes an OAuth authorization code flow the SDK started.
import {
  type AuthProvider,
  type JSONRPCMessage,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  type StreamableHTTPClientTransportOptions,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { McpOAuthProvider } from "./create-mcp-oauth-provider.js";

/** Authorizations per request after the connection is up (a step-up, a login again), before the request fails. */
const MAX_AUTHORIZATIONS_PER_REQUEST = 2;

/**
 * The SDK asked for the user's authorization while connecting. Connecting gives up with this error so the login does
 * not count against the connect timeout; `complete()` gets the authorization and exchanges the code, and the next
 * connection then carries the token.
 */
export class AuthorizationPendingError extends UnauthorizedError {
  constructor(
    readonly authorizationUrl: URL,
    readonly complete: (options?: { readonly signal?: AbortSignal }) => Promise<void>,
  ) {
    super(`The MCP server needs an OAuth authorization: ${authorizationUrl.origin}${authorizationUrl.pathname}`);
    this.name = "AuthorizationPendingError";
  }
}

/** Whether a provider is toolwire's OAuth client (it can finish an authorization code flow). */
export function isMcpOAuthProvider(provider: unknown): provider is McpOAuthProvider {
  return (
    typeof provider === "object" &&
    provider !== null &&
    typeof (provider as McpOAuthProvider).authorizePending === "function" &&
    typeof (provider as McpOAuthProvider).prepare === "function"
  );
}

/**
 * Streamable HTTP with an auth provider. With toolwire's OAuth provider it completes what the SDK leaves to the host:
 * when a request needs the user's authorization (the first login, a login after a refresh token expired, more scopes
 * on `insufficient_scope`), it gets the authorization, exchanges the code and sends the request again (at most twice
 * per request). Before any request succeeded (while connecting) it throws `AuthorizationPendingError` instead.
 * Other providers (client credentials, a bearer token callback) are passed to the SDK as they are.
 */
export class AuthorizingHttpTransport extends StreamableHTTPClientTransport {
  readonly #provider: McpOAuthProvider | undefined;
  #succeeded = false;

  constructor(
    url: URL,
    options: StreamableHTTPClientTransportOptions & { authProvider?: AuthProvider | OAuthClientProvider },
  ) {
    super(url, options);
    this.#provider = isMcpOAuthProvider(options.authProvider) ? options.authProvider : undefined;
  }

  override async start(): Promise<void> {
    await this.#provider?.prepare();
    return super.start();
  }

  override async send(
    message: JSONRPCMessage | JSONRPCMessage[],
    options?: Parameters<StreamableHTTPClientTransport["send"]>[1],
  ): Promise<void> {
    for (let round = 0; ; round++) {
      try {
        await super.send(message, options);
        this.#succeeded = true;
        return;
      } catch (error) {
        const provider = this.#provider;
        const url = provider?.pendingAuthorizationUrl;
        if (provider === undefined || url === undefined || !(error instanceof UnauthorizedError)) throw error;
        if (!this.#succeeded)
          throw new AuthorizationPendingError(url, (completeOptions) => this.#complete(completeOptions));
        if (round >= MAX_AUTHORIZATIONS_PER_REQUEST) throw error;
        await this.#complete();
      }
    }
  }

  async #complete(options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    const provider = this.#provider as McpOAuthProvider;
    const params = await provider.authorizePending(options);
    await this.finishAuth(params);
  }
}
