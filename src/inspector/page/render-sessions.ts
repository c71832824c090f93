// The session tabs (when more than one session is watched) and how the selected session's run stands.
import type { RunView, SessionView } from "../types.js";
import { el, formatCount, formatMs, replaceChildren } from "./dom.js";

/** Draws one tab per session; `select` is called with the id of the one clicked. */
export function renderSessions(
  nav: HTMLElement,
  sessions: readonly SessionView[],
  selected: string | undefined,
  select: (id: string) => void,
): void {
  nav.hidden = sessions.length < 2;
  replaceChildren(
    nav,
    ...sessions.map((session) =>
      el(
        "button",
        {
          class: `session-tab${session.id === selected ? " selected" : ""}${session.ended ? " ended" : ""}`,
          attrs: { type: "button", "aria-pressed": String(session.id === selected) },
          onClick: () => select(session.id),
        },
        session.label,
        session.run === undefined ? null : el("span", { class: "muted" }, ` ${session.run.status}`),
      ),
    ),
  );
}

/** The run line: its status, turns, tokens and time; empty when no loop is followed. */
export function renderRun(element: HTMLElement, session: SessionView | undefined, now: number): void {
  const run: RunView | undefined = session?.run;
  element.dataset.status = run?.status ?? "";
  if (run === undefined) {
    replaceChildren(element, session === undefined ? "" : session.ended ? `${session.label}: ended` : session.label);
    return;
  }
  // A stored run keeps no times.
  const took = session?.stored === true ? "" : `, ${formatMs((run.endedAt ?? now) - run.startedAt)}`;
  const tokens =
    run.inputTokens + run.outputTokens > 0
      ? `, ${formatCount(run.inputTokens)} in / ${formatCount(run.outputTokens)} out`
      : "";
  replaceChildren(
    element,
    el("strong", { class: "run-status" }, run.status.replace("_", " ")),
    ` after ${run.turns} turn${run.turns === 1 ? "" : "s"}${took}${tokens}`,
    run.error === undefined ? null : el("span", { class: "call-error" }, ` ${run.error}`),
  );
}
