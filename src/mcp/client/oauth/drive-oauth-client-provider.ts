// driveOAuthClientProvider: lets the bridge finish an authorization code login with a plain SDK OAuthClientProvider.
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { McpOAuthProvider } from "./create-mcp-oauth-provider.js";
import { DEFAULT_AUTHORIZATION_TIMEOUT_MS } from "./create-mcp-oauth-provider.js";
import { listenForRedirect } from "./loopback-redirect.js";
import { McpOAuthError } from "./oauth-error.js";

/** The members the bridge adds to a provider it drives; the provider's own members of these names are hidden. */
type Driver = Pick<
  McpOAuthProvider,
  "prepare" | "pendingAuthorizationUrl" | "redirectToAuthorization" | "authorizePending" | "storeLocation" | "logout"
>;

/**
 * Makes an SDK `OAuthClientProvider` (one that is not toolwire's) something the bridge can finish a login with, when
 * its `redirectUrl` is a loopback URL with a port (`http://127.0.0.1:<port>/<path>` or `http://localhost:<port>/<path>`):
 * the SDK's call of `redirectToAuthorization(url)` is held until a listener on 127.0.0.1 at that port and path waits
 * for the redirect, then passed on to the provider (which shows the URL or opens a browser). The redirect's query
 * (its `state` checked against the one the authorization URL carries) is what the bridge exchanges for tokens, through
 * the provider. Everything else (storage, registration, PKCE) stays the provider's own. Any other provider is returned
 * as it is: one without a `redirectUrl` (a non-interactive grant), or one whose redirect goes elsewhere (a web app
 * that receives the code itself: the bridge cannot finish its logins).
 */
export function driveOAuthClientProvider(
  provider: OAuthClientProvider,
  options: { readonly timeoutMs?: number } = {},
): OAuthClientProvider | McpOAuthProvider {
  const redirect = loopbackRedirectOf(provider.redirectUrl);
  if (redirect === undefined) return provider;
  let pending: URL | undefined;
  const driver: Driver = {
    async prepare() {},
    get pendingAuthorizationUrl() {
      return pending;
    },
    redirectToAuthorization(url: URL) {
      pending = url;
    },
    async authorizePending(authorizeOptions = {}) {
      const url = pending;
      if (url === undefined) throw new McpOAuthError("authorization-failed", "No authorization is pending");
      pending = undefined;
      const listener = await listenForRedirect({ port: Number(redirect.port), path: redirect.pathname });
      try {
        const waiting = listener.waitForRedirect({
          state: url.searchParams.get("state") ?? undefined,
          timeoutMs: options.timeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS,
          ...(authorizeOptions.signal === undefined ? {} : { signal: authorizeOptions.signal }),
        });
        // A failing opener must not leave the wait without a handler.
        waiting.catch(() => undefined);
        await provider.redirectToAuthorization(url);
        return await waiting;
      } finally {
        await listener.close();
      }
    },
    storeLocation: "the auth provider's own storage",
    async logout() {
      await provider.invalidateCredentials?.("all");
    },
  };
  // A proxy rather than a copy: the provider may be a class instance (getters, private fields) and may have optional
  // members added by later SDK versions; each is read from the provider itself, with the provider as `this`.
  return new Proxy(provider, {
    get(target, key) {
      if (Object.hasOwn(driver, key)) return Reflect.get(driver, key);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(target, key) {
      return Object.hasOwn(driver, key) || Reflect.has(target, key);
    },
  }) as McpOAuthProvider;
}

/** The redirect URL when it is http on 127.0.0.1 or localhost with an explicit port. */
function loopbackRedirectOf(redirectUrl: string | URL | undefined): URL | undefined {
  if (redirectUrl === undefined || !URL.canParse(String(redirectUrl))) return undefined;
  const url = new URL(String(redirectUrl));
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost";
  return url.protocol === "http:" && loopback && url.port !== "" ? url : undefined;
}
