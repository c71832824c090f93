// Copies of an approved call's input: a frozen one to show (approvers, listeners), a fresh one to run.
import { copyJson } from "../copy-json.js";
import type { JsonObject } from "../types.js";

/**
 * A deep-frozen copy of `input`, which is plain JSON data (read, copied and validated when the call began): what an
 * approval request carries, so that nobody it is shown to can change what runs.
 */
export function frozenJsonCopy(input: JsonObject): JsonObject {
  const copy = plainJsonCopy(input);
  const pending: unknown[] = [copy];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "object" && next !== null) {
      Object.freeze(next);
      for (const child of Object.values(next)) pending.push(child);
    }
  }
  return copy;
}

/** A fresh, unfrozen copy of `input` (plain JSON data): what the executor gets, sharing nothing with the request. */
export function plainJsonCopy(input: JsonObject): JsonObject {
  const copied = copyJson(input, "input");
  // Cannot happen for plain JSON data; a throw here becomes the call's internal failure, never a changed input.
  if (!copied.ok) throw new TypeError(`The call's input is not JSON data: ${copied.problem}`);
  return copied.value as JsonObject;
}
