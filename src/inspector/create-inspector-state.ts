// createInspectorState: what the page shows, kept up to date from sessions' and loops' events, and streamed to
// subscribers as a snapshot and then updates, coalesced per flush.
import type { AgentSession } from "../core/dispatch/session.js";
import { describeThrown } from "../core/errors.js";
import type { AgentEvent } from "../loop/types.js";
import { type CallHistory, createCallHistory } from "./create-call-history.js";
import { createPageApprover, type PageApprover } from "./create-page-approver.js";
import { measureToolDefinitions } from "./measure-tool-definitions.js";
import { readPlan } from "./read-plan.js";
import type { StoredRun } from "./stored-run.js";
import type {
  InspectorMessage,
  InspectorSnapshot,
  InspectorUpdate,
  PlanView,
  RunView,
  SessionView,
  TurnView,
} from "./types.js";

/** The limits and labels a state is made with. */
interface InspectorStateOptions {
  readonly title: string;
  readonly canCall: boolean;
  readonly maxCalls: number;
  readonly maxBodyBytes: number;
  readonly maxTotalBytes: number;
  /** How long updates gather before they are sent, in ms. */
  readonly flushMs: number;
}

/** A followed session, as `watch` hands it back. */
interface WatchedSession {
  readonly id: string;
  readonly session: AgentSession;
  record(event: AgentEvent): void;
  stop(): void;
}

/** The state behind the page. */
interface InspectorState {
  readonly approvals: PageApprover;
  snapshot(): InspectorSnapshot;
  /** `send` gets the snapshot at once, then every update; returns an unsubscribe function. */
  subscribe(send: (message: InspectorMessage) => void): () => void;
  watch(session: AgentSession, label: string | undefined): WatchedSession;
  /** Lists a stored run as an ended session with its turns and calls; returns its session id. */
  show(run: StoredRun, label: string | undefined): string;
  history: Pick<CallHistory, "detail">;
  sessionById(id: string): AgentSession | undefined;
  /** Stops following every session, declines the waiting approvals and drops the subscribers. */
  close(reason: string): void;
}

interface SessionEntry {
  readonly id: string;
  readonly label: string;
  /** Absent for a stored run. */
  readonly session: AgentSession | undefined;
  ended: boolean;
  plan: PlanView | undefined;
  run: RunView | undefined;
  /** The key of the turn the loop is in now. */
  turnKey: number | undefined;
  readonly unsubscribe: (() => void)[];
}

/** The most ended sessions the list keeps. */
const MAX_ENDED_SESSIONS = 50;
const MAX_TURN_TEXT_CHARS = 400;
const MAX_APPROVAL_SESSIONS = 10_000;

