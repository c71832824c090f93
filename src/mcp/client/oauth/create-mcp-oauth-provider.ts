// createMcpOAuthProvider: toolwire's OAuth 2.1 client for one MCP server, built on the SDK's OAuthClientProvider.
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import {
  type DpopSession,
  type OAuthClientInformationContext,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
  validateClientMetadataUrl,
} from "@modelcontextprotocol/client";
import { dpopSessionOf, newDpopKey } from "./dpop-key.js";
import { listenForRedirect } from "./loopback-redirect.js";
import { McpOAuthError } from "./oauth-error.js";
import { createOAuthFileStore, type OAuthStore, type OAuthStoreState, type StoredTokens } from "./oauth-store.js";

/** Default wait for the user to log in. */
export const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 300_000;
/** An access token this close to its expiry is not sent any more: the server would refuse it mid-request. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * The user logs in through a browser and the authorization server redirects to a listener on
 * `http://127.0.0.1:<port>/callback`.
 */
export interface LoopbackAuthorization {
  readonly kind: "loopback";
  /** Default: a free port, picked once and kept (in the store) so a registered redirect URI stays valid. */
  readonly port?: number;
  /**
   * Shows the authorization URL to the user (print it, open a browser). Called once the listener is up; the login
   * ends when the redirect arrives. Default: print it on stderr. A program or test without a person can fetch the
   * URL here when its authorization server approves without one.
   */
  readonly onAuthorizationUrl?: (url: URL) => void | Promise<void>;
  /** How long to wait for the redirect. Default 300 000 ms (5 minutes). */
  readonly timeoutMs?: number;
}

/** A program gets the authorization code itself (a pre-approved test server, its own web callback). */
export interface CallbackAuthorization {
  readonly kind: "callback";
  /** The redirect URI sent to the authorization server. */
  readonly redirectUrl: string;
  /**
   * Takes the authorization URL and resolves to the redirect's query, the whole redirect URL (a `URL`, or its text:
   * a string that is a URL with a `code` or `error` parameter), or the bare authorization code. The redirect's `iss`
   * (RFC 9207) is checked when present. When the answer carries a `state`, it must be the one in the authorization URL.
   */
  readonly authorize: (url: URL) => Promise<URLSearchParams | URL | string>;
}

/** How `createMcpOAuthProvider` behaves. Only `serverUrl` is required. */
export interface McpOAuthProviderOptions {
  /** The MCP server's URL: the protected resource, and the key of the stored tokens. */
  readonly serverUrl: string | URL;
  /** Scopes to ask for when the server names none (neither in its 401 challenge nor in its resource metadata). */
  readonly scopes?: readonly string[];
  /** A client registered ahead with the authorization server; without one, toolwire registers itself. */
  readonly clientId?: string;
  /** The pre-registered client's secret (confidential clients only). Never put it in a config file. */
  readonly clientSecret?: string;
  /**
   * An https URL of a client ID metadata document describing toolwire: used as the client id with authorization
   * servers that support client ID metadata documents; others get a dynamic registration (RFC 7591).
   */
  readonly clientMetadataUrl?: string;
  /** The client name in a dynamic registration. Default `toolwire`. */
  readonly clientName?: string;
  /** Where tokens and registrations are kept. Default: a file in `storeDir` (see `createOAuthFileStore`). */
  readonly store?: OAuthStore;
  /** The folder of the default file store. Default: `defaultOAuthDir()`. */
  readonly storeDir?: string;
  /** How the user's authorization is obtained. Default `{ kind: "loopback" }`. */
  readonly authorization?: LoopbackAuthorization | CallbackAuthorization;
  /**
   * DPoP (RFC 9449) sender-constrained tokens: with `true` (the default), when the authorization server offers DPoP
   * with ES256, toolwire asks for tokens bound to its own key (kept in the store with the tokens) and proves it holds
   * that key on every request. `false`: Bearer tokens only.
   */
  readonly dpop?: boolean;
}

/**
 * An `OAuthClientProvider` (the SDK drives discovery, registration, PKCE, the token requests, refresh and step-up)
 * plus what the bridge needs to finish an authorization code flow.
 */
