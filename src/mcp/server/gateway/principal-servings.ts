// The gateway's servings, one per principal: its session, its stateless handler, its open 2025 sessions; released when
// idle.
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type Server } from "@modelcontextprotocol/server";
import type { AgentSession } from "../../../core/dispatch/session.js";
import type { ServedTasks } from "../tasks/served-tasks.js";
import { createToolServer, type ServedCall, type ToolServerHooks, type ToolServerOptions } from "../tool-server.js";
import type { AuditLog } from "./audit-log.js";
import type { Principal } from "./authenticate.js";

/** The session every principal shares, or a function that makes each principal its own (called once per principal). */
export type SessionSource = AgentSession | ((principal: Principal) => AgentSession | Promise<AgentSession>);

/** Everything served for one principal: its session, its stateless handler, its open 2025 sessions. */
export interface PrincipalServing {
  readonly principal: Principal;
  readonly session: AgentSession;
  /** Made by the source function for this principal: closed when the principal is released. */
  readonly owned: boolean;
  /** The hooks of every server instance made for this principal (its audit lines). */
  readonly hooks: ToolServerHooks;
  readonly modern: ReturnType<typeof createMcpHandler>;
  readonly serveModern: ReturnType<typeof toNodeHandler>;
  /** The principal's open 2025 sessions by id: each is told when the tools change. */
  readonly legacy: Map<string, Server>;
  readonly unsubscribe: () => void;
  /** When a request of the principal last ended (`Date.now()`), and how many are under way. */
  lastUsed: number;
  inFlight: number;
}

/** What the servings are made with. */
export interface PrincipalServingsOptions {
  readonly toolServer: ToolServerOptions;
  /** Records each call's line, under the principal's id. */
  readonly audit: AuditLog | undefined;
  /** The server's tasks, which each principal sees its own of. */
  readonly tasks?: ServedTasks;
  /** A principal with no open 2025 session and no request for this long is released. */
  readonly idleTimeoutMs: number;
  /** The largest request body the stateless handler takes. */
  readonly maxBodyBytes: number;
}

/** The servings of one gateway. */
export interface PrincipalServings {
  /** The principal's serving: made on its first request (the source function called then), shared by the later ones. */
  servingFor(principal: Principal): Promise<PrincipalServing>;
  /** The serving of the principal with this id, once it is made. */
  ready(principalId: string): PrincipalServing | undefined;
  /** How many principals have a serving now. */
  readonly size: number;
  /** Stops releasing idle servings and releases every one (closing the sessions the source function made). */
  close(): Promise<void>;
}

/**
 * The servings of `source`'s sessions. A serving whose principal has no open 2025 session and made no request for
 * `idleTimeoutMs` is released by a sweep (every quarter of the timeout, between 1 s and 60 s; the timer is unref'ed).
 */
export function createPrincipalServings(source: SessionSource, options: PrincipalServingsOptions): PrincipalServings {
  const { audit, idleTimeoutMs } = options;
  const servings = new Map<string, Promise<PrincipalServing>>();
  const ready = new Map<string, PrincipalServing>();

  const openServing = async (principal: Principal): Promise<PrincipalServing> => {
    const owned = typeof source === "function";
    const session = owned ? await source(principal) : source;
    const hooks: ToolServerHooks = {
      ...(audit === undefined ? {} : { onCallEnd: auditCall(audit, principal.id) }),
      ...(options.tasks === undefined ? {} : { tasks: { principal: principal.id, served: options.tasks } }),
    };
    // One session for everyone lists the same tools to every caller; a session per principal lists its own.
    const toolServer: ToolServerOptions = {
      ...options.toolServer,
      listCacheScope: options.toolServer.listCacheScope ?? (owned ? "private" : "public"),
    };
    const modern = createMcpHandler(() => createToolServer(session, toolServer, hooks), { legacy: "reject" });
    const legacy = new Map<string, Server>();
    const unsubscribe = session.onActiveToolsChange(() => {
      modern.notify.toolsChanged();
      for (const server of legacy.values()) server.sendToolListChanged().catch(() => undefined);
    });
    return {
      principal,
      session,
      owned,
      hooks,
      modern,
      serveModern: toNodeHandler(modern, { maxRequestBodySize: options.maxBodyBytes }),
      legacy,
      unsubscribe,
      lastUsed: Date.now(),
      inFlight: 0,
    };
  };

  const release = async (serving: PrincipalServing) => {
    servings.delete(serving.principal.id);
    ready.delete(serving.principal.id);
    serving.unsubscribe();
    await serving.modern.close().catch(() => undefined);
    if (serving.owned) serving.session.close();
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const serving of ready.values()) {
        if (serving.legacy.size === 0 && serving.inFlight === 0 && now - serving.lastUsed >= idleTimeoutMs) {
          void release(serving);
        }
      }
    },
    Math.max(1_000, Math.min(idleTimeoutMs / 4, 60_000)),
  );
  sweep.unref();

  return {
    servingFor(principal) {
      let serving = servings.get(principal.id);
      if (serving === undefined) {
        serving = openServing(principal);
        servings.set(principal.id, serving);
        serving.then(
          (value) => ready.set(principal.id, value),
          () => servings.delete(principal.id),
        );
      }
      return serving;
    },
    ready: (principalId) => ready.get(principalId),
    get size() {
      return ready.size;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([...ready.values()].map(release));
    },
  };
}

/** Records each ended call of one principal in the audit log; the call is answered once its entry is queued. */
function auditCall(audit: AuditLog, principal: string): (call: ServedCall) => Promise<void> {
  return (call) =>
    audit.record({
      time: new Date().toISOString(),
      principal,
      tool: call.tool,
      toolCallId: call.toolCallId,
      input: call.input,
      outcome: call.outcome,
      durationMs: Math.round(call.durationMs * 1000) / 1000,
    });
}
