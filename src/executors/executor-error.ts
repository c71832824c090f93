// ExecutorError: a remote executor (docs/workers.md) set up wrongly, with a stable kebab-case code.
import { ToolwireError } from "../core/errors.js";

/**
 * Why a remote executor or worker could not be set up. One line each:
 * - `invalid-executor`: its options are malformed (an id, a queue name, a connection that is not `redis://`
 *   or `rediss://`).
 * - `unknown-executor`: `toolwire worker --executor <id>` names an id the config's `executors` does not have.
 */
export type ExecutorErrorCode = "invalid-executor" | "unknown-executor";

/** A remote executor or worker that could not be set up; the message says what is wrong and what to change. */
export class ExecutorError extends ToolwireError<ExecutorErrorCode> {
  override readonly name = "ExecutorError";
}
