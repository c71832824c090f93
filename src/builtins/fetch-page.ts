// fetchPage: one web_fetch request, redirects followed by hand, every hop's host and every address connected to checked
// against the options, the body read up to a byte cap, the whole of it under one time cap.
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { isHostAllowed } from "../sandbox/host-allowed.js";
import { classifyAddress, isSameAddress } from "./classify-address.js";
import { WebFetchError } from "./web-fetch-error.js";
import type { ResolvedWebFetchOptions } from "./web-fetch-options.js";

/** The User-Agent of every request; nothing else of this process (no cookie, no credential) is sent. */
export const WEB_FETCH_USER_AGENT = "toolwire-web-fetch/1";

/** What one call asks for. */
export interface PageRequest {
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly body?: string;
  readonly contentType?: string;
}

/** One redirect followed: where it pointed from, with which status. */
export interface RedirectHop {
  readonly url: string;
  readonly status: number;
}

/** What came back: the final URL and status, the content type as sent, and the body as read (cut at `maxBytes`). */
export interface FetchedPage {
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string | undefined;
  readonly body: Buffer;
  /** True when the body was longer than `maxBytes` and the rest was not read. */
  readonly truncated: boolean;
  /** The length the server declared (`content-length`), when it did. */
  readonly declaredBytes: number | undefined;
  readonly redirects: readonly RedirectHop[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `request.url`. Throws `WebFetchError`: `invalid-url`, `host-not-allowed`, `address-not-allowed`,
 * `too-many-redirects`, `fetch-timeout`, `fetch-failed`. When `signal` aborts, rejects with its reason.
 */
export async function fetchPage(
  request: PageRequest,
  options: ResolvedWebFetchOptions,
  signal: AbortSignal,
): Promise<FetchedPage> {
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), options.timeoutMs);
  const both = AbortSignal.any([timer.signal, signal]);
  try {
    const redirects: RedirectHop[] = [];
    let url = parseUrl(request.url, undefined);
    let { method, body } = request;
    for (;;) {
      checkHost(url, options, redirects);
      const response = await send(url, { ...request, method, body }, options, both);
      const location = response.headers.location;
      if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
        return await readPage(url, response, options.maxBytes, redirects, both);
      }
      response.destroy();
      const next = parseUrl(location, url);
      if (redirects.length >= options.maxRedirects) {
        throw new WebFetchError(
          "too-many-redirects",
          `web_fetch stopped at ${url.href}: it redirects (${response.statusCode}) to ${next.href}, and web_fetch follows at most ${options.maxRedirects} redirect${options.maxRedirects === 1 ? "" : "s"}${redirects.length > 0 ? ` (it followed ${describeHops(redirects)})` : ""}. Fetch the final address directly if you know it.`,
        );
      }
      redirects.push({ url: url.href, status: response.statusCode ?? 0 });
      // As browsers do: 303, and 301 or 302 after a POST, go on as a GET without the body.
      const status = response.statusCode ?? 0;
      if (status === 303 || (method === "POST" && (status === 301 || status === 302))) {
        method = "GET";
        body = undefined;
      }
      url = next;
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (timer.signal.aborted) {
      throw new WebFetchError(
        "fetch-timeout",
        `web_fetch gave up on ${request.url} after ${options.timeoutMs} ms (its time limit, redirects and the whole body included). The server is slow or still sending; try again later or another page.`,
      );
    }
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}

function parseUrl(text: string, base: URL | undefined): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    const what = base === undefined ? "" : ` (a redirect from ${base.href})`;
    throw new WebFetchError(
      "invalid-url",
      `web_fetch cannot fetch ${JSON.stringify(text.slice(0, 200))}${what}: it is not a URL. Give a full http:// or https:// URL.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebFetchError(
      "invalid-url",
      `web_fetch fetches only http:// and https:// URLs, not ${url.protocol}${base === undefined ? "" : ` (a redirect from ${base.href} pointed to ${url.href})`}.`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new WebFetchError(
      "invalid-url",
      "web_fetch does not send credentials: give the URL without a user name or password before the host.",
    );
  }
  return url;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Refuses a URL whose host `allowHosts` does not name, or whose host is an IP literal that is not allowed. */
function checkHost(url: URL, options: ResolvedWebFetchOptions, redirects: readonly RedirectHop[]): void {
  const host = hostOf(url);
  const via = redirects.length === 0 ? "" : ` (reached by a redirect from ${redirects.at(-1)?.url})`;
  const listed =
    isHostAllowed(host, options.allowHosts) || options.allowHosts.some((entry) => isSameAddress(entry, host));
  if (!listed) {
    const list = options.allowHosts.length === 0 ? "none" : options.allowHosts.join(", ");
    throw new WebFetchError(
      "host-not-allowed",
      `web_fetch refused ${url.href}${via}: the host ${host} is not in web_fetch's allowHosts (${list}). Fetch a URL on one of those hosts; a person can add hosts to allowHosts.`,
    );
  }
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, options);
    if (refusal !== undefined)
      throw new WebFetchError("address-not-allowed", `web_fetch refused ${url.href}${via}: ${host} is ${refusal}`);
  }
}

/** Why web_fetch may not connect to `address` (the end of a sentence), or `undefined` when it may. */
function addressRefusal(address: string, options: ResolvedWebFetchOptions): string | undefined {
  const found = classifyAddress(address);
  if (found === undefined) return "not an IP address.";
  if (found.kind === "public" || options.allowHosts.some((entry) => isSameAddress(entry, address))) return undefined;
  if (options.allowPrivateAddresses && found.kind !== "metadata") return undefined;
  const what = KIND_NAMES[found.kind];
  const mapped = found.embedded === undefined ? "" : ` (it carries the IPv4 address ${found.embedded})`;
  const unless =
    found.kind === "metadata"
      ? "it is refused unless allowHosts lists that very address"
      : "web_fetch connects only to public addresses unless its settings allow more (allowPrivateAddresses, or the address in allowHosts)";
  return `${what}${mapped}: ${unless}.`;
}

