// The calls waiting for a person: each with its input and digest, and approve and decline buttons that answer it.
import type { PendingApprovalView, SessionView } from "../types.js";
import { el, formatBytes } from "./dom.js";

/** Sends the page's answer; resolves to an error message, or undefined when it was taken. */
async function postAnswer(approvalId: string, approve: boolean, reason: string): Promise<string | undefined> {
  try {
    const response = await fetch(`./approvals/${encodeURIComponent(approvalId)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(approve ? { approve } : { approve, reason }),
    });
    return response.ok ? undefined : await response.text();
  } catch (error) {
    return `The inspector did not answer: ${String(error)}`;
  }
}

/**
 * Shows the waiting approvals; the section hides when there are none. Cards already shown stay as they are (a reason
 * being typed is kept); new ones are added at the end, answered ones removed.
 */
export function renderApprovals(
  section: HTMLElement,
  approvals: readonly PendingApprovalView[],
  sessions: ReadonlyMap<string, SessionView>,
  now: number,
): void {
  section.hidden = approvals.length === 0;
  const list = section.querySelector(".approval-list");
  if (list === null) return;
  const wanted = new Set(approvals.map((approval) => approval.approvalId));
  const shown = new Set<string>();
  for (const card of [...list.querySelectorAll<HTMLElement>(".approval")]) {
    const id = card.dataset.approvalId ?? "";
    if (wanted.has(id)) shown.add(id);
    else card.remove();
  }
  for (const approval of approvals) {
    if (!shown.has(approval.approvalId)) list.appendChild(approvalCard(approval, sessions, now));
  }
}

function approvalCard(
  approval: PendingApprovalView,
  sessions: ReadonlyMap<string, SessionView>,
  now: number,
): HTMLElement {
  const reason = el("input", {
    class: "reason",
    attrs: { type: "text", placeholder: "reason (when you decline)", "aria-label": "Reason for declining" },
  });
  const problem = el("p", { class: "problem", attrs: { role: "alert" } });
  const buttons: HTMLButtonElement[] = [];
  const answer = (approve: boolean) => async () => {
    for (const button of buttons) button.disabled = true;
    const failed = await postAnswer(approval.approvalId, approve, reason.value);
    if (failed !== undefined) {
      problem.textContent = failed;
      for (const button of buttons) button.disabled = false;
    }
  };
  buttons.push(
    el("button", { class: "approve", attrs: { type: "button" }, onClick: answer(true) }, "Approve"),
    el("button", { class: "decline", attrs: { type: "button" }, onClick: answer(false) }, "Decline"),
  );
  const session = approval.sessionId === undefined ? undefined : sessions.get(approval.sessionId);
  const seconds = Math.max(0, Math.round((approval.expiresAt - now) / 1000));
  return el(
    "article",
    { class: "approval", data: { approvalId: approval.approvalId, tool: approval.toolName } },
    el(
      "header",
      null,
      el("strong", null, approval.toolName),
      el(
        "span",
        { class: "muted" },
        ` call ${approval.toolCallId}${session === undefined ? "" : ` in ${session.label}`}`,
      ),
      el("span", { class: "expires muted" }, `expires in ${formatSeconds(seconds)}`),
    ),
    approval.flowReason === undefined ? null : el("p", { class: "flow-reason" }, approval.flowReason),
    approval.question === undefined ? null : el("p", { class: "question" }, approval.question),
    el("pre", null, approval.input.text),
    approval.input.cut
      ? el("p", { class: "note" }, `Input cut for the page (${formatBytes(approval.input.bytes)} in all).`)
      : null,
    el("p", { class: "digest muted" }, approval.inputDigest),
    el("div", { class: "answer" }, ...buttons, reason),
    problem,
  );
}

/** Updates the expiry countdowns without redrawing the cards (a reason being typed stays). */
export function tickApprovals(
  section: HTMLElement,
  approvals: ReadonlyMap<string, PendingApprovalView>,
  now: number,
): void {
  for (const card of section.querySelectorAll<HTMLElement>(".approval")) {
    const approval = approvals.get(card.dataset.approvalId ?? "");
    const expires = card.querySelector(".expires");
    if (approval === undefined || expires === null) continue;
    expires.textContent = `expires in ${formatSeconds(Math.max(0, Math.round((approval.expiresAt - now) / 1000)))}`;
  }
}

function formatSeconds(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}
