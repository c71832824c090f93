// The calls as a waterfall: one row per call on a shared time axis, its phases inside its bar (gaps: queued), a
// program's nested calls indented under it; a row opens to the call's input, result and error, fetched when opened.
import type { CallDetail, CallPhaseView, CallSummary, CutText } from "../types.js";
import { el, formatBytes, formatClock, formatCount, formatMs, replaceChildren } from "./dom.js";
import { nestCalls } from "./nest-calls.js";
import { renderApp } from "./render-app.js";

/** The deepest indentation drawn: deeper nested calls line up with it (their depth is still in `data-depth`). */
const MAX_INDENT = 4;

/** The phases the session reports, in the order of a call's life, with their names on the page. */
const PHASES: readonly (readonly [string, string])[] = [
  ["validate", "validate"],
  ["queued", "queued"],
  ["before_hooks", "before hooks"],
  ["approval", "approval wait"],
  ["sandbox_start", "sandbox start"],
  ["queued_remote", "worker queue"],
  ["execute", "execute"],
  ["after_hooks", "after hooks"],
];
const KNOWN = new Set(PHASES.map(([phase]) => phase));

interface Row {
  readonly element: HTMLElement;
  readonly head: HTMLButtonElement;
  readonly status: HTMLElement;
  readonly meta: HTMLElement;
  readonly duration: HTMLElement;
  readonly bar: HTMLElement;
  readonly detail: HTMLElement;
  call: CallSummary;
  /** How many calls shown this call's program made (shown on its row). */
  nested: number;
  open: boolean;
  /** The status the open detail was fetched at (fetched again when the call ends). */
  fetchedStatus: string | undefined;
}

/** The legend of the bars' colours. */
export function renderLegend(container: Element): void {
  replaceChildren(
    container,
    ...PHASES.map(([phase, label]) =>
      el("span", { class: "legend-item" }, el("i", { class: `phase phase-${phase}` }), label),
    ),
  );
}

/** The list of calls, kept in step with the state: rows are made once and updated in place. */
export class CallList {
  readonly #container: Element;
  readonly #empty: HTMLElement;
  readonly #rows = new Map<number, Row>();

  constructor(container: Element, empty: HTMLElement) {
    this.#container = container;
    this.#empty = empty;
  }

  /**
   * Shows exactly `calls` (in key order), each program's nested calls indented under it (`nestCalls`), then lays the
   * bars out on one axis.
   */
  update(calls: readonly CallSummary[], now: number): void {
    const wanted = new Set(calls.map((call) => call.key));
    for (const [key, row] of this.#rows) {
      if (!wanted.has(key)) {
        row.element.remove();
        this.#rows.delete(key);
      }
    }
    const container = this.#container;
    nestCalls(calls).forEach(({ call, depth, nested }, index) => {
      let row = this.#rows.get(call.key);
      if (row === undefined) {
        row = this.#makeRow(call);
        this.#rows.set(call.key, row);
        row.nested = nested;
        this.#fill(row);
      } else if (row.call !== call || row.nested !== nested) {
        const changed = row.call !== call;
        row.call = call;
        row.nested = nested;
        this.#fill(row);
        if (changed && row.open && row.fetchedStatus !== call.status) void this.#loadDetail(row);
      }
      row.element.dataset.depth = String(depth);
      row.element.style.setProperty("--depth", String(Math.min(depth, MAX_INDENT)));
      // Moved only when out of place: a call appended at the end (the common case) moves nothing else.
      const here = container.children[index];
      if (here !== row.element) container.insertBefore(row.element, here ?? null);
    });
    this.#empty.hidden = calls.length > 0;
    this.layout(now);
  }

  /** Places every bar on the axis from the first call's start to the last end (now, for calls still running). */
  layout(now: number): void {
    let start = Number.POSITIVE_INFINITY;
    let end = Number.NEGATIVE_INFINITY;
    for (const { call } of this.#rows.values()) {
      start = Math.min(start, call.startedAt);
      end = Math.max(end, endOf(call, now));
    }
    const span = Math.max(end - start, 1);
    for (const row of this.#rows.values()) {
      const { call } = row;
      const callEnd = endOf(call, now);
      row.bar.style.left = `${((call.startedAt - start) / span) * 100}%`;
      row.bar.style.width = `${((callEnd - call.startedAt) / span) * 100}%`;
      if (isLive(call)) row.duration.textContent = formatMs(now - call.startedAt);
    }
  }

