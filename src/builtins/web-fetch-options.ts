// The options of web_fetch: which hosts and addresses it may reach, which methods, and its caps; checked once.
import { lookup } from "node:dns/promises";
import { HOST_PATTERN } from "../sandbox/sandbox-options.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";

/** The most bytes of a body `web_fetch` reads when its options name no `maxBytes`: 1 MiB. */
export const DEFAULT_WEB_FETCH_MAX_BYTES = 1024 * 1024;
/** How long one `web_fetch` call may take, redirects and body included, when its options name no `timeoutMs`. */
export const DEFAULT_WEB_FETCH_TIMEOUT_MS = 30_000;
/** How many redirects `web_fetch` follows when its options name no `maxRedirects`. */
export const DEFAULT_WEB_FETCH_MAX_REDIRECTS = 5;

/** The longest a timer can wait in Node (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;
/** The largest `maxBytes`: 256 MiB, well inside what one Buffer can hold. */
const MAX_WEB_FETCH_BYTES = 256 * 1024 * 1024;

/** Options of `createWebFetchTool` (and of `createBuiltinTools`'s `web`). Only `allowHosts` is required. */
export interface WebFetchOptions {
  /**
   * The hosts it may fetch from: names or IP literals (any case), and `*.example.com` for every subdomain of
   * example.com (not example.com itself). The same patterns as the sandbox's `network.allowHosts`. Any port.
   */
  readonly allowHosts: readonly string[];
  /**
   * `true` lets it connect to loopback, private, link-local, unique-local, CGNAT and other non-public addresses (never
   * to a cloud metadata address unless `allowHosts` lists that address). Default false: only public addresses, and
   * those `allowHosts` lists as IP literals.
   */
  readonly allowPrivateAddresses?: boolean;
  /** `true` adds `method: "POST"` with a `body`; the tool's `effects` become `external`. Default false (GET only). */
  readonly allowPost?: boolean;
  /** The most bytes of a body it reads; a longer body is cut there and the model told so. Default 1 MiB; at most 256 MiB. */
  readonly maxBytes?: number;
  /**
   * How long a call may take, every redirect, the whole body and turning HTML into Markdown included. Default 30 000 ms;
   * at most 2147483647 (what a timer can wait).
   */
  readonly timeoutMs?: number;
  /** How many redirects it follows, each checked like the first URL. Default 5; 0 follows none; at most 20. */
  readonly maxRedirects?: number;
  /**
   * How a host name becomes addresses. Default: the system resolver (`dns.lookup`, /etc/hosts included). Every
   * address it gives is checked before a connection is made, and the connection goes only to an address that passed.
   */
  readonly lookupHost?: (hostname: string) => Promise<readonly string[]>;
}

/** `WebFetchOptions` checked, with every default filled in. */
export interface ResolvedWebFetchOptions {
  readonly allowHosts: readonly string[];
  readonly allowPrivateAddresses: boolean;
  readonly allowPost: boolean;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly lookupHost: (hostname: string) => Promise<readonly string[]>;
}

/** Checks `options` and fills in the defaults. Throws `BuiltinToolsError` `invalid-option`, naming the field. */
export function resolveWebFetchOptions(options: WebFetchOptions): ResolvedWebFetchOptions {
  const fail = (field: string, why: string): never => {
    throw new BuiltinToolsError("invalid-option", `web.${field} ${why}`);
  };
  if (typeof options !== "object" || options === null) fail("allowHosts", "is required: the hosts web_fetch may reach");
  const { allowHosts } = options;
  if (!Array.isArray(allowHosts)) fail("allowHosts", 'must be a list of host names, such as ["docs.example.com"]');
  for (const host of allowHosts) {
    if (typeof host !== "string" || !HOST_PATTERN.test(host)) {
      fail(
        "allowHosts",
        `lists ${JSON.stringify(host)}, which is not a host name (such as "docs.example.com" or "*.github.com")`,
      );
    }
  }
  const flag = (field: "allowPrivateAddresses" | "allowPost") => {
    const value = options[field];
    if (value !== undefined && typeof value !== "boolean") fail(field, `must be true or false, got ${String(value)}`);
    return value === true;
  };
  const count = (field: "maxBytes" | "timeoutMs" | "maxRedirects", fallback: number, least: number, most: number) => {
    const value = options[field];
    if (value === undefined) return fallback;
    if (!(typeof value === "number" && Number.isInteger(value) && value >= least && value <= most)) {
      fail(field, `must be a whole number from ${least} to ${most}, got ${String(value)}`);
    }
    return value;
  };
  if (options.lookupHost !== undefined && typeof options.lookupHost !== "function") {
    fail("lookupHost", "must be a function from a host name to its addresses");
  }
  return {
    allowHosts: allowHosts.map((host) => host.toLowerCase()),
    allowPrivateAddresses: flag("allowPrivateAddresses"),
    allowPost: flag("allowPost"),
    maxBytes: count("maxBytes", DEFAULT_WEB_FETCH_MAX_BYTES, 1, MAX_WEB_FETCH_BYTES),
    timeoutMs: count("timeoutMs", DEFAULT_WEB_FETCH_TIMEOUT_MS, 1, MAX_TIMER_MS),
    maxRedirects: count("maxRedirects", DEFAULT_WEB_FETCH_MAX_REDIRECTS, 0, 20),
    lookupHost: options.lookupHost ?? systemLookup,
  };
}

/** Every address the system resolver gives for `hostname`. */
async function systemLookup(hostname: string): Promise<readonly string[]> {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}
