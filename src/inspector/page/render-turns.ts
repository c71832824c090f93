// The turns of the selected session: per turn, the bytes and estimated tokens of the tool definitions sent, in
// each provider's format, and the model's usage.
import type { DefinitionSize, MeasuredProvider, TurnView } from "../types.js";
import { el, formatBytes, formatCount, replaceChildren, table } from "./dom.js";

const PROVIDERS: readonly (readonly [MeasuredProvider, string])[] = [
  ["anthropic", "Anthropic"],
  ["openai-chat", "OpenAI Chat"],
  ["openai-responses", "OpenAI Responses"],
  ["gemini", "Gemini"],
];

/** Draws the turns table (or says no loop is followed). */
export function renderTurns(container: Element, turns: readonly TurnView[]): void {
  if (turns.length === 0) {
    replaceChildren(
      container,
      el("p", { class: "empty" }, "No model turns yet (the inspector sees turns of a loop it follows)."),
    );
    return;
  }
  replaceChildren(
    container,
    table(
      ["turn", "tools sent", "est. tokens", ...PROVIDERS.map(([, label]) => label), "model tokens in / out", "ended"],
      turns.map((turn) => [
        String(turn.turn),
        toolsSent(turn),
        turn.definitions === undefined ? "" : formatCount(turn.definitions.estimatedTokens),
        ...PROVIDERS.map(([provider]) =>
          turn.definitions === undefined ? "" : size(turn.definitions.providers[provider]),
        ),
        turn.inputTokens === undefined
          ? ""
          : `${formatCount(turn.inputTokens)} / ${formatCount(turn.outputTokens ?? 0)}`,
        turn.stopReason === undefined
          ? turn.endedAt === undefined
            ? "running"
            : ""
          : `${turn.stopReason}${turn.toolCalls ? `, ${turn.toolCalls} call${turn.toolCalls === 1 ? "" : "s"}` : ""}`,
      ]),
      "turn-table",
    ),
  );
}

/** How many tools were sent, their names on hover; a stored run keeps the names at most. */
function toolsSent(turn: TurnView): Node | string {
  const names = turn.definitions?.names ?? turn.offered;
  if (names === undefined) return "";
  return el("span", { attrs: { title: names.join(", ") } }, String(names.length));
}

function size(measure: DefinitionSize): string {
  return `${formatBytes(measure.bytes)} · ${formatCount(measure.estimatedTokens)} tok`;
}
