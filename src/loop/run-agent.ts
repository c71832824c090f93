// The agent loop: a model turn, every tool call dispatched, the results appended, repeated until the model stops.

import type { AgentSession } from "../core/dispatch/session.js";
import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { ToolCallOutcome, ToolResultBlock } from "../core/types.js";
import type { ModelTurn, ModelUsage, TranscriptMessage } from "../providers/clients/types.js";
import { MISSING_RESULT_TEXT } from "../providers/shared.js";
import type { ToolCall } from "../providers/types.js";
import { AgentLoopError } from "./errors.js";
import type { AgentEvent, AgentStopReason, RunAgentOptions } from "./types.js";

/** `maxTurns` when none is given. */
export const DEFAULT_MAX_TURNS = 20;

/**
 * Runs the agent (SPEC 12): a model turn over the session's system prompt and active tools, every tool call
 * dispatched through `session.dispatchAll`, the results appended, repeated until the model answers without calls,
 * `maxTurns` is reached, the signal aborts or a model turn fails. Streams `AgentEvent`s, ends with a `done` event,
 * and returns the transcript. Every tool call in the transcript has its result, aborted ones included.
 * Throws `AgentLoopError` (`invalid-options`) at once on bad options; never throws after that.
 */
export function runAgent(options: RunAgentOptions): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  checkOptions(options);
  return loop(options);
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
}

async function* loop(options: RunAgentOptions): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  const { session, signal } = options;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const transcript: TranscriptMessage[] = [...(options.messages ?? []), { role: "user", text: options.prompt }];
  let total: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let turn = 0;
  const finish = (reason: AgentStopReason, error?: Error): AgentEvent => ({
    type: "done",
    reason,
    turns: turn,
    usage: total,
    transcript: [...transcript],
    ...(error === undefined ? {} : { error }),
  });

  while (true) {
    if (signal?.aborted) {
      yield finish("aborted");
      return transcript;
    }
    turn++;
    yield { type: "turn_start", turn };
    const step = yield* requestTurn(options, transcript, turn);
    if (step.kind !== "turn") {
      const aborted = step.kind === "aborted";
      if (!aborted) yield { type: "error", turn, error: step.error };
      yield { type: "turn_end", turn, stopReason: aborted ? "aborted" : "error", toolCalls: 0 };
      yield aborted ? finish("aborted") : finish("model_error", step.error);
      return transcript;
    }
    const reply = step.turn;
    const calls = [...reply.toolCalls];
    transcript.push({
      role: "assistant",
      text: reply.text,
      toolCalls: calls,
      ...(reply.providerMessage === undefined ? {} : { providerMessage: reply.providerMessage }),
    });
    if (reply.text !== "") yield { type: "model_text", turn, text: reply.text };
    if (reply.usage !== undefined) {
      total = addUsage(total, reply.usage);
      yield { type: "usage", turn, usage: reply.usage, total };
    }
    if (calls.length === 0) {
      yield { type: "turn_end", turn, stopReason: reply.stopReason, toolCalls: 0 };
      yield finish("completed");
      return transcript;
    }
    for (const call of calls) yield { type: "tool_call", turn, call };
    const outcomes = await dispatchTurn(session, calls, signal);
    const results = answerEveryCall(
      calls,
      outcomes.map((outcome) => outcome.block),
    );
    transcript.push({ role: "tool", results });
    for (let index = 0; index < calls.length; index++) {
      const result = results[index] as ToolResultBlock;
      const outcome = outcomes[index]?.block === result ? outcomes[index] : undefined;
      yield {
        type: "tool_result",
        turn,
        call: calls[index] as ToolCall,
        result,
        ...(outcome?.durationMs === undefined ? {} : { durationMs: outcome.durationMs }),
        ...(outcome?.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      };
    }
    yield { type: "turn_end", turn, stopReason: reply.stopReason, toolCalls: calls.length };
    if (signal?.aborted) {
      yield finish("aborted");
      return transcript;
    }
    if (turn >= maxTurns) {
      yield finish("max_turns");
      return transcript;
    }
  }
}

