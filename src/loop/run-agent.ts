// The agent loop: a model turn, every tool call dispatched, the results appended, repeated until the model stops.

import type { AgentSession } from "../core/dispatch/session.js";
import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { AgentTool, ApprovalRequest, ToolCallOutcome, ToolResultBlock } from "../core/types.js";
import type {
  ModelRequest,
  ModelStopReason,
  ModelTurn,
  ModelUsage,
  ToolCallDelta,
  TranscriptMessage,
} from "../providers/clients/types.js";
import { MISSING_RESULT_TEXT } from "../providers/shared.js";
import type { ToolCall } from "../providers/types.js";
import { AgentLoopError } from "./errors.js";
import { foundToolNames } from "./found-tool-names.js";
import { sealRunState } from "./run-state.js";
import type { AgentEvent, AgentStopReason, RunAgentOptions } from "./types.js";

/** `maxTurns` when none is given. */
export const DEFAULT_MAX_TURNS = 20;

/**
 * Runs the agent (SPEC 12): a model turn over the session's system prompt and `session.modelTools` (with the session's
 * deferred tools as `deferredTools`, for clients with provider-native tool search), every tool call
 * dispatched through `session.dispatchAll`, the results appended, repeated until the model answers without calls,
 * `maxTurns` is reached, the signal aborts or a model turn fails. Streams `AgentEvent`s, ends with a `done` event,
 * and returns the transcript. Every tool call in the transcript has its result, aborted ones included.
 * Throws `AgentLoopError` (`invalid-options`) at once on bad options; never throws after that.
 */
export function runAgent(options: RunAgentOptions): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  checkOptions(options);
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
}

/** A run in progress: what every turn reads and adds to. */
export interface LoopRun {
  readonly options: Pick<RunAgentOptions, "session" | "model" | "signal" | "toolsInSystemPrompt">;
  readonly maxTurns: number;
  readonly transcript: TranscriptMessage[];
  total: ModelUsage;
  turn: number;
}

/** A turn whose calls were dispatched: each call's result, or its pending approval. */
export interface TurnCalls {
  readonly calls: readonly ToolCall[];
  readonly results: (ToolResultBlock | undefined)[];
  /** Paused calls, in the calls' order, with their place among `calls`. */
  readonly pending: { readonly request: ApprovalRequest; readonly position: number }[];
  readonly stopReason: ModelStopReason;
}

