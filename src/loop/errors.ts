// The loop's contract error: options that cannot start a run.
import { ToolwireError } from "../core/errors.js";

/** Codes of `AgentLoopError`. */
export type AgentLoopErrorCode = "invalid-options";

/** `runAgent` was called wrongly (no session, no model, a bad `maxTurns`...). Thrown at once, before any turn. */
export class AgentLoopError extends ToolwireError<AgentLoopErrorCode> {
  override readonly name = "AgentLoopError";
}
