// What a call refused before its executor tells the model: a tool that is not active, a caller's abort.
import { cutText, describeThrown } from "../errors.js";
import type { ToolAvailabilityDiagnostic } from "../types.js";

/** The most characters of a model-written tool name that an error message repeats. */
const MAX_ECHOED_NAME_CHARS = 100;

/** The most reasons a refusal of a hidden tool gives, and the most characters of each. */
const MAX_HIDDEN_REASONS = 3;
const MAX_HIDDEN_REASON_CHARS = 300;

/** A call of a tool that is not active: a hidden one says why it is hidden, any other one names a close match. */
export function notFoundMessage(
  name: string,
  runtime: {
    activeTools(): ReadonlyMap<string, unknown>;
    hiddenBecause(name: string): readonly ToolAvailabilityDiagnostic[] | undefined;
  },
): string {
  const names = [...runtime.activeTools().keys()];
  const shown = cutText(name, MAX_ECHOED_NAME_CHARS);
  const available = `Available tools: ${names.length === 0 ? "none" : names.join(", ")}.`;
  const hidden = runtime.hiddenBecause(name);
  if (hidden !== undefined && hidden.length > 0) {
    const reasons = hidden
      .slice(0, MAX_HIDDEN_REASONS)
      .map((diagnostic) => cutText(diagnostic.message, MAX_HIDDEN_REASON_CHARS));
    return `Tool ${shown} is not available here, so it was not run: ${reasons.join("; ")}. ${available}`;
  }
  const lower = name.toLowerCase();
  const similar = names.find((candidate) => candidate.toLowerCase() === lower);
  const hint = similar === undefined ? "" : ` Did you mean ${similar}? Tool names are case-sensitive.`;
  return `Tool ${shown} not found.${hint} ${available}`;
}

/** A call the caller aborted: why, as the signal says. */
export function abortedMessage(name: string, signal: AbortSignal): string {
  const reason = signal.reason;
  const why =
    reason === undefined || (reason instanceof Error && reason.name === "AbortError")
      ? "the caller aborted it"
      : describeThrown(reason);
  return `Tool call ${name} aborted: ${why}`;
}