export interface McpOAuthProvider extends OAuthClientProvider {
  /** Loads the stored state and settles the redirect URI. The transport calls it before its first request. */
  prepare(): Promise<void>;
  /** The authorization URL the SDK asked to send the user to, until `authorizePending` takes it. */
  readonly pendingAuthorizationUrl: URL | undefined;
  /**
   * Gets the user's authorization for the pending URL: shows it (loopback) or hands it to the program (callback) and
   * resolves to the redirect's query, state checked. Rejects with `McpOAuthError` (`authorization-timeout`,
   * `authorization-denied`, `redirect-listen-failed`, `authorization-failed`).
   */
  authorizePending(options?: { readonly signal?: AbortSignal }): Promise<URLSearchParams>;
  /** Where the tokens are kept (a file path, or `memory`). */
  readonly storeLocation: string;
  /** Forgets the stored tokens and registrations of this server. */
  logout(): Promise<void>;
}

/**
 * Creates the OAuth client for one MCP server: pass it to `connectMcpServer` as `authProvider` (or describe it in the
 * server config's `auth`). Throws `McpOAuthError` `invalid-oauth-config` for a bad `clientMetadataUrl` (it must be an
 * https URL with a path), a port outside 0-65535, or a secret without a client id.
 */
export function createMcpOAuthProvider(options: McpOAuthProviderOptions): McpOAuthProvider {
  const serverUrl = String(options.serverUrl);
  const authorization = options.authorization ?? { kind: "loopback" };
  try {
    validateClientMetadataUrl(options.clientMetadataUrl);
  } catch (error) {
    throw new McpOAuthError(
      "invalid-oauth-config",
      `clientMetadataUrl must be an https URL with a path, got ${JSON.stringify(options.clientMetadataUrl)}`,
      { cause: error },
    );
  }
  if (options.clientSecret !== undefined && options.clientId === undefined) {
    throw new McpOAuthError("invalid-oauth-config", "A client secret needs its clientId");
  }
  if (authorization.kind === "loopback" && authorization.port !== undefined) {
    const port = authorization.port;
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new McpOAuthError(
        "invalid-oauth-config",
        `The redirect port must be an integer from 1 to 65535, got ${port}`,
      );
    }
  }
  const store =
    options.store ?? createOAuthFileStore({ serverUrl, ...(options.storeDir ? { dir: options.storeDir } : {}) });
  let state: OAuthStoreState | undefined;
  let redirectUrl: string | undefined = authorization.kind === "callback" ? authorization.redirectUrl : undefined;
  let codeVerifier: string | undefined;
  let discovery: OAuthDiscoveryState | undefined;
  // From a redirect until its code is exchanged: only then is the discovery handed back to the SDK (it checks the
  // code against the authorization server it came from). Any other authorization discovers again, so a resource that
  // now names another authorization server is seen (docs/mcp.md#oauth).
  let awaitingCode = false;
  let expectedState: string | undefined;
  let pending: URL | undefined;
  let preparing: Promise<void> | undefined;
  let dpopSession: Promise<DpopSession> | undefined;

  const load = async (): Promise<OAuthStoreState> => {
    state ??= await store.load();
    return state;
  };
  const update = async (change: (current: OAuthStoreState) => OAuthStoreState) => {
    state = change(await load());
    await store.save(state);
  };
  const loaded = (): OAuthStoreState => {
    if (state === undefined) throw new Error("createMcpOAuthProvider: prepare() must run before the OAuth flow");
    return state;
  };

  async function prepareOnce(): Promise<void> {
    const current = await load();
    if (authorization.kind !== "loopback" || redirectUrl !== undefined) return;
    if (authorization.port !== undefined) {
      redirectUrl = loopbackUrl(authorization.port);
      return;
    }
    if (current.redirectUrl !== undefined && isLoopbackRedirect(current.redirectUrl)) {
      redirectUrl = current.redirectUrl;
      return;
    }
    redirectUrl = loopbackUrl(await freePort());
    const chosen = redirectUrl;
    await update((stateNow) => ({ ...stateNow, redirectUrl: chosen }));
  }

  const provider: McpOAuthProvider = {
    get redirectUrl() {
      if (redirectUrl === undefined)
        throw new Error("createMcpOAuthProvider: prepare() must run before the OAuth flow");
      return redirectUrl;
    },
    ...(options.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: options.clientMetadataUrl }),
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: options.clientName ?? "toolwire",
        redirect_uris: [provider.redirectUrl as string],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        ...(options.clientSecret === undefined && options.clientId === undefined
          ? { token_endpoint_auth_method: "none" }
          : {}),
        ...(options.scopes === undefined || options.scopes.length === 0 ? {} : { scope: options.scopes.join(" ") }),
      };
    },
    get pendingAuthorizationUrl() {
      return pending;
    },
    storeLocation: store.location,
    prepare() {
      preparing ??= prepareOnce().catch((error: unknown) => {
        preparing = undefined;
        throw error;
      });
      return preparing;
    },
    state() {
      expectedState = randomBytes(16).toString("base64url");
      return expectedState;
    },
    async clientInformation(context?: OAuthClientInformationContext) {
      const clients = loaded().clients ?? {};
      if (options.clientId !== undefined) {
        // Where this client was used (its id is stored, never its secret): it is registered there and nowhere else.
        const usedAt = Object.keys(clients).find((issuer) => clients[issuer]?.client_id === options.clientId);
        if (context !== undefined && usedAt !== undefined && !sameIssuer(usedAt, context.issuer)) {
          throw new McpOAuthError(
            "authorization-failed",
            `${serverUrl} now names the authorization server ${context.issuer}, but the client id given is registered with ${usedAt}: register a client there and give its id, or leave clientId out to register automatically`,
          );
        }
        const issuer = usedAt ?? context?.issuer;
        if (usedAt === undefined && issuer !== undefined) {
          await update((current) => ({
            ...current,
            clients: { ...current.clients, [issuer]: { client_id: options.clientId as string, issuer } },
          }));
        }
        return {
          client_id: options.clientId,
          ...(options.clientSecret === undefined ? {} : { client_secret: options.clientSecret }),
          ...(issuer === undefined ? {} : { issuer }),
        };
      }
      if (context !== undefined) return clients[context.issuer];
      return Object.values(clients)[0];
    },
    async saveClientInformation(information: OAuthClientInformationMixed, context?: OAuthClientInformationContext) {
      const issuer = context?.issuer ?? (information as { issuer?: string }).issuer ?? "";
      // A pre-registered client is configured, not stored (clientInformation notes where it is used).
      if (options.clientId !== undefined) return;
      await update((current) => ({ ...current, clients: { ...current.clients, [issuer]: information } }));
    },
    tokens(context?: OAuthClientInformationContext) {
      const tokens = loaded().tokens;
      if (tokens === undefined) return undefined;
      // Tokens are only ever presented to the authorization server that issued them.
      if (context !== undefined && tokens.issuer !== undefined && !sameIssuer(tokens.issuer, context.issuer)) {
        return undefined;
      }
      // The per-request read: an expired access token is not sent, so the server's 401 starts a refresh.
      if (
        context === undefined &&
        tokens.expires_at !== undefined &&
        tokens.expires_at - EXPIRY_MARGIN_MS < Date.now()
      ) {
        return undefined;
      }
      return tokens;
    },
    async saveTokens(tokens: OAuthTokens & { issuer?: string }) {
      await update((current) => {
        const previous = current.tokens;
        const next: StoredTokens = {
          ...tokens,
          // A refresh answer may leave the refresh token out: the old one stays valid then (RFC 6749 section 6).
          ...(tokens.refresh_token === undefined && previous?.refresh_token !== undefined
            ? { refresh_token: previous.refresh_token }
            : {}),
          ...(typeof tokens.expires_in === "number" ? { expires_at: Date.now() + tokens.expires_in * 1000 } : {}),
        };
        return { ...current, tokens: next };
      });
    },
    redirectToAuthorization(url: URL) {
      pending = url;
      awaitingCode = true;
    },
    saveCodeVerifier(verifier: string) {
      codeVerifier = verifier;
    },
    codeVerifier() {
      if (codeVerifier === undefined)
        throw new McpOAuthError("authorization-failed", "No PKCE code verifier was saved");
      // The code is being exchanged: the flow's discovery is spent.
      awaitingCode = false;
      return codeVerifier;
    },
    dpop() {
      if (options.dpop === false) return undefined;
      // DPoP where the authorization server offers it (its metadata), and for tokens it bound to the key already.
      const metadata = discovery?.authorizationServerMetadata as
        | { dpop_signing_alg_values_supported?: unknown }
        | undefined;
      const offered = metadata?.dpop_signing_alg_values_supported;
      const bound = state?.tokens?.token_type?.toLowerCase() === "dpop";
      if (!bound && !(Array.isArray(offered) && offered.includes("ES256"))) return undefined;
      dpopSession ??= storedDpopSession().catch((error: unknown) => {
        dpopSession = undefined;
        throw error;
      });
      return dpopSession;
    },
    saveDiscoveryState(discovered: OAuthDiscoveryState) {
      discovery = discovered;
    },
    discoveryState() {
      return awaitingCode ? discovery : undefined;
    },
    async invalidateCredentials(scope) {
      if (scope === "verifier" || scope === "all") codeVerifier = undefined;
      if (scope === "discovery" || scope === "all") discovery = undefined;
      if (scope === "tokens" || scope === "all") await update(({ tokens: _tokens, ...rest }) => rest);
      if (scope === "client" || scope === "all") await update(({ clients: _clients, ...rest }) => rest);
    },
    async authorizePending(authorizeOptions = {}) {
      const url = pending;
      if (url === undefined) throw new McpOAuthError("authorization-failed", "No authorization is pending");
      pending = undefined;
      try {
        return await obtainAuthorization(url, authorizeOptions);
      } catch (error) {
        awaitingCode = false;
        throw error;
      }
    },
    async logout() {
      state = {};
      dpopSession = undefined;
      codeVerifier = undefined;
      discovery = undefined;
      awaitingCode = false;
      await store.clear();
    },
  };

  /** The session of the stored DPoP key, made (and stored) the first time. */
  async function storedDpopSession(): Promise<DpopSession> {
    const kept = (await load()).dpopKey;
    if (kept !== undefined) return dpopSessionOf(kept);
    const made = await newDpopKey();
    await update((current) => ({ ...current, dpopKey: made.stored }));
    return made.session;
  }

  async function obtainAuthorization(url: URL, authorizeOptions: { readonly signal?: AbortSignal }) {
    const wanted = url.searchParams.get("state") ?? expectedState ?? "";
    if (authorization.kind === "callback") {
      const params = callbackParams(await authorization.authorize(url));
      const got = params.get("state");
      if (got !== null && got !== wanted) {
        throw new McpOAuthError(
          "authorization-failed",
          "The authorization answer carries another state than the request",
        );
      }
      const error = params.get("error");
      if (error !== null) {
        throw new McpOAuthError("authorization-denied", `The authorization server refused the authorization: ${error}`);
      }
      return params;
    }
    const port = new URL(provider.redirectUrl as string).port;
    const listener = await listenForRedirect({ port: Number(port) });
    try {
      const waiting = listener.waitForRedirect({
        state: wanted,
        timeoutMs: authorization.timeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
        ...(authorizeOptions.signal === undefined ? {} : { signal: authorizeOptions.signal }),
      });
      // A failing opener must not leave the wait without a handler.
      waiting.catch(() => undefined);
      await (authorization.onAuthorizationUrl ?? printAuthorizationUrl(serverUrl))(url);
      return await waiting;
    } finally {
      await listener.close();
    }
  }
  return provider;
}

