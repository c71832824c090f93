// GatewayOptions: what serving over HTTP adds to serveMcp (docs/serve.md), and the config's serve section too.
// Types only, and no MCP SDK type among them: the config's types (in the root entry's declarations) use them.
import type { ServeTasksOptions } from "../tasks/serve-tasks-options.js";
import type { AuditLogOptions } from "./audit-log-options.js";
import type { GatewayAuthOptions } from "./gateway-auth-options.js";

/** What the gateway adds to serving over HTTP (docs/serve.md); every field is optional. */
export interface GatewayOptions {
  /** Credentials every request must carry. Without it the server is loopback only and asks for none. */
  readonly auth?: GatewayAuthOptions;
  /** Browser origins allowed besides the server's own (`scheme://host[:port]`); another Origin gets 403. */
  readonly allowedOrigins?: readonly string[];
  /** Host header values (`name` or `name:port`) accepted besides the bound address's; another Host gets 403. */
  readonly allowedHosts?: readonly string[];
  /**
   * 2025-era MCP sessions: idle expiry (default 30 minutes) and caps per principal (default 100) and in all
   * (default 1,000); a client over a cap gets 429 with `Retry-After`.
   */
  readonly sessions?: { readonly idleTimeoutMs?: number; readonly maxPerPrincipal?: number; readonly max?: number };
  /** Tool calls per principal per minute (then 429 with `Retry-After`). */
  readonly rateLimit?: { readonly callsPerMinute: number };
  /**
   * Append one JSON line per call to `file`; `inputs: true` also writes each call's input. The lines wait in a
   * queue of at most `maxQueueEntries` (default 10,000) and `maxQueueBytes` (default 8 MiB); when it is full, calls
   * wait for room (`whenFull: "wait"`, the default) or their entries are dropped and counted (`"drop"`). Closing
   * waits at most `closeTimeoutMs` (default 5,000) for the queue to be written.
   */
  readonly audit?: Omit<AuditLogOptions, "onError">;
  /**
   * The URL clients use when the server sits behind a proxy or balancer (`https://tools.example.com/mcp`): the
   * `resource` of its protected resource metadata and the default audience of access tokens; its host is allowed.
   */
  readonly publicUrl?: string;
  /**
   * Tasks for 2026-07-28 clients that declare the tasks extension: a call still running after `afterMs` (default
   * 1000) or waiting for an approval is answered with a task; an ended task is kept `ttlMs` (default 1 hour).
   */
  readonly tasks?: ServeTasksOptions;
  /**
   * How long a 2026-07-28 client may keep the tool listing before listing again (`ttlMs`), in ms; a `list_changed`
   * notification ends it sooner. Default 60 000.
   */
  readonly listTtlMs?: number;
}
