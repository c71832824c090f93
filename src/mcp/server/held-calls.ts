// A 2026-07-28 call that asks a question while it runs (a bridged server's), for a client that takes no tasks: the
// call goes on running in this process, the client gets input_required, and its retry (with the requestState naming
// the held call) brings the answer and waits for what comes next.
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { AskedQuestion, DispatchOptions, ToolQuestionAnswer } from "../../core/types.js";

/** What the client hears next from a held call: a question, or the call's end (a result, or a JSON-RPC error). */
export type HeldStep =
  /** `round` counts the call's questions: 1 for its first. */
  | { readonly kind: "question"; readonly question: AskedQuestion; readonly round: number }
  | { readonly kind: "done"; readonly result: CallToolResult }
  | { readonly kind: "failed"; readonly error: unknown };

/** One call held across a client's retries. */
export interface HeldCall {
  readonly id: string;
  readonly toolName: string;
  /** The signal the call runs with: aborted when the client does not come back in time. */
  readonly signal: AbortSignal;
  /** The dispatch's `ask`: each question waits for the client's next retry. */
  readonly ask: NonNullable<DispatchOptions["ask"]>;
  /** Resolves with the next step; a question the client leaves unanswered for `waitMs` is cancelled. */
  next(): Promise<HeldStep>;
  /** The question handed out and not answered yet (the client may ask for it again), if any. */
  open(): (HeldStep & { readonly kind: "question" }) | undefined;
  /** The client's answer to the open question; false when none is open. */
  answer(answer: ToolQuestionAnswer): boolean;
  /** Aborts the call (the client cancelled the request that waits for it); its open question is cancelled. */
  abort(reason: unknown): void;
}

/** The calls one session holds; a held call nobody comes back to within `waitMs` is aborted and forgotten. */
export interface HeldCalls {
  /**
   * A new held call for `toolName`, or `undefined` when `max` calls are held already. What `run` throws is the
   * call's end too: the client gets it as a JSON-RPC error.
   */
  hold(
    toolName: string,
    run: (call: HeldCall) => Promise<CallToolResult>,
    answeredAhead?: AnsweredAhead,
  ): HeldCall | undefined;
  find(id: string): HeldCall | undefined;
}

/**
 * The answers the request that started the call brought ahead, by question key (SEP-2322 lets a client send them
 * unasked): a question whose key has one is answered with it (once) instead of being asked.
 */
export type AnsweredAhead = (key: string) => ToolQuestionAnswer | undefined;

/** How long a held call waits for the client to come back: as long as an approval may wait. */
const DEFAULT_WAIT_MS = 900_000;
const DEFAULT_MAX_HELD = 100;

const bySession = new WeakMap<object, HeldCalls>();

/** The held calls of `session` (one table per session, made on first use). */
export function heldCallsOf(session: object): HeldCalls {
  let held = bySession.get(session);
  if (held === undefined) {
    held = createHeldCalls();
    bySession.set(session, held);
  }
  return held;
}

export function createHeldCalls(options: { readonly waitMs?: number; readonly max?: number } = {}): HeldCalls {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const max = options.max ?? DEFAULT_MAX_HELD;
  const calls = new Map<string, HeldCall>();
  return {
    hold(toolName, run, answeredAhead) {
      if (calls.size >= max) return undefined;
      const call = heldCall(toolName, waitMs, () => calls.delete(call.id), answeredAhead);
      calls.set(call.id, call);
      void run(call).then(
        (result) => call.end(result),
        (error: unknown) => call.fail(error),
      );
      return call;
    },
    find: (id) => calls.get(id),
  };
}

function heldCall(
  toolName: string,
  waitMs: number,
  forget: () => void,
  answeredAhead: AnsweredAhead | undefined,
): HeldCall & { end(result: CallToolResult): void; fail(error: unknown): void } {
  const controller = new AbortController();
  const steps: HeldStep[] = [];
  const usedAhead = new Set<string>();
  let rounds = 0;
  let asked: (HeldStep & { readonly kind: "question" }) | undefined;
  let waiting: ((step: HeldStep) => void) | undefined;
  let open: ((answer: ToolQuestionAnswer) => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const push = (step: HeldStep) => {
    if (waiting === undefined) steps.push(step);
    else {
      const resolve = waiting;
      waiting = undefined;
      resolve(step);
    }
  };
  // The client has the step: it has `waitMs` to come back, or the call is aborted and forgotten.
  const handedOut = (step: HeldStep) => {
    clearTimeout(timer);
    if (step.kind !== "question") forget();
    else {
      asked = step;
      timer = setTimeout(() => {
        controller.abort(new Error("the MCP client did not answer the call's question in time"));
        open?.({ action: "cancel" });
        forget();
      }, waitMs);
      timer.unref?.();
    }
    return step;
  };
  return {
    id: randomUUID(),
    toolName,
    signal: controller.signal,
    ask: (question, { signal }) => {
      const key = question.key;
      const ahead = key === undefined || usedAhead.has(key) ? undefined : answeredAhead?.(key);
      if (ahead !== undefined && key !== undefined) {
        usedAhead.add(key);
        return Promise.resolve(ahead);
      }
      return new Promise<ToolQuestionAnswer>((resolve) => {
        const cancel = () => resolve({ action: "cancel" });
        signal.addEventListener("abort", cancel, { once: true });
        open = (answer) => {
          open = undefined;
          asked = undefined;
          signal.removeEventListener("abort", cancel);
          resolve(answer);
        };
        push({ kind: "question", question, round: ++rounds });
      });
    },
    next: () => {
      const step = steps.shift();
      if (step !== undefined) return Promise.resolve(handedOut(step));
      return new Promise<HeldStep>((resolve) => {
        waiting = (next) => resolve(handedOut(next));
      });
    },
    open: () => (open === undefined ? undefined : asked),
    answer(answer) {
      if (open === undefined) return false;
      clearTimeout(timer);
      open(answer);
      return true;
    },
    abort(reason) {
      controller.abort(reason);
      open?.({ action: "cancel" });
    },
    end(result) {
      push({ kind: "done", result });
    },
    fail(error) {
      push({ kind: "failed", error });
    },
  };
}
