// The inspector's page: follows the server's event stream (a snapshot, then updates) and draws what changed.
import type { InspectorMessage } from "../types.js";
import { type Area, applyMessage, createPageState } from "./page-state.js";
import { renderApprovals, tickApprovals } from "./render-approvals.js";
import { renderCallForm } from "./render-call-form.js";
import { CallList, renderLegend } from "./render-calls.js";
import { renderPlan } from "./render-plan.js";
import { renderRun, renderSessions } from "./render-sessions.js";
import { renderTurns } from "./render-turns.js";

function find<T extends Element = HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`The page has no ${selector}`);
  return found;
}

const state = createPageState();
const parts = {
  title: find("#title"),
  sessions: find("#sessions"),
  run: find("#run"),
  connection: find("#connection"),
  approvals: find("#approvals"),
  plan: find("#plan .plan-body"),
  turns: find("#turns .turn-table"),
  callTool: find("#call-tool"),
};
const calls = new CallList(find("#calls .call-list"), find("#calls .empty"));
renderLegend(find("#calls .legend"));

const dirty = new Set<Area>();
let frame = 0;

function schedule(areas: Iterable<Area>): void {
  for (const area of areas) dirty.add(area);
  if (frame === 0) frame = requestAnimationFrame(draw);
}

function draw(): void {
  frame = 0;
  const now = Date.now();
  const selected = state.selected === undefined ? undefined : state.sessions.get(state.selected);
  if (dirty.has("title")) {
    parts.title.textContent = state.title;
    document.title = state.title;
  }
  if (dirty.has("sessions")) {
    renderSessions(parts.sessions, [...state.sessions.values()], state.selected, (id) => {
      state.selected = id;
      schedule(["sessions", "calls", "turns", "plan"]);
    });
    renderRun(parts.run, selected, now);
  }
  if (dirty.has("approvals")) renderApprovals(parts.approvals, [...state.approvals.values()], state.sessions, now);
  if (dirty.has("calls"))
    calls.update(
      [...state.calls.values()].filter((call) => call.sessionId === state.selected),
      now,
    );
  if (dirty.has("turns"))
    renderTurns(
      parts.turns,
      [...state.turns.values()].filter((turn) => turn.sessionId === state.selected),
    );
  if (dirty.has("plan")) {
    renderPlan(parts.plan, selected?.plan, selected?.stored === true);
    renderCallForm(parts.callTool, state.canCall, selected?.ended === false ? selected.id : undefined, selected?.plan);
  }
  dirty.clear();
}

function connect(): void {
  const source = new EventSource("./events");
  source.onopen = () => {
    parts.connection.textContent = "live";
    parts.connection.dataset.state = "live";
  };
  source.onerror = () => {
    parts.connection.textContent = source.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting…";
    parts.connection.dataset.state = "down";
  };
  source.onmessage = (event: MessageEvent<string>) => {
    let message: InspectorMessage;
    try {
      message = JSON.parse(event.data) as InspectorMessage;
    } catch {
      return;
    }
    schedule(applyMessage(state, message));
  };
}

// Running calls grow and approvals count down with the clock.
setInterval(() => {
  const now = Date.now();
  if (calls.running) calls.layout(now);
  tickApprovals(parts.approvals, state.approvals, now);
  const selected = state.selected === undefined ? undefined : state.sessions.get(state.selected);
  if (selected?.run?.status === "running") renderRun(parts.run, selected, now);
}, 500);

connect();
