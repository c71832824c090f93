// The loopback redirect listener: an HTTP server on 127.0.0.1 that receives the authorization server's redirect.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpOAuthError } from "./oauth-error.js";

/** Where to listen. */
export interface LoopbackRedirectOptions {
  /** Default 0: a free port the system picks. */
  readonly port?: number;
  /** The path of the redirect URI. Default `/callback`. */
  readonly path?: string;
}

/** A listening loopback redirect: give its `redirectUrl` to the authorization server, then wait for the redirect. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port><path>`. */
  readonly redirectUrl: string;
  readonly port: number;
  /**
   * Resolves to the redirect's query (`code`, `state`, `iss`, ...) once a request to the path arrives with the given
   * `state` (`undefined`: with none, for an authorization request that sent none). A request with another state (or none) is answered 400 and the wait goes on, so a stray or forged
   * request cannot end a login. Rejects with `McpOAuthError` `authorization-denied` when the redirect carries
   * `error` (with the right state), `authorization-timeout` after `timeoutMs`, or the signal's reason when aborted.
   */
  waitForRedirect(options: {
    readonly state: string | undefined;
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
  }): Promise<URLSearchParams>;
  close(): Promise<void>;
}

const PAGE_DONE = "<!doctype html><title>toolwire</title><p>Authorization received. You can close this window.</p>";
const PAGE_DENIED =
  "<!doctype html><title>toolwire</title><p>Authorization was not granted. You can close this window.</p>";
const PAGE_WRONG =
  "<!doctype html><title>toolwire</title><p>This is not the authorization toolwire is waiting for.</p>";

/**
 * Listens on 127.0.0.1 (never on other interfaces). Rejects with `McpOAuthError` `redirect-listen-failed` when the
 * port cannot be had, or `invalid-oauth-config` for a port outside 0-65535.
 */
export async function listenForRedirect(options: LoopbackRedirectOptions = {}): Promise<LoopbackRedirect> {
  const port = options.port ?? 0;
  const path = options.path ?? "/callback";
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new McpOAuthError(
      "invalid-oauth-config",
      `The redirect port must be an integer from 0 to 65535, got ${port}`,
    );
  }
  let waiter:
    | { state: string | undefined; resolve: (params: URLSearchParams) => void; reject: (error: unknown) => void }
    | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method !== "GET" || url.pathname !== path) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const params = url.searchParams;
    const current = waiter;
    if (current === undefined || (params.get("state") ?? undefined) !== current.state) {
      response.writeHead(400, { "content-type": "text/html; charset=utf-8" }).end(PAGE_WRONG);
      return;
    }
    waiter = undefined;
    const error = params.get("error");
    if (error !== null) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE_DENIED);
      const description = params.get("error_description");
      // The description comes from the authorization server via the browser: shown, but marked as its words.
      current.reject(
        new McpOAuthError(
          "authorization-denied",
          `The authorization server refused the authorization: ${error}${description === null ? "" : ` (it said: ${description.slice(0, 200)})`}`,
        ),
      );
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE_DONE);
    current.resolve(params);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new McpOAuthError(
          "redirect-listen-failed",
          `Could not listen for the authorization redirect on 127.0.0.1:${port}: ${error.code ?? error.message}${error.code === "EADDRINUSE" ? ". Free the port or choose another redirectPort." : ""}`,
          { cause: error },
        ),
      );
    };
    server.once("error", onError);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    redirectUrl: `http://127.0.0.1:${bound}${path}`,
    port: bound,
    waitForRedirect({ state, timeoutMs, signal }) {
      return new Promise<URLSearchParams>((resolve, reject) => {
        const finish = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          waiter = undefined;
        };
        const onAbort = () => {
          finish();
          reject(signal?.reason);
        };
        const timer = setTimeout(() => {
          finish();
          reject(
            new McpOAuthError(
              "authorization-timeout",
              `No authorization arrived at ${`http://127.0.0.1:${bound}${path}`} within ${Math.round(timeoutMs / 1000)} s. Open the authorization URL in a browser and log in, or try again.`,
            ),
          );
        }, timeoutMs);
        if (signal?.aborted === true) {
          onAbort();
          return;
        }
        signal?.addEventListener("abort", onAbort, { once: true });
        waiter = {
          state,
          resolve: (params) => {
            finish();
            resolve(params);
          },
          reject: (error) => {
            finish();
            reject(error);
          },
        };
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
