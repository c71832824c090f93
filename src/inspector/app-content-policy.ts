// appContentPolicy: the Content-Security-Policy an MCP App's document is served with: sandboxed, and reaching only
// the origins its `_meta.ui.csp` declares.
import { isRecord } from "../core/json.js";

/** An origin an app may declare: a scheme, a host (its first label may be `*`), an optional port; nothing else. */
const DECLARED_ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;

/**
 * The policy for an app whose `_meta` is `meta`, framed only by `pageOrigins` (the inspector's own): `sandbox
 * allow-scripts` (an opaque origin, even opened on its own: no cookies, no storage, no same-origin requests), inline
 * scripts and styles, and the origins `_meta.ui.csp` declares (`connectDomains` for `connect-src`, `resourceDomains`
 * for scripts, styles, images, fonts and media, `frameDomains` for `frame-src`, `baseUriDomains` for `base-uri`).
 * Nothing else: no `'self'` (that would be the inspector's origin), no forms, no plugins. A declared value that is not
 * a plain origin (`https://cdn.example.com`, `https://*.example.com`, `wss://host:8443`) is left out, never loosened.
 */
export function appContentPolicy(meta: unknown, pageOrigins: readonly string[]): string {
  const csp = isRecord(meta) && isRecord(meta.ui) && isRecord(meta.ui.csp) ? meta.ui.csp : {};
  const declared = (field: string): string[] => {
    const value = csp[field];
    return Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === "string" && DECLARED_ORIGIN.test(entry))
      : [];
  };
  const orNone = (origins: readonly string[]) => (origins.length === 0 ? "'none'" : origins.join(" "));
  const resources = declared("resourceDomains");
  const withResources = (...own: string[]) => [...own, ...resources].join(" ");
  return [
    "sandbox allow-scripts",
    "default-src 'none'",
    `script-src ${withResources("'unsafe-inline'")}`,
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources("data:")}`,
    `media-src ${withResources("data:")}`,
    `font-src ${withResources("data:")}`,
    `connect-src ${orNone(declared("connectDomains"))}`,
    `frame-src ${orNone(declared("frameDomains"))}`,
    `base-uri ${orNone(declared("baseUriDomains"))}`,
    "object-src 'none'",
    "form-action 'none'",
    `frame-ancestors ${pageOrigins.join(" ")}`,
  ].join("; ");
}
