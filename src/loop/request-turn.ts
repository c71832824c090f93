// One model request in flight: its deltas queued as they arrive, and its outcome: a turn, a failure or an abort.

import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { AgentTool } from "../core/types.js";
import type { ModelRequest, ModelTurn, TranscriptMessage } from "../providers/clients/types.js";
import type { LoopRun } from "./loop-run.js";
import type { AgentEvent } from "./types.js";

/** How a model request ended. */
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
 * Starts one model request: the model turn `runAgent` describes, over `transcript`. Its text and tool-call deltas
 * queue up in the order they arrive. Its outcome is `aborted` as soon as the signal aborts, even if the model
 * client ignores the signal. One promise per wait and no `Promise.race`: this runs twice in the smallest run of the
 * loop.
 */
export function requestTurn(
  options: LoopRun["options"],
  transcript: readonly TranscriptMessage[],
  turn: number,
): TurnRequest {
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
  const onAbort = () => settle({ kind: "aborted" });
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  if (request.step !== undefined) return request;
  let answer: Promise<ModelTurn>;
  try {
    const modelRequest: { -readonly [K in keyof ModelRequest]: ModelRequest[K] } = {
      systemPrompt: options.toolsInSystemPrompt === true ? session.systemPrompt : session.baseSystemPrompt,
      messages: [...transcript],
      tools: session.modelTools, // deferred tools only once tool_search found them (docs/deferred-tools.md)
      deferredTools: session.deferredTools ?? NO_TOOLS, // for provider-native tool search, when the client does it
      onTextDelta: (text) => {
        if (typeof text === "string" && text !== "") push({ type: "model_text_delta", turn, text });
      },
      onToolCallDelta: (delta) => {
        const event = toolCallDeltaEvent(delta, turn);
        if (event !== undefined) push(event);
      },
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

/** A model turn from a client that broke its contract is a failed turn, not a crash. */
function checkTurn(reply: unknown, name: string): TurnStep {
  if (!isRecord(reply) || typeof reply.text !== "string" || !Array.isArray(reply.toolCalls)) {
    return { kind: "failed", error: new Error(`Model ${name} returned something that is not a turn`) };
  }
  return { kind: "turn", turn: reply as unknown as ModelTurn };
}

const NO_TOOLS: readonly AgentTool[] = Object.freeze([]);