/** Model turns until the model stops, `maxTurns`, an abort, a failed turn or a pause for approval. */
export async function* turns(run: LoopRun): AsyncGenerator<AgentEvent, TranscriptMessage[], undefined> {
  const { session, signal } = run.options;
  const { transcript } = run;
  session.loadDeferredTools?.(foundToolNames(transcript)); // tools found earlier in the transcript (SPEC 19)
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
    transcript.push(
      reply.providerMessage === undefined
        ? { role: "assistant", text: reply.text, toolCalls: calls }
        : { role: "assistant", text: reply.text, toolCalls: calls, providerMessage: reply.providerMessage },
    );
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
    const outcomes = await dispatchTurn(session, calls, signal);
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
 * Records outcomes of some of a turn's calls, in their order: each result's event goes to `events`, each paused
 * call joins `pending`. A session-like object without `dispatchAllDetailed` gives blocks only. (Events are
 * collected, not yielded by a generator of its own: delegating to one adds a step to every event.)
 */
export function takeOutcomes(
  run: LoopRun,
  into: TurnCalls,
  positions: readonly number[],
  outcomes: readonly Partial<ToolCallOutcome>[],
  events: AgentEvent[],
): void {
  for (let index = 0; index < positions.length; index++) {
    const position = positions[index] as number;
    const call = into.calls[position] as ToolCall;
    const outcome = outcomes[index];
    if (outcome?.pendingApproval !== undefined) {
      into.pending.push({ request: outcome.pendingApproval, position });
      continue;
    }
    const block =
      outcome?.block?.tool_use_id === call.id
        ? outcome.block
        : outcomes.find((other) => other?.block?.tool_use_id === call.id)?.block;
    const result = block ?? missingResult(call);
    into.results[position] = result;
    const event: { -readonly [K in keyof ToolResultEvent]: ToolResultEvent[K] } = {
      type: "tool_result",
      turn: run.turn,
      call,
      result,
    };
    if (outcome?.durationMs !== undefined) event.durationMs = outcome.durationMs;
    if (outcome?.errorCode !== undefined) event.errorCode = outcome.errorCode;
    events.push(event);
  }
}

/**
 * Ends a turn whose calls were dispatched: pauses when approvals wait (the calls stay unanswered in the
 * state; "stopped"), else appends the results ("next": then `stopAfterTurn` decides whether another turn runs).
 * Its events go to `events`.
 */
export function endTurn(run: LoopRun, dispatched: TurnCalls, events: AgentEvent[]): "stopped" | "next" {
  const { session, signal } = run.options;
  const { calls, results, pending, stopReason } = dispatched;
  if (pending.length > 0 && !signal?.aborted) {
    const state =
      session.approvals === undefined
        ? undefined
        : sealRunState(session.approvals, {
            turn: run.turn,
            maxTurns: run.maxTurns,
            usage: run.total,
            stopReason,
            transcript: run.transcript,
            results: calls.map((_call, index) => results[index] ?? null),
            pending: pending.map(({ request }) => request),
          });
    if (state !== undefined) {
      events.push({ type: "approval_required", turn: run.turn, requests: pending.map(({ request }) => request) });
      events.push({ ...finish(run, "awaiting_approval"), state });
      return "stopped";
    }
  }
  // Aborted while approvals waited, or a state that cannot be kept: those calls end here, unrun.
  for (const { position } of pending.splice(0)) {
    const call = calls[position] as ToolCall;
    const result = unrunResult(call, signal?.aborted === true);
    results[position] = result;
    const errorCode = signal?.aborted === true ? "aborted" : "approval-required";
    events.push({ type: "tool_result", turn: run.turn, call, result, errorCode });
  }
  run.transcript.push({ role: "tool", results: calls.map((call, index) => results[index] ?? missingResult(call)) });
  events.push({ type: "turn_end", turn: run.turn, stopReason, toolCalls: calls.length });
  return "next";
}

/**
 * After a turn's events were yielded (the consumer may abort on any of them): the `done` event when the run
 * stops here, aborted or at `maxTurns`; `undefined` when another turn runs.
 */
export function stopAfterTurn(run: LoopRun): AgentEvent | undefined {
  if (run.options.signal?.aborted) return finish(run, "aborted");
  if (run.turn >= run.maxTurns) return finish(run, "max_turns");
  return undefined;
}

function finish(run: LoopRun, reason: AgentStopReason, error?: Error): Extract<AgentEvent, { type: "done" }> {
  const done = { type: "done", reason, turns: run.turn, usage: run.total, transcript: [...run.transcript] } as const;
  return error === undefined ? done : { ...done, error };
}

function missingResult(call: ToolCall): ToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: call.id,
    content: [{ type: "text", text: MISSING_RESULT_TEXT }],
    is_error: true,
  };
}

function unrunResult(call: ToolCall, aborted: boolean): ToolResultBlock {
  const text = aborted
    ? `Tool call ${call.name} aborted while it waited for approval; it was not run.`
    : `Tool call ${call.name} needs a person's approval, and this run could not pause for it. It was not run.`;
  return { type: "tool_result", tool_use_id: call.id, content: [{ type: "text", text }], is_error: true };
}

type TurnStep =
  | { readonly kind: "turn"; readonly turn: ModelTurn }
  | { readonly kind: "aborted" }
  | { readonly kind: "failed"; readonly error: Error };

/** A model request in flight: the deltas not yet yielded, and its outcome once it has one. */
interface TurnRequest {
  readonly deltas: AgentEvent[];
  /** The outcome: set when the model answers or fails, or at once when the signal aborts. */
  step: TurnStep | undefined;
  /** Resolves at the next delta or outcome. */
  news(): Promise<void>;
  /** Stops listening to the signal. */
  close(): void;
}

/**
 * Starts one model request; its text and tool-call deltas queue up in the order they arrive. Its outcome is
 * `aborted` as soon as the signal aborts, even if the model client ignores the signal. One promise per wait and
 * no `Promise.race`: this runs twice in the smallest run of the loop.
 */