type TurnStep =
  | { readonly kind: "turn"; readonly turn: ModelTurn }
  | { readonly kind: "aborted" }
  | { readonly kind: "failed"; readonly error: Error };

/**
 * One model request, yielding text deltas while it runs. Ends at once when the signal aborts, even if the model
 * client ignores the signal.
 */
async function* requestTurn(
  options: RunAgentOptions,
  transcript: readonly TranscriptMessage[],
  turn: number,
): AsyncGenerator<AgentEvent, TurnStep, undefined> {
  const { session, model, signal } = options;
  const deltas: string[] = [];
  let wake: (() => void) | undefined;
  const onTextDelta = (text: string) => {
    if (typeof text !== "string" || text === "") return;
    deltas.push(text);
    wake?.();
  };
  let settled = false;
  const outcome: Promise<TurnStep> = Promise.resolve()
    .then(() =>
      model.complete({
        systemPrompt: session.systemPrompt,
        messages: [...transcript],
        tools: [...session.activeTools.values()],
        onTextDelta,
        ...(signal === undefined ? {} : { signal }),
      }),
    )
    .then(
      (reply): TurnStep => (signal?.aborted ? { kind: "aborted" } : checkTurn(reply, model.name)),
      (error: unknown): TurnStep =>
        signal?.aborted
          ? { kind: "aborted" }
          : { kind: "failed", error: error instanceof Error ? error : new Error(describeThrown(error)) },
    )
    .finally(() => {
      settled = true;
      wake?.();
    });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<TurnStep>((resolve) => {
    onAbort = () => resolve({ kind: "aborted" });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    while (true) {
      while (deltas.length > 0) yield { type: "model_text_delta", turn, text: deltas.shift() as string };
      if (settled) return await outcome;
      const woken = new Promise<undefined>((resolve) => {
        wake = () => resolve(undefined);
      });
      const step = await Promise.race([outcome, aborted, woken]);
      wake = undefined;
      if (step !== undefined) {
        while (deltas.length > 0) yield { type: "model_text_delta", turn, text: deltas.shift() as string };
        return step;
      }
    }
  } finally {
    // One listener per turn would pile up on a long-lived signal (Node warns past 10).
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  }
}

/** A turn's calls with their outcomes; a session-like object without `dispatchAllDetailed` gets blocks only. */
async function dispatchTurn(
  session: AgentSession,
  calls: readonly ToolCall[],
  signal: AbortSignal | undefined,
): Promise<readonly Partial<ToolCallOutcome>[]> {
  const options = signal === undefined ? {} : { signal };
  if (typeof session.dispatchAllDetailed === "function") return session.dispatchAllDetailed(calls, options);
  return (await session.dispatchAll(calls, options)).map((block) => ({ block }));
}

/** A model turn from a client that broke its contract is a failed turn, not a crash. */
function checkTurn(reply: unknown, name: string): TurnStep {
  if (!isRecord(reply) || typeof reply.text !== "string" || !Array.isArray(reply.toolCalls)) {
    return { kind: "failed", error: new Error(`Model ${name} returned something that is not a turn`) };
  }
  return { kind: "turn", turn: reply as unknown as ModelTurn };
}

/** One result per call, in the calls' order; a call the session left unanswered gets an error result. */
function answerEveryCall(
  calls: readonly ToolCall[],
  results: readonly (ToolResultBlock | undefined)[],
): ToolResultBlock[] {
  return calls.map(
    (call, index) =>
      (results[index]?.tool_use_id === call.id ? results[index] : undefined) ??
      results.find((result) => result?.tool_use_id === call.id) ?? {
        type: "tool_result",
        tool_use_id: call.id,
        content: [{ type: "text", text: MISSING_RESULT_TEXT }],
        is_error: true,
      },
  );
}

function addUsage(total: ModelUsage, usage: ModelUsage): ModelUsage {
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
