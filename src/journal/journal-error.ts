// JournalError: a run journal that cannot do what was asked, with a stable code.
import { ToolwireError } from "../core/errors.js";

/**
 * Why a journal refused. One line each:
 * - `invalid-run-id`: the run id is not 1 to 200 characters of letters, digits, `.`, `_` and `-` (not starting with
 *   `.`).
 * - `invalid-journal-options`: the journal's options are wrong (no folder, no connection string or pool).
 * - `journal-corrupt`: a stored entry is not JSON or not an entry; the message names the run and the line or sequence.
 * - `journal-unavailable`: the file or the database could not be reached or written; the message says why, never a
 *   password.
 */
export type JournalErrorCode = "invalid-run-id" | "invalid-journal-options" | "journal-corrupt" | "journal-unavailable";

/** A journal's read, append or acquire failed; `runId` is the run concerned, when there is one. */
export class JournalError extends ToolwireError<JournalErrorCode> {
  override readonly name = "JournalError";
  constructor(
    code: JournalErrorCode,
    message: string,
    readonly runId?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
