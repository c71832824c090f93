// GatewayOptions: what serving over HTTP adds to serveMcp (SPEC section 16), and the config's serve section too.
// Types only, and no MCP SDK type among them: the config's types (in the root entry's declarations) use them.
import type { GatewayAuthOptions } from "./authenticate.js";

/** What the gateway adds to serving over HTTP (SPEC section 16); every field is optional. */
export interface GatewayOptions {
  /** Credentials every request must carry. Without it the server is loopback only and asks for none. */
  readonly auth?: GatewayAuthOptions;
  /** Browser origins allowed besides the server's own (`scheme://host[:port]`); another Origin gets 403. */
  readonly allowedOrigins?: readonly string[];
  /** Host header values (`name` or `name:port`) accepted besides the bound address's; another Host gets 403. */
  readonly allowedHosts?: readonly string[];
  /** 2025-era MCP sessions: idle expiry (default 30 minutes) and caps per principal and in all (then 429). */
  readonly sessions?: { readonly idleTimeoutMs?: number; readonly maxPerPrincipal?: number; readonly max?: number };
  /** Tool calls per principal per minute (then 429 with `Retry-After`). */
  readonly rateLimit?: { readonly callsPerMinute: number };
  /** Append one JSON line per call to `file`; `inputs: true` also writes each call's input. */
  readonly audit?: { readonly file: string; readonly inputs?: boolean };
  /**
   * The URL clients use when the server sits behind a proxy or balancer (`https://tools.example.com/mcp`): the
   * `resource` of its protected resource metadata and the default audience of access tokens; its host is allowed.
   */
  readonly publicUrl?: string;
}
