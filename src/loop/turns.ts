// A run's model turns: each answer, its calls dispatched (journaled when the run is), the results appended.

import type { ToolCallOutcome } from "../core/types.js";
import type { ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import { endTurn, finish, stopAfterTurn, takeOutcomes } from "./end-turn.js";
import { foundToolNames } from "./found-tool-names.js";
import { dispatchJournaled } from "./journal-calls.js";
import type { LoopRun, TurnCalls } from "./loop-run.js";
import { requestTurn } from "./request-turn.js";
import type { AgentEvent } from "./types.js";

/** `maxTurns` when none is given. */
export const DEFAULT_MAX_TURNS = 20;

/** Model turns until the model stops, `maxTurns`, an abort, a failed turn or a pause for approval. */
export async function* turns(run: LoopRun): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  const { session, signal } = run.options;
  const { transcript } = run;
  // Tools found earlier in the transcript (docs/deferred-tools.md).
  session.loadDeferredTools?.(foundToolNames(transcript));
  while (true) {
    if (signal?.aborted) {
      yield finish(run, "aborted");
      return transcript;
    }
    const turn = ++run.turn;
    yield { type: "turn_start", turn };
    // The model's deltas as they arrive, then its answer (inline: a generator of its own adds a step per event).
    const request = requestTurn(run.options, transcript, turn);
    try {
      while (true) {
        while (request.deltas.length > 0) yield request.deltas.shift() as AgentEvent;
        if (request.step !== undefined) break;
        await request.news();
      }
    } finally {
      request.close();
    }
    const step = request.step;
    if (step.kind !== "turn") {
      const aborted = step.kind === "aborted";
      if (!aborted) yield { type: "error", turn, error: step.error };
      yield { type: "turn_end", turn, stopReason: aborted ? "aborted" : "error", toolCalls: 0 };
      yield aborted ? finish(run, "aborted") : finish(run, "model_error", step.error);
      return transcript;
    }
    const reply = step.turn;
    const calls = [...reply.toolCalls];
    const message: Extract<TranscriptMessage, { role: "assistant" }> =
      reply.providerMessage === undefined
        ? { role: "assistant", text: reply.text, toolCalls: calls }
        : { role: "assistant", text: reply.text, toolCalls: calls, providerMessage: reply.providerMessage };
    transcript.push(message);
    // Journaled before anything acts on it: a resumed run does not ask the model for this turn again.
    if (run.journal !== undefined) {
      const entry = { kind: "model-turn" as const, turn, message, stopReason: reply.stopReason };
      await run.journal.record([reply.usage === undefined ? entry : { ...entry, usage: reply.usage }]);
    }
    if (reply.text !== "") yield { type: "model_text", turn, text: reply.text };
    if (reply.usage !== undefined) {
      run.total = addUsage(run.total, reply.usage);
      yield { type: "usage", turn, usage: reply.usage, total: run.total };
    }
    if (calls.length === 0) {
      yield { type: "turn_end", turn, stopReason: reply.stopReason, toolCalls: 0 };
      yield finish(run, "completed");
      return transcript;
    }
    for (const call of calls) yield { type: "tool_call", turn, call };
    const outcomes = await dispatchTurn(run, calls);
    const dispatched: TurnCalls = { calls, results: [], pending: [], stopReason: reply.stopReason };
    const events: AgentEvent[] = [];
    takeOutcomes(
      run,
      dispatched,
      calls.map((_call, index) => index),
      outcomes,
      events,
    );
    for (const event of events) yield event; // the consumer may abort on a result: endTurn then sees it
    events.length = 0;
    const next = endTurn(run, dispatched, events);
    for (const event of events) yield event;
    if (next === "stopped") return transcript;
    const stop = stopAfterTurn(run);
    if (stop !== undefined) {
      yield stop;
      return transcript;
    }
  }
}

/**
 * A turn's calls with their outcomes; a call that needs approval with nobody to ask pauses. A session-like
 * object without `dispatchAllDetailed` gets blocks only. A journaled run records each call's start and end.
 */
export function dispatchTurn(run: LoopRun, calls: readonly ToolCall[]): Promise<readonly Partial<ToolCallOutcome>[]> {
  const { session, signal } = run.options;
  if (run.journal !== undefined) return dispatchJournaled(run, run.journal, calls);
  const options = signal === undefined ? { pauseForApproval: true } : { signal, pauseForApproval: true };
  // Not an async function: returning the session's promise as it is saves the wrapping promise's extra ticks.
  if (typeof session.dispatchAllDetailed === "function") return session.dispatchAllDetailed(calls, options);
  return Promise.resolve(session.dispatchAll(calls, options)).then((blocks) => blocks.map((block) => ({ block })));
}

export function addUsage(total: ModelUsage, usage: ModelUsage): ModelUsage {
  const sum: { -readonly [K in keyof ModelUsage]: ModelUsage[K] } = {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
  };
  const cacheRead = (total.cacheReadTokens ?? 0) + (usage.cacheReadTokens ?? 0);
  const cacheWrite = (total.cacheWriteTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  if (cacheRead > 0) sum.cacheReadTokens = cacheRead;
  if (cacheWrite > 0) sum.cacheWriteTokens = cacheWrite;
  return sum;
}