/** RFC 8414 issuers compared as the SDK does: equal, or equal but for one trailing slash. */
function sameIssuer(a: string, b: string): boolean {
  return a === b || a === `${b}/` || `${a}/` === b;
}

/**
 * A callback's answer as the redirect's query. A string that is a URL with a `code` or `error` parameter is the
 * redirect, read whole (its `state`, and its `iss` that RFC 9207 servers send and the SDK checks); any other string
 * is the bare authorization code.
 */
function callbackParams(answer: URLSearchParams | URL | string): URLSearchParams {
  if (answer instanceof URL) return answer.searchParams;
  if (typeof answer !== "string") return answer;
  const redirect = URL.canParse(answer) ? new URL(answer) : undefined;
  return redirect !== undefined && (redirect.searchParams.has("code") || redirect.searchParams.has("error"))
    ? redirect.searchParams
    : new URLSearchParams({ code: answer });
}

/** The default `onAuthorizationUrl`: the URL on stderr, with the server it is for. */
export function printAuthorizationUrl(serverUrl: string): (url: URL) => void {
  return (url) => {
    process.stderr.write(`To authorize toolwire for ${serverUrl}, open this URL in a browser:\n${url.href}\n`);
  };
}

function loopbackUrl(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

function isLoopbackRedirect(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" && parsed.hostname === "127.0.0.1" && parsed.port !== "";
  } catch {
    return false;
  }
}

/** A port nobody listens on now, from the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (error) =>
      reject(new McpOAuthError("redirect-listen-failed", `Could not find a free port on 127.0.0.1: ${error.message}`)),
    );
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