  /** Whether any call shown is still running (the axis then moves with the clock). */
  get running(): boolean {
    for (const { call } of this.#rows.values()) if (isLive(call)) return true;
    return false;
  }

  #makeRow(call: CallSummary): Row {
    const status = el("span", { class: "call-status" });
    const meta = el("span", { class: "call-meta" });
    const duration = el("span", { class: "call-duration" });
    const bar = el("span", { class: "bar" });
    const head = el(
      "button",
      { class: "call-head", attrs: { type: "button", "aria-expanded": "false" } },
      status,
      meta,
      duration,
      el("span", { class: "track" }, bar),
    );
    const detail = el("div", { class: "call-detail", attrs: { hidden: "" } });
    const element = el(
      "li",
      { class: "call", data: { key: String(call.key), toolCallId: call.toolCallId } },
      head,
      detail,
    );
    const row: Row = {
      element,
      head,
      status,
      meta,
      duration,
      bar,
      detail,
      call,
      nested: 0,
      open: false,
      fetchedStatus: undefined,
    };
    head.addEventListener("click", () => {
      row.open = !row.open;
      head.setAttribute("aria-expanded", String(row.open));
      detail.hidden = !row.open;
      if (row.open) void this.#loadDetail(row);
    });
    return row;
  }

  #fill(row: Row): void {
    const { call } = row;
    row.element.dataset.status = call.status;
    row.status.textContent = STATUS_MARK[call.status];
    row.status.title = STATUS_WORDS[call.status];
    replaceChildren(
      row.meta,
      el("strong", { class: "call-name" }, call.toolName),
      call.turn === undefined ? null : el("span", { class: "call-turn" }, `turn ${call.turn}`),
      row.nested === 0
        ? null
        : el("span", { class: "call-nested" }, `${row.nested} nested call${row.nested === 1 ? "" : "s"}`),
      call.errorCode === undefined ? null : el("span", { class: "call-error" }, call.errorCode),
      call.flow === undefined ? null : el("span", { class: `call-flow call-flow-${call.flow}` }, FLOW_WORDS[call.flow]),
      el("span", { class: "call-input" }, call.inputPreview),
    );
    if (call.durationMs !== undefined) row.duration.textContent = formatMs(call.durationMs);
    row.bar.className = `bar bar-${call.status}`;
    row.bar.title = describePhases(call);
    const total = Math.max(endOf(call, call.startedAt) - call.startedAt, 0.001);
    const drawn: CallPhaseView[] = [];
    replaceChildren(
      row.bar,
      ...call.phases.map((phase) => {
        // A phase inside another one (the sandbox starting within execute) is drawn over it, thinner.
        const nested = drawn.some(
          (outer) =>
            outer.startedAt <= phase.startedAt &&
            outer.startedAt + outer.durationMs >= phase.startedAt + phase.durationMs,
        );
        drawn.push(phase);
        const name = KNOWN.has(phase.phase) ? phase.phase : "other";
        const segment = el("i", { class: `phase phase-${name}${nested ? " nested" : ""}` });
        segment.style.left = `${(Math.max(phase.startedAt - call.startedAt, 0) / total) * 100}%`;
        segment.style.width = `${(phase.durationMs / total) * 100}%`;
        return segment;
      }),
    );
  }

  async #loadDetail(row: Row): Promise<void> {
    const status = row.call.status;
    row.fetchedStatus = status;
    let detail: CallDetail | undefined;
    try {
      const response = await fetch(`./calls/${row.call.key}`, { headers: { Accept: "application/json" } });
      if (response.ok) detail = (await response.json()) as CallDetail;
    } catch {
      // the server went away: the summary stays
    }
    if (row.fetchedStatus !== status) return; // a newer fetch is on its way
    replaceChildren(
      row.detail,
      ...(detail === undefined ? [el("p", null, "This call is no longer kept.")] : detailParts(detail)),
    );
  }
}

