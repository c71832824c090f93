// The run ids every journal accepts: safe as a file name, so a run can move between journals.
import { JournalError } from "./journal-error.js";

/** Letters, digits, `.`, `_` and `-`, 1 to 200 of them, not starting with `.` (so never `.`, `..` or a path). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** Throws `JournalError` `invalid-run-id` unless `runId` matches `RUN_ID_PATTERN`. */
export function checkRunId(runId: unknown): asserts runId is string {
  if (typeof runId === "string" && RUN_ID_PATTERN.test(runId)) return;
  const shown = typeof runId === "string" ? JSON.stringify(runId.slice(0, 80)) : typeof runId;
  throw new JournalError(
    "invalid-run-id",
    `Run id ${shown} is not valid: use 1 to 200 letters, digits, '.', '_' or '-', not starting with '.'.`,
  );
}

/** Whether `value` looks like a journal entry: an object with a string `kind`. */
export function isEntryShaped(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { kind?: unknown }).kind === "string"
  );
}
