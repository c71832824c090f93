// The loop's contract error: options that cannot start a run.
import { ToolwireError } from "../core/errors.js";

/** Codes of `AgentLoopError`. */
export type AgentLoopErrorCode = "invalid-options";

/** `runAgent` was called wrongly (no session, no model, a bad `maxTurns`...). Thrown at once, before any turn. */
export class AgentLoopError extends ToolwireError {
  override readonly name = "AgentLoopError";
  constructor(
    readonly code: AgentLoopErrorCode,
    message: string,
  ) {
    super(message);
  }
}
