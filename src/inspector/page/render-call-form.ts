// Calling a tool by hand (when the inspector allows it): pick a tool, write its input, see the result.
import type { PlanView } from "../types.js";
import { el, formatMs, replaceChildren } from "./dom.js";

interface ManualOutcome {
  readonly toolCallId: string;
  readonly isError: boolean;
  readonly errorCode?: string;
  readonly durationMs: number;
  readonly content: { readonly text: string; readonly cut: boolean };
}

/** Draws the form for the selected session; kept as it is while the same tools are offered. */
export function renderCallForm(
  section: HTMLElement,
  canCall: boolean,
  sessionId: string | undefined,
  plan: PlanView | undefined,
): void {
  section.hidden = !canCall || sessionId === undefined || plan === undefined;
  if (section.hidden || plan === undefined || sessionId === undefined) return;
  const container = section.querySelector(".call-form");
  if (container === null) return;
  const names = plan.visible.filter((tool) => tool.active).map((tool) => tool.name);
  const signature = `${sessionId}:${names.join(",")}`;
  if ((container as HTMLElement).dataset.signature === signature) return;
  (container as HTMLElement).dataset.signature = signature;
  const select = el(
    "select",
    { attrs: { "aria-label": "Tool" } },
    ...names.map((name) => el("option", { attrs: { value: name } }, name)),
  );
  const input = el("textarea", { attrs: { rows: "4", spellcheck: "false", "aria-label": "Input (JSON)" } });
  input.value = "{}";
  const output = el("pre", { class: "call-output", attrs: { hidden: "" } });
  const run = el("button", { attrs: { type: "button" } }, "Call");
  run.addEventListener("click", async () => {
    run.disabled = true;
    output.hidden = false;
    output.textContent = "calling…";
    try {
      const response = await fetch("./calls", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ sessionId, name: select.value, input: input.value }),
      });
      if (!response.ok) output.textContent = await response.text();
      else {
        const outcome = (await response.json()) as ManualOutcome;
        const head = `${outcome.isError ? `error${outcome.errorCode === undefined ? "" : ` ${outcome.errorCode}`}` : "ok"} in ${formatMs(outcome.durationMs)}`;
        output.textContent = `${head}\n\n${outcome.content.text}${outcome.content.cut ? "\n… (cut for the page)" : ""}`;
      }
    } catch (error) {
      output.textContent = `The inspector did not answer: ${String(error)}`;
    } finally {
      run.disabled = false;
    }
  });
  replaceChildren(container, el("div", { class: "call-form-row" }, select, run), input, output);
}
