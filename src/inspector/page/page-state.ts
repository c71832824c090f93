// The page's copy of the inspector's state, changed by each stream message; no DOM here.
import type { CallSummary, InspectorMessage, PendingApprovalView, SessionView, TurnView } from "../types.js";

/** A part of the page a message may change. */
export type Area = "sessions" | "calls" | "turns" | "approvals" | "plan" | "title";

/** Everything the page shows, as the stream last told it. */
interface PageState {
  title: string;
  canCall: boolean;
  readonly sessions: Map<string, SessionView>;
  /** By key; keys only grow, so the Map's order is the calls' order. */
  readonly calls: Map<number, CallSummary>;
  readonly turns: Map<number, TurnView>;
  readonly approvals: Map<string, PendingApprovalView>;
  /** The session whose plan, calls and turns the page shows. */
  selected: string | undefined;
}

/** An empty state, before the snapshot. */
export function createPageState(): PageState {
  return {
    title: "toolwire inspector",
    canCall: false,
    sessions: new Map(),
    calls: new Map(),
    turns: new Map(),
    approvals: new Map(),
    selected: undefined,
  };
}

/** Applies one message; returns the areas it changed. */
export function applyMessage(state: PageState, message: InspectorMessage): Set<Area> {
  switch (message.kind) {
    case "snapshot": {
      state.title = message.title;
      state.canCall = message.canCall;
      state.sessions.clear();
      for (const session of message.sessions) state.sessions.set(session.id, session);
      state.calls.clear();
      for (const call of message.calls) state.calls.set(call.key, call);
      state.turns.clear();
      for (const turn of message.turns) state.turns.set(turn.key, turn);
      state.approvals.clear();
      for (const approval of message.approvals) state.approvals.set(approval.approvalId, approval);
      if (state.selected === undefined || !state.sessions.has(state.selected)) state.selected = defaultSession(state);
      return new Set<Area>(["title", "sessions", "calls", "turns", "approvals", "plan"]);
    }
    case "session": {
      const known = state.sessions.has(message.session.id);
      state.sessions.set(message.session.id, message.session);
      if (state.selected === undefined || (!known && state.sessions.get(state.selected)?.ended === true)) {
        state.selected = message.session.id;
        return new Set<Area>(["sessions", "calls", "turns", "plan"]);
      }
      return new Set<Area>(message.session.id === state.selected ? ["sessions", "plan"] : ["sessions"]);
    }
    case "session-removed": {
      state.sessions.delete(message.sessionId);
      if (state.selected === message.sessionId) {
        state.selected = defaultSession(state);
        return new Set<Area>(["sessions", "calls", "turns", "plan"]);
      }
      return new Set<Area>(["sessions"]);
    }
    case "call":
      state.calls.set(message.call.key, message.call);
      return new Set<Area>(["calls"]);
    case "calls-dropped":
      for (const key of state.calls.keys()) {
        if (key > message.throughKey) break;
        state.calls.delete(key);
      }
      return new Set<Area>(["calls"]);
    case "turn":
      state.turns.set(message.turn.key, message.turn);
      return new Set<Area>(["turns"]);
    case "turns-dropped":
      for (const key of state.turns.keys()) {
        if (key > message.throughKey) break;
        state.turns.delete(key);
      }
      return new Set<Area>(["turns"]);
    case "approval":
      state.approvals.set(message.approval.approvalId, message.approval);
      return new Set<Area>(["approvals"]);
    case "approval-settled":
      state.approvals.delete(message.approvalId);
      return new Set<Area>(["approvals"]);
    default:
      return new Set<Area>();
  }
}

/** The newest session still followed, else the newest. */
function defaultSession(state: PageState): string | undefined {
  const sessions = [...state.sessions.values()];
  return (sessions.findLast((session) => !session.ended) ?? sessions.at(-1))?.id;
}