function detailParts(detail: CallDetail): Node[] {
  const parts: Node[] = [];
  parts.push(
    el(
      "dl",
      { class: "facts" },
      fact("tool call id", detail.toolCallId),
      detail.parentToolCallId === undefined ? null : fact("made by the program of", detail.parentToolCallId),
      detail.stored === true ? null : fact("started", formatClock(detail.startedAt)),
      detail.durationMs === undefined ? null : fact("took", formatMs(detail.durationMs)),
      detail.resultBytes === undefined ? null : fact("result size", formatBytes(detail.resultBytes)),
      detail.resultTokens === undefined ? null : fact("estimated tokens", formatCount(detail.resultTokens)),
      detail.spillFile === undefined ? null : fact("saved whole to", detail.spillFile),
      detail.approval === undefined
        ? null
        : fact("approval", `${detail.approval.approvalId}: ${detail.approval.outcome ?? "waiting"}`),
    ),
  );
  if (detail.phases.length > 0) {
    parts.push(
      el(
        "ol",
        { class: "phase-list" },
        ...[...detail.phases]
          .sort((a, b) => a.startedAt - b.startedAt)
          .map((phase) =>
            el(
              "li",
              null,
              el("i", { class: `phase phase-${KNOWN.has(phase.phase) ? phase.phase : "other"}` }),
              `${phase.phase}: +${formatMs(Math.max(phase.startedAt - detail.startedAt, 0))}, ${formatMs(phase.durationMs)}`,
              phase.errorCode === undefined ? "" : ` (${phase.errorCode})`,
            ),
          ),
      ),
    );
  }
  // A call refused or failed before or in its executor: its result is the error text. A tool that returned an error
  // result itself has no code: its result shows as it is.
  const failedEarly = detail.error?.code !== undefined;
  if (detail.error !== undefined && failedEarly) {
    parts.push(
      el(
        "div",
        { class: "call-failure" },
        el("h4", null, `Error${detail.error.code === undefined ? "" : `: ${detail.error.code}`}`),
        el("pre", null, detail.error.text),
      ),
    );
  }
  if (detail.dropped === true)
    parts.push(el("p", { class: "note" }, "The input and result were dropped from memory to keep the history small."));
  if (detail.app !== undefined) parts.push(renderApp(detail.key, detail.app.uri));
  if (detail.input !== undefined) parts.push(block("Input", detail.input));
  if (detail.result !== undefined) {
    if (!failedEarly) parts.push(block(detail.result.isError ? "Result (error)" : "Result", detail.result.content));
    if (detail.result.details !== undefined)
      parts.push(block("Details (for programs, not sent to the model)", detail.result.details));
  } else if (detail.status === "interrupted" && detail.error !== undefined) {
    parts.push(el("p", { class: "note" }, detail.error.text));
  } else if (isLive(detail)) {
    parts.push(el("p", { class: "note" }, "Running: the result shows when the call ends."));
  }
  return parts;
}

function fact(name: string, value: string): HTMLElement {
  return el("div", null, el("dt", null, name), el("dd", null, value));
}

function block(title: string, text: CutText): HTMLElement {
  return el(
    "div",
    { class: "body" },
    el(
      "h4",
      null,
      title,
      el("span", { class: "size" }, ` ${formatBytes(text.bytes)}${text.cut ? ", cut for the page" : ""}`),
    ),
    el("pre", null, text.text === "" ? "(empty)" : text.text),
  );
}

/** Still going: it grows with the clock. A stored run's calls have no duration and are not live. */
function isLive(call: CallSummary): boolean {
  return call.stored !== true && call.durationMs === undefined;
}

function endOf(call: CallSummary, now: number): number {
  return isLive(call) ? Math.max(now, call.startedAt) : call.startedAt + (call.durationMs ?? 0);
}

function describePhases(call: CallSummary): string {
  if (call.phases.length === 0) {
    return call.durationMs !== undefined ? formatMs(call.durationMs) : isLive(call) ? "running" : "no times kept";
  }
  return call.phases.map((phase) => `${phase.phase} ${formatMs(phase.durationMs)}`).join(", ");
}

const STATUS_MARK: Readonly<Record<CallSummary["status"], string>> = {
  running: "…",
  approval: "?",
  ok: "✓",
  error: "✗",
  interrupted: "!",
};
/** The badge of a call flow rules mark (docs/security.md). */
const FLOW_WORDS: Readonly<Record<NonNullable<CallSummary["flow"]>, string>> = {
  source: "untrusted result",
  tainted: "tainted",
};

const STATUS_WORDS: Readonly<Record<CallSummary["status"], string>> = {
  running: "running",
  approval: "waiting for approval",
  ok: "succeeded",
  error: "failed",
  interrupted: "interrupted: no outcome kept",
};
