// The replay's error: a recording that cannot be read, or a run that left the recorded path.
import { ToolwireError } from "../core/errors.js";

/**
 * Codes of `ReplayError`: `invalid-recording` (a line that is not JSON or not a record), `replay-diverged` (the run
 * asked or called something the recording does not have: the message names the turn, the call and what differs).
 */
export type ReplayErrorCode = "invalid-recording" | "replay-diverged";

/** A replay that cannot go on. `turn` (from 1) and `callId` say where, when known. */
export class ReplayError extends ToolwireError<ReplayErrorCode> {
  override readonly name = "ReplayError";
  readonly turn: number | undefined;
  readonly callId: string | undefined;

  constructor(code: ReplayErrorCode, message: string, where: { turn?: number; callId?: string } = {}) {
    super(code, message);
    this.turn = where.turn;
    this.callId = where.callId;
  }
}