const KIND_NAMES = {
  public: "a public address",
  unspecified: "the unspecified address",
  loopback: "a loopback address (this machine)",
  private: "a private network address",
  "link-local": "a link-local address",
  "unique-local": "a unique-local (private) IPv6 address",
  cgnat: "a carrier-grade NAT (shared) address",
  multicast: "a multicast address",
  metadata: "a cloud metadata service address",
  reserved: "a reserved address, not on the public internet",
} as const;

/**
 * The `lookup` a connection resolves its host with: every address the resolver gives is checked, and only those that
 * pass are handed to the connection, so what is connected to is what was checked (no second resolution to rebind).
 */
function checkedLookup(url: URL, options: ResolvedWebFetchOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === "IPv4" ? 4 : lookupOptions.family === "IPv6" ? 6 : lookupOptions.family;
    const answer = callback as (error: Error | null, address: unknown, family?: number) => void;
    options.lookupHost(hostname).then(
      (addresses) => {
        const usable = addresses.filter((address) => isIP(address) !== 0 && (!family || isIP(address) === family));
        const passed = usable.filter((address) => addressRefusal(address, options) === undefined);
        if (passed.length === 0) {
          const first = usable[0];
          const error =
            first === undefined
              ? new WebFetchError("fetch-failed", `web_fetch could not fetch ${url.href}: ${hostname} has no address.`)
              : new WebFetchError(
                  "address-not-allowed",
                  `web_fetch refused ${url.href}: ${hostname} resolves to ${usable.join(", ")}; ${first} is ${addressRefusal(first, options)}`,
                );
          answer(error, undefined);
          return;
        }
        if (lookupOptions.all === true)
          answer(
            null,
            passed.map((address) => ({ address, family: isIP(address) })),
          );
        else answer(null, passed[0], isIP(passed[0] as string));
      },
      (error: unknown) =>
        answer(
          new WebFetchError(
            "fetch-failed",
            `web_fetch could not find the host ${hostname} (${(error as NodeJS.ErrnoException).code ?? String(error)}). Check the URL.`,
          ),
          undefined,
        ),
    );
  };
}

/** Sends one request and resolves with the response's head. */
function send(
  url: URL,
  request: PageRequest,
  options: ResolvedWebFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const headers: Record<string, string> = {
    "user-agent": WEB_FETCH_USER_AGENT,
    accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5",
    "accept-encoding": "identity",
  };
  if (request.body !== undefined) headers["content-type"] = request.contentType ?? "text/plain; charset=utf-8";
  const requestOptions: RequestOptions = {
    protocol: url.protocol,
    hostname: hostOf(url),
    port: url.port === "" ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: request.method,
    headers,
    // A new connection per request, resolved by the checked lookup: a pooled socket could not be re-checked.
    agent: false,
    lookup: checkedLookup(url, options),
    signal,
  };
  return new Promise((resolve, reject) => {
    let outgoing: ReturnType<typeof httpRequest>;
    try {
      outgoing = (url.protocol === "https:" ? httpsRequest : httpRequest)(requestOptions, resolve);
    } catch (error) {
      reject(
        new WebFetchError(
          "fetch-failed",
          `web_fetch could not send the request to ${url.href}: ${(error as Error).message}`,
        ),
      );
      return;
    }
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      if (error instanceof WebFetchError || signal.aborted) reject(error);
      else
        reject(
          new WebFetchError("fetch-failed", `web_fetch could not fetch ${url.href}: ${describeNetworkError(error)}.`),
        );
    });
    outgoing.end(request.body);
  });
}

/** Reads a response's body, decoded, up to `maxBytes`. */
async function readPage(
  url: URL,
  response: IncomingMessage,
  maxBytes: number,
  redirects: readonly RedirectHop[],
  signal: AbortSignal,
): Promise<FetchedPage> {
  const declared = Number(response.headers["content-length"]);
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const stream = decode(response);
  const stop = () => stream.destroy();
  signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
    // A stream destroyed by the abort may end without an error: what was read is not the whole body.
    signal.throwIfAborted();
  } catch (error) {
    if (signal.aborted) throw error;
    throw new WebFetchError(
      "fetch-failed",
      `web_fetch could not read the answer of ${url.href} after ${size} bytes: ${describeNetworkError(error as NodeJS.ErrnoException)}.`,
    );
  } finally {
    signal.removeEventListener("abort", stop);
    response.destroy();
    if (stream !== response) stream.destroy();
  }
  const contentType = response.headers["content-type"];
  return {
    url: url.href,
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    contentType: contentType === undefined || contentType === "" ? undefined : contentType,
    body: Buffer.concat(chunks),
    truncated,
    declaredBytes: Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined,
    redirects,
  };
}

/** The body stream, decompressed when the server compressed it although asked not to (the cap counts decoded bytes). */
function decode(response: IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function describeHops(redirects: readonly RedirectHop[]): string {
  return redirects.map((hop) => `${hop.url} (${hop.status})`).join(", ");
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "the connection was refused (nothing listens there)";
    case "ECONNRESET":
      return "the server closed the connection";
    case "ETIMEDOUT":
      return "the connection timed out";
    default:
      return error.code === undefined ? error.message : `${error.code}: ${error.message}`;
  }
}