/** A state with no sessions yet. */
export function createInspectorState(options: InspectorStateOptions): InspectorState {
  const sessions = new Map<string, SessionEntry>();
  const turns = new Map<number, TurnView>();
  const approvalSessions = new Map<string, string>();
  const subscribers = new Set<(message: InspectorMessage) => void>();
  const pending = new Map<string, () => InspectorUpdate | undefined>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextSession = 1;
  let nextTurn = 1;
  let closed = false;

  const flush = () => {
    timer = undefined;
    const updates = [...pending.values()];
    pending.clear();
    for (const make of updates) {
      const update = make();
      if (update === undefined) continue;
      for (const send of subscribers) send(update);
    }
  };
  /** Queues an update, built when it is sent (so a burst of changes to one thing goes out once, as it is then). */
  const queue = (key: string, make: () => InspectorUpdate | undefined) => {
    // With no page open nothing is queued: the snapshot a page gets when it connects holds every change.
    if (closed || subscribers.size === 0) return;
    pending.delete(key); // re-queued at the end: updates go out in the order of their last change
    pending.set(key, make);
    if (timer === undefined) {
      timer = setTimeout(flush, options.flushMs);
      timer.unref?.();
    }
  };
  const sessionView = (entry: SessionEntry): SessionView => {
    if (entry.session === undefined) {
      const run = entry.run === undefined ? {} : { run: entry.run };
      return { id: entry.id, label: entry.label, ended: true, stored: true, ...run };
    }
    entry.plan ??= readPlan(entry.session);
    return {
      id: entry.id,
      label: entry.label,
      ended: entry.ended,
      plan: entry.plan,
      ...(entry.run === undefined ? {} : { run: entry.run }),
    };
  };
  const sessionChanged = (entry: SessionEntry, planChanged = false) => {
    if (planChanged && !entry.ended) entry.plan = undefined;
    queue(`session:${entry.id}`, () =>
      sessions.get(entry.id) === entry ? { kind: "session", session: sessionView(entry) } : undefined,
    );
  };

  const history = createCallHistory(
    { maxCalls: options.maxCalls, maxBodyBytes: options.maxBodyBytes, maxTotalBytes: options.maxTotalBytes },
    {
      changed: (key) =>
        queue(`call:${key}`, () => {
          const call = history.summary(key);
          return call === undefined ? undefined : { kind: "call", call };
        }),
      dropped: (throughKey) => queue("calls-dropped", () => ({ kind: "calls-dropped", throughKey })),
    },
  );

  const approvals = createPageApprover({
    maxBodyBytes: options.maxBodyBytes,
    sessionOf: (approvalId) => approvalSessions.get(approvalId),
    listener: {
      added: (approval) => queue(`approval:${approval.approvalId}`, () => ({ kind: "approval", approval })),
      settled: (approvalId, outcome) =>
        queue(`approval:${approvalId}`, () => ({ kind: "approval-settled", approvalId, outcome })),
    },
  });

  const changeTurn = (key: number, change: (turn: TurnView) => TurnView) => {
    const turn = turns.get(key);
    if (turn === undefined) return;
    turns.set(key, change(turn));
    queue(`turn:${key}`, () => {
      const now = turns.get(key);
      return now === undefined ? undefined : { kind: "turn", turn: now };
    });
  };
  const addTurn = (entry: SessionEntry, turn: number) => {
    const key = nextTurn++;
    turns.set(key, {
      key,
      sessionId: entry.id,
      turn,
      startedAt: Date.now(),
      ...(entry.session === undefined ? {} : { definitions: measureToolDefinitions(entry.session.modelTools) }),
    });
    entry.turnKey = key;
    changeTurn(key, (view) => view);
    trimTurns();
  };
  const trimTurns = () => {
    if (turns.size > options.maxCalls) {
      let last = 0;
      while (turns.size > options.maxCalls) {
        last = turns.keys().next().value as number;
        turns.delete(last);
      }
      queue("turns-dropped", () => ({ kind: "turns-dropped", throughKey: last }));
    }
  };
  const changeRun = (entry: SessionEntry, change: (run: RunView) => RunView) => {
    if (entry.run === undefined) return;
    entry.run = change(entry.run);
    sessionChanged(entry);
  };

  const record = (entry: SessionEntry, event: AgentEvent) => {
    if (entry.ended) return;
    switch (event.type) {
      case "turn_start":
        if (entry.run === undefined || entry.run.status !== "running") {
          entry.run = { status: "running", turns: 0, startedAt: Date.now(), inputTokens: 0, outputTokens: 0 };
        }
        changeRun(entry, (run) => ({ ...run, turns: event.turn }));
        addTurn(entry, event.turn);
        sessionChanged(entry, true); // the tools sent may have grown (deferred tools found)
        break;
      case "model_text":
        if (entry.turnKey !== undefined) {
          const text = cutTurnText(event.text);
          changeTurn(entry.turnKey, (turn) => ({ ...turn, text }));
        }
        break;
      case "usage":
        if (entry.turnKey !== undefined) {
          const { inputTokens, outputTokens } = event.usage;
          changeTurn(entry.turnKey, (turn) => ({ ...turn, inputTokens, outputTokens }));
        }
        changeRun(entry, (run) => ({
          ...run,
          inputTokens: event.total.inputTokens,
          outputTokens: event.total.outputTokens,
        }));
        break;
      case "tool_call":
        history.assignTurn(entry.id, event.call.id, event.turn);
        break;
      case "turn_end":
        if (entry.turnKey !== undefined) {
          const { stopReason, toolCalls } = event;
          changeTurn(entry.turnKey, (turn) => ({ ...turn, endedAt: Date.now(), stopReason, toolCalls }));
        }
        break;
      case "error":
        changeRun(entry, (run) => ({ ...run, error: describeThrown(event.error) }));
        break;
      case "done":
        if (entry.turnKey !== undefined) {
          changeTurn(entry.turnKey, (turn) => (turn.endedAt === undefined ? { ...turn, endedAt: Date.now() } : turn));
        }
        changeRun(entry, (run) => ({ ...run, status: event.reason, turns: event.turns, endedAt: Date.now() }));
        break;
      default:
        break;
    }
  };

  const dropEndedSessions = () => {
    const ended = [...sessions.values()].filter((entry) => entry.ended);
    for (const entry of ended.slice(0, Math.max(0, ended.length - MAX_ENDED_SESSIONS))) {
      sessions.delete(entry.id);
      queue(`session:${entry.id}`, () => ({ kind: "session-removed", sessionId: entry.id }));
    }
  };

  const watch = (session: AgentSession, label: string | undefined): WatchedSession => {
    const id = `s${nextSession++}`;
    const entry: SessionEntry = {
      id,
      label: label ?? (nextSession === 2 ? "session" : `session ${id.slice(1)}`),
      session,
      ended: false,
      plan: undefined,
      run: undefined,
      turnKey: undefined,
      unsubscribe: [],
    };
    sessions.set(id, entry);
    const off = entry.unsubscribe;
    off.push(
      session.on("tool_execution_start", (event) => history.start(id, event, session.flow?.tainted === true)),
      session.on("flow_tainted", (event) => history.flowTainted(id, event.toolCallId)),
      session.on("tool_call_phase", (event) => history.phase(id, event)),
      session.on("tool_execution_end", (event) => history.end(id, event)),
      session.on("approval_requested", (request) => {
        approvalSessions.set(request.approvalId, id);
        if (approvalSessions.size > MAX_APPROVAL_SESSIONS) {
          approvalSessions.delete(approvalSessions.keys().next().value as string);
        }
        history.approvalRequested(id, request);
      }),
      session.on("approval_resolved", (event) => history.approvalResolved(id, event)),
      session.onActiveToolsChange(() => sessionChanged(entry, true)),
      session.registry.onRefresh(() => sessionChanged(entry, true)),
    );
    sessionChanged(entry);
    return {
      id,
      session,
      record: (event) => record(entry, event),
      stop() {
        if (entry.ended) return;
        entry.ended = true;
        for (const unsubscribe of off.splice(0)) unsubscribe();
        sessionChanged(entry);
        dropEndedSessions();
      },
    };
  };

  const show = (run: StoredRun, label: string | undefined): string => {
    const id = `s${nextSession++}`;
    const startedAt = run.startedAt ?? Date.now();
    let inputTokens = 0;
    let outputTokens = 0;
    let order = 0;
    for (const turn of run.turns) {
      const key = nextTurn++;
      inputTokens += turn.usage?.inputTokens ?? 0;
      outputTokens += turn.usage?.outputTokens ?? 0;
      turns.set(key, {
        key,
        sessionId: id,
        turn: turn.turn,
        startedAt,
        endedAt: startedAt,
        ...(turn.tools === undefined ? {} : { offered: turn.tools }),
        ...(turn.usage === undefined
          ? {}
          : { inputTokens: turn.usage.inputTokens, outputTokens: turn.usage.outputTokens }),
        ...(turn.stopReason === undefined ? {} : { stopReason: turn.stopReason }),
        toolCalls: turn.calls.length,
        ...(turn.text === "" ? {} : { text: cutTurnText(turn.text) }),
      });
      changeTurn(key, (view) => view);
      // No times are kept: each call is a millisecond after the one before, so the waterfall keeps their order.
      for (const call of turn.calls) history.stored(id, call, { turn: turn.turn, startedAt: startedAt + order++ });
    }
    trimTurns();
    const entry: SessionEntry = {
      id,
      label: label ?? "stored run",
      session: undefined,
      ended: true,
      plan: undefined,
      run: {
        status: run.status,
        turns: run.turns.reduce((most, turn) => Math.max(most, turn.turn), 0),
        startedAt,
        inputTokens,
        outputTokens,
      },
      turnKey: undefined,
      unsubscribe: [],
    };
    sessions.set(id, entry);
    sessionChanged(entry);
    dropEndedSessions();
    return id;
  };

  const snapshot = (): InspectorSnapshot => ({
    kind: "snapshot",
    version: 1,
    title: options.title,
    canCall: options.canCall,
    sessions: [...sessions.values()].map(sessionView),
    calls: history.summaries(),
    turns: [...turns.values()],
    approvals: approvals.pending(),
  });

  return {
    approvals,
    history,
    snapshot,
    subscribe(send) {
      if (closed) return () => {};
      send(snapshot());
      subscribers.add(send);
      return () => {
        subscribers.delete(send);
        if (subscribers.size === 0) pending.clear();
      };
    },
    watch(session, label) {
      return watch(session, label);
    },
    show,
    sessionById: (id) => {
      const entry = sessions.get(id);
      return entry?.ended === false ? entry.session : undefined;
    },
    close(reason) {
      if (closed) return;
      for (const entry of sessions.values()) for (const unsubscribe of entry.unsubscribe.splice(0)) unsubscribe();
      approvals.close(reason);
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pending.clear();
      subscribers.clear();
    },
  };
}

/** A model's text as a turn shows it: at most `MAX_TURN_TEXT_CHARS` characters. */
function cutTurnText(text: string): string {
  return text.length > MAX_TURN_TEXT_CHARS ? `${text.slice(0, MAX_TURN_TEXT_CHARS - 1)}…` : text;
}