function requestTurn(options: LoopRun["options"], transcript: readonly TranscriptMessage[], turn: number): TurnRequest {
  const { session, model, signal } = options;
  let wake: (() => void) | undefined;
  // A plain object with a data property: a getter here (an object literal with an accessor) made the whole run
  // about a fifth slower.
  const request: TurnRequest = {
    deltas: [],
    step: undefined,
    news: () =>
      new Promise<void>((resolve) => {
        wake = resolve;
      }),
    // One listener per turn would pile up on a long-lived signal (Node warns past 10).
    close: () => signal?.removeEventListener("abort", onAbort),
  };
  const notify = () => {
    const woken = wake;
    wake = undefined;
    woken?.();
  };
  const settle = (outcome: TurnStep) => {
    request.step ??= outcome;
    notify();
  };
  const push = (event: AgentEvent) => {
    request.deltas.push(event);
    notify();
  };
  const onTextDelta = (text: string) => {
    if (typeof text === "string" && text !== "") push({ type: "model_text_delta", turn, text });
  };
  const onToolCallDelta = (delta: ToolCallDelta) => {
    const event = toolCallDeltaEvent(delta, turn);
    if (event !== undefined) push(event);
  };
  const onAbort = () => settle({ kind: "aborted" });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  if (request.step === undefined) {
    let answer: Promise<ModelTurn>;
    try {
      const modelRequest: { -readonly [K in keyof ModelRequest]: ModelRequest[K] } = {
        systemPrompt: options.toolsInSystemPrompt === true ? session.systemPrompt : session.baseSystemPrompt,
        messages: [...transcript],
        tools: session.modelTools, // deferred tools only once tool_search found them (SPEC 19)
        deferredTools: session.deferredTools ?? NO_TOOLS, // for provider-native tool search, when the client does it
        onTextDelta,
        onToolCallDelta,
      };
      if (signal !== undefined) modelRequest.signal = signal;
      answer = Promise.resolve(model.complete(modelRequest));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      (reply) => settle(signal?.aborted ? { kind: "aborted" } : checkTurn(reply, model.name)),
      (error: unknown) =>
        settle(
          signal?.aborted
            ? { kind: "aborted" }
            : { kind: "failed", error: error instanceof Error ? error : new Error(describeThrown(error)) },
        ),
    );
  }
  return request;
}

/** A client's tool-call delta as an event, its fields checked (a client is untrusted); undefined when malformed. */
function toolCallDeltaEvent(delta: unknown, turn: number): AgentEvent | undefined {
  if (!isRecord(delta) || !Number.isInteger(delta.index) || (delta.index as number) < 0) return undefined;
  const { id, name, argumentsDelta } = delta;
  if (typeof argumentsDelta !== "string") return undefined;
  if (argumentsDelta === "" && typeof id !== "string" && typeof name !== "string") return undefined;
  return {
    type: "model_tool_call_delta",
    turn,
    index: delta.index as number,
    ...(typeof id === "string" ? { id } : {}),
    ...(typeof name === "string" ? { name } : {}),
    argumentsDelta,
  };
}

/**
 * A turn's calls with their outcomes; a call that needs approval with nobody to ask pauses. A session-like
 * object without `dispatchAllDetailed` gets blocks only.
 */
function dispatchTurn(
  session: AgentSession,
  calls: readonly ToolCall[],
  signal: AbortSignal | undefined,
): Promise<readonly Partial<ToolCallOutcome>[]> {
  const options = signal === undefined ? { pauseForApproval: true } : { signal, pauseForApproval: true };
  // Not an async function: returning the session's promise as it is saves the wrapping promise's extra ticks.
  if (typeof session.dispatchAllDetailed === "function") return session.dispatchAllDetailed(calls, options);
  return Promise.resolve(session.dispatchAll(calls, options)).then((blocks) => blocks.map((block) => ({ block })));
}

/** A model turn from a client that broke its contract is a failed turn, not a crash. */
function checkTurn(reply: unknown, name: string): TurnStep {
  if (!isRecord(reply) || typeof reply.text !== "string" || !Array.isArray(reply.toolCalls)) {
    return { kind: "failed", error: new Error(`Model ${name} returned something that is not a turn`) };
  }
  return { kind: "turn", turn: reply as unknown as ModelTurn };
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

const NO_TOOLS: readonly AgentTool[] = Object.freeze([]);

type ToolResultEvent = Extract<AgentEvent, { type: "tool_result" }>;
