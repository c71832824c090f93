// The agent loop: a model turn, every tool call dispatched, the results appended, repeated until the model stops.

import { isRecord } from "../core/json.js";
import type { TranscriptMessage } from "../providers/clients/types.js";
import { AgentLoopError } from "./errors.js";
import { journaledRun } from "./journaled-run.js";
import { DEFAULT_MAX_TURNS, turns } from "./turns.js";
import type { AgentEvent, RunAgentOptions } from "./types.js";

export { DEFAULT_MAX_TURNS } from "./turns.js";

/**
 * Runs the agent (docs/providers.md): a model turn over the session's system prompt and `session.modelTools`
 * (with the session's deferred tools as `deferredTools`, for clients with provider-native tool search), every tool
 * call dispatched through `session.dispatchAll`, the results appended, repeated until the model answers without
 * calls, `maxTurns` is reached, the signal aborts or a model turn fails. Streams `AgentEvent`s, ends with a `done`
 * event, and returns the transcript. Every tool call in the transcript has its result, aborted ones included.
 * Throws `AgentLoopError` (`invalid-options`) at once on bad options; never throws after that, except that a
 * journaled run's first step rejects with `ApprovalError` for `decisions` that answer no waiting call.
 */
export function runAgent(options: RunAgentOptions): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  checkOptions(options);
  const { journal, runId } = options;
  if (journal !== undefined) return journaledRun({ ...options, journal, runId: runId as string });
  // The run's generator is `turns` itself: a wrapping generator would add a step to every event.
  return turns({
    options,
    maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
    transcript: [...(options.messages ?? []), { role: "user", text: options.prompt }],
    total: { inputTokens: 0, outputTokens: 0 },
    turn: 0,
  });
}

function checkOptions(options: RunAgentOptions): void {
  const fail = (message: string): never => {
    throw new AgentLoopError("invalid-options", message);
  };
  if (!isRecord(options)) fail("runAgent needs an options object { session, model, prompt }");
  const { session, model, prompt, maxTurns, messages } = options;
  if (!isRecord(session) || typeof session.dispatchAll !== "function")
    fail("runAgent needs a session (createAgentSession)");
  if (!isRecord(model) || typeof model.complete !== "function") fail("runAgent needs a model with complete()");
  if (typeof prompt !== "string") fail(`runAgent needs a prompt string, got ${typeof prompt}`);
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns > 0)) {
    fail(`maxTurns must be a positive integer, got ${String(maxTurns)}`);
  }
  if (messages !== undefined && !Array.isArray(messages)) fail("messages must be an array of transcript messages");
  const { journal, runId, decisions } = options;
  if (decisions !== undefined && journal === undefined) {
    fail(
      "decisions resume a journaled run: give journal and runId too (a run paused without one resumes with resumeAgent)",
    );
  }
  if (decisions !== undefined && !isRecord(decisions)) fail("decisions must be an object of approval id to decision");
  if (journal !== undefined) {
    if (!isRecord(journal) || typeof journal.append !== "function" || typeof journal.read !== "function") {
      fail("journal must have append(runId, entries) and read(runId)");
    }
    if (typeof runId !== "string" || runId === "") fail("a journaled run needs a runId (a non-empty string)");
    if (typeof session.dispatchAllDetailed !== "function")
      fail("a journaled run needs a session with dispatchAllDetailed");
  }
}
