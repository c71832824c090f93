// checkInspectorRequest: whether a request may reach the inspector: its token, its Host (against DNS rebinding) and,
// for a request that changes something, its Origin (against other sites' pages posting to it).
import { timingSafeEqual } from "node:crypto";
import { checkRequestOrigin } from "../mcp/server/gateway/check-request-origin.js";

/**
 * A request the inspector answers, with the path after the token and its slash (`""` for the page itself; `null`
 * for the token alone, which is redirected to the page), or why it is refused.
 */
type InspectorRequestCheck =
  | { readonly ok: true; readonly path: string | null }
  | { readonly ok: false; readonly status: 403 | 404; readonly message: string };

/**
 * Checks one request. The URL's first segment must be the token (else 404, the same answer as for a path that does
 * not exist, so the token cannot be probed); the Host must be 127.0.0.1, localhost or [::1] at `port` (else 403);
 * an Origin, when present, must be the page's own (http on one of those hosts at `port`); and a request other than
 * GET or HEAD must carry one (else 403). Never throws.
 */
export function checkInspectorRequest(
  request: { readonly method?: string; readonly url?: string; readonly headers: Record<string, unknown> },
  rules: { readonly token: string; readonly port: number },
): InspectorRequestCheck {
  const notFound = { ok: false, status: 404, message: "Not found" } as const;
  const url = typeof request.url === "string" ? request.url : "";
  const path = url.split("?")[0] ?? "";
  if (!path.startsWith("/")) return notFound;
  const slash = path.indexOf("/", 1);
  const given = slash === -1 ? path.slice(1) : path.slice(1, slash);
  if (!sameToken(given, rules.token)) return notFound;
  const host = request.headers.host;
  const origin = request.headers.origin;
  const refused = checkRequestOrigin(
    {
      ...(typeof host === "string" ? { host } : {}),
      ...(typeof origin === "string" ? { origin } : {}),
    },
    { boundHost: "127.0.0.1", port: rules.port },
  );
  if (refused !== undefined) return { ok: false, status: 403, message: refused };
  if (typeof origin !== "string" && request.headers.origin !== undefined) {
    return { ok: false, status: 403, message: "Forbidden: a request has one Origin" };
  }
  const method = request.method ?? "GET";
  if (method !== "GET" && method !== "HEAD" && typeof origin !== "string") {
    return { ok: false, status: 403, message: "Forbidden: a request that changes something needs the page's Origin" };
  }
  return { ok: true, path: slash === -1 ? null : path.slice(slash + 1) };
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
