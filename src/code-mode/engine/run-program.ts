// Runs one program on an engine worker: its nested calls go to the caller, its limits are kept from outside it.
import type { JsonValue } from "../../core/types.js";
import { isPackageNotFound, MissingPeerDependencyError } from "../../load-optional.js";
import { assertEngineInstalled, ENGINE_FEATURE, ENGINE_PACKAGES } from "./engine-packages.js";
import { startProgramDeadline } from "./program-deadline.js";
import { formatProgramOutput } from "./program-output.js";
import { findProgramLine, toProgramScript } from "./program-script.js";
import type { GuestError, WorkerAnswer, WorkerEnd, WorkerMessage, WorkerNews } from "./protocol.js";
import type {
  NestedCallAnswer,
  NestedCallRequest,
  ProgramFailureCode,
  ProgramLimits,
  ProgramOutcome,
  ProgramRequest,
  ProgramRun,
} from "./types.js";
import {
  acquireEngineWorker,
  discardEngineWorker,
  type EngineWorker,
  releaseEngineWorker,
  warmEngineWorker,
} from "./worker-pool.js";

/** How long a worker has to report a stopped program before it is terminated and replaced. */
const STOP_GRACE_MS = 1000;

let nextProgramId = 1;

/**
 * Runs a program (docs/code-mode.md) in a fresh QuickJS-NG context on a worker thread and resolves how it ended; the
 * outcome never rejects for anything the program does. Throws `MissingPeerDependencyError` (code
 * `missing-peer-dependency`) when the engine's optional peers are not installed.
 */
export function runProgram(request: ProgramRequest): ProgramRun {
  assertEngineInstalled();
  const { limits, signal } = request;
  const id = nextProgramId++;
  const seen = { logs: [] as string[], droppedLogChars: 0, now: [] as number[], random: [] as number[] };
  let settled = false;
  /** Set once time ran out or the signal fired: the program ends so, whatever the worker says last. */
  let stopped: { code: "code-timeout" | "aborted"; headline: string } | undefined;
  let worker: EngineWorker | undefined;
  let grace: NodeJS.Timeout | undefined;
  let resolveOutcome!: (outcome: ProgramOutcome) => void;
  let rejectOutcome!: (error: unknown) => void;
  const outcome = new Promise<ProgramOutcome>((resolve, reject) => {
    resolveOutcome = resolve;
    rejectOutcome = reject;
  });

  const settle = (ending: ProgramOutcome) => {
    if (settled) return;
    settled = true;
    clearTimeout(grace);
    deadline.stop();
    signal?.removeEventListener("abort", onAbort);
    resolveOutcome(ending);
  };
  const fail = (code: ProgramFailureCode, headline: string, line?: number) => {
    const leftOut = { logChars: seen.droppedLogChars, valueChars: 0 };
    const logs = formatProgramOutput(seen.logs, "", leftOut, limits.maxOutputChars);
    const message = logs === "" ? headline : `${headline}\n${logs}`;
    const clock = { now: [...seen.now], random: [...seen.random] };
    settle({ kind: "failed", code, message, ...(line === undefined ? {} : { line }), clock });
  };
  /** Time ran out or the signal fired: the worker stops the program and reports its last console lines, or is replaced. */
  const stopFromOutside = (code: "code-timeout" | "aborted", headline: string) => {
    if (settled || stopped !== undefined) return;
    stopped = { code, headline };
    if (worker === undefined) return fail(code, headline);
    const stopping = worker;
    stopping.stop();
    stopping.post({ kind: "cancel", id });
    grace = setTimeout(() => {
      discardEngineWorker(stopping);
      fail(code, headline);
    }, STOP_GRACE_MS);
  };
  const onAbort = () => stopFromOutside("aborted", "The program was aborted.");
  const deadline = startProgramDeadline(limits.timeoutMs, () =>
    stopFromOutside("code-timeout", `The program ran past its time limit of ${limits.timeoutMs} ms.`),
  );
  // The clock starts when a worker takes the program, not while one starts.
  const untilStarted = deadline.hold();

  const pendingAnswers: WorkerAnswer[] = [];
  const answer = (seq: number, reply: NestedCallAnswer) => {
    if (settled || stopped !== undefined || worker === undefined) return;
    pendingAnswers.push({ seq, answer: answerText(reply) });
    // Answers that arrive in the same turn of the host's loop cross to the worker in one message.
    if (pendingAnswers.length === 1) {
      queueMicrotask(() => {
        const answers = pendingAnswers.splice(0);
        if (!settled && stopped === undefined) worker?.post({ kind: "answers", id, answers });
      });
    }
  };
  const record = (news: WorkerNews) => {
    seen.logs.push(...news.logs);
    seen.droppedLogChars += news.droppedLogChars;
    // Not push(...values): a program may read the clock a million times between two messages (a stack overflow).
    for (const value of news.now) seen.now.push(value);
    for (const value of news.random) seen.random.push(value);
  };
  const callTools = (calls: WorkerNews["calls"]) => {
    if (calls.length === 0 || settled || stopped !== undefined) return;
    const requests: NestedCallRequest[] = calls.map((call) => ({
      seq: call.seq,
      tool: call.tool,
      input: JSON.parse(call.input) as JsonValue,
    }));
    for (const [index, reply] of askCaller(request, requests).entries()) {
      reply.then((answered) => answer(requests[index]!.seq, answered));
    }
  };
  const onMessage = (message: WorkerMessage) => {
    if (message.kind === "ready" || message.id !== id || settled) return;
    record(message);
    // Calls still in a `done` message were left behind by a program that ended: nobody would see their answers.
    if (message.kind === "progress") return callTools(message.calls);
    const used = worker!;
    if (message.replace) discardEngineWorker(used);
    else releaseEngineWorker(used);
    if (stopped !== undefined) return fail(stopped.code, stopped.headline);
    const ending = describeEnd(message.end, message.memoryExceeded, limits);
    if (ending.kind === "failed") return fail(ending.code, ending.headline, ending.line);
    const leftOut = { logChars: seen.droppedLogChars, valueChars: ending.cutChars };
    const output = formatProgramOutput(seen.logs, ending.text, leftOut, limits.maxOutputChars);
    settle({ kind: "returned", output, clock: { now: [...seen.now], random: [...seen.random] } });
  };
  const onWorkerFailure = (error: Error) => {
    if (stopped !== undefined) return fail(stopped.code, stopped.headline);
    if (/out of memory|OOM|Cannot enlarge memory/i.test(error.message)) {
      return fail("code-memory-exceeded", memoryHeadline(limits.memoryBytes));
    }
    fail("code-runtime-error", `The program's engine stopped: ${error.message}`);
  };

  if (signal?.aborted) {
    onAbort();
  } else {
    signal?.addEventListener("abort", onAbort, { once: true });
    acquireEngineWorker(limits.memoryBytes).then(
      (acquired) => {
        if (settled) return releaseEngineWorker(acquired);
        worker = acquired;
        acquired.listen(onMessage, onWorkerFailure);
        acquired.clearStop();
        acquired.post({
          kind: "run",
          id,
          script: toProgramScript(request.code),
          maxToolCalls: limits.maxToolCalls,
          maxOutputChars: limits.maxOutputChars,
          replay: { now: [...(request.replay?.now ?? [])], random: [...(request.replay?.random ?? [])] },
        });
        untilStarted();
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        deadline.stop();
        signal?.removeEventListener("abort", onAbort);
        rejectOutcome(asMissingPeer(error));
      },
    );
  }
  return {
    outcome,
    holdClock: () => deadline.hold(),
    clock: () => ({ now: [...seen.now], random: [...seen.random] }),
  };
}

/**
 * Starts an engine worker ahead of the first program (idle, so it never keeps the process alive), so that program
 * skips the engine's start. Rejects with `MissingPeerDependencyError` when the engine is not installed.
 */
export async function warmUpEngine(options: { memoryBytes?: number } = {}): Promise<void> {
  assertEngineInstalled();
  await warmEngineWorker(options.memoryBytes ?? 64 * 1024 * 1024).catch((error: unknown) => {
    throw asMissingPeer(error);
  });
}

/** The caller's answers, one per request; a throw or a rejection (a broken contract) becomes an error answer. */
function askCaller(request: ProgramRequest, requests: readonly NestedCallRequest[]): Promise<NestedCallAnswer>[] {
  let replies: readonly Promise<NestedCallAnswer>[];
  try {
    replies = request.callTools(requests);
  } catch (error) {
    return requests.map(() => Promise.resolve(callerFailed(error)));
  }
  return requests.map((_, index) =>
    Promise.resolve(replies[index]).then(
      (reply) => reply ?? callerFailed(new Error("no answer")),
      (error: unknown) => callerFailed(error),
    ),
  );
}

function callerFailed(error: unknown): NestedCallAnswer {
  const reason = error instanceof Error ? error.message : String(error);
  return { ok: false, code: "execution-failed", message: `The call failed: ${reason}` };
}

/** An answer as the JSON text the program parses; an answer that is not JSON becomes an `invalid-result` error. */
function answerText(reply: NestedCallAnswer): string {
  try {
    const text = JSON.stringify(reply.ok ? { ok: true, value: reply.value } : reply);
    if (typeof text === "string") return text;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return JSON.stringify({ ok: false, code: "invalid-result", message: `The tool's result is not JSON: ${reason}` });
  }
  return JSON.stringify({ ok: false, code: "invalid-result", message: "The tool's answer is not JSON." });
}

type DescribedEnd =
  | { readonly kind: "returned"; readonly text: string; readonly cutChars: number }
  | { readonly kind: "failed"; readonly code: ProgramFailureCode; readonly headline: string; readonly line?: number };

/** How the worker's end reads as an outcome: a code and a headline for a person and a model. */
function describeEnd(end: WorkerEnd, memoryExceeded: boolean, limits: ProgramLimits): DescribedEnd {
  switch (end.kind) {
    case "returned":
      return end;
    case "syntax-error":
      return failed("code-syntax-error", errorHeadline(end.error), findProgramLine(end.error.stack));
    case "unsupported-typescript":
      return failed(
        "code-syntax-error",
        `${end.message}: only TypeScript's type annotations are stripped; write this part in plain JavaScript` +
          (end.line === undefined ? "." : ` (line ${end.line}).`),
        end.line,
      );
    case "threw":
      if (memoryExceeded || isOutOfMemory(end.error))
        return failed("code-memory-exceeded", memoryHeadline(limits.memoryBytes));
      return failed("code-runtime-error", `Uncaught ${errorHeadline(end.error)}`, findProgramLine(end.error.stack));
    case "too-many-calls":
      return failed(
        "code-too-many-calls",
        `The program made more than ${limits.maxToolCalls} tool calls, the limit for one program.`,
      );
    case "stopped":
      return failed("code-timeout", `The program ran past its time limit of ${limits.timeoutMs} ms.`);
    case "stuck":
      return failed(
        "code-runtime-error",
        "The program waits on a promise that nothing can settle (no tool call is pending): await only tool calls and promises made from them.",
      );
    case "engine-failed":
      if (memoryExceeded) return failed("code-memory-exceeded", memoryHeadline(limits.memoryBytes));
      return failed("code-runtime-error", `The program's engine failed: ${end.message}`);
  }
}

function failed(code: ProgramFailureCode, headline: string, line?: number): DescribedEnd {
  return { kind: "failed", code, headline: line === undefined ? headline : `${headline} (line ${line})`, line };
}

function errorHeadline(error: GuestError): string {
  const name = error.name === undefined || error.name === "" ? "" : `${error.name}: `;
  const code = error.code === undefined ? "" : ` (code ${error.code})`;
  return `${name}${error.message ?? "(no message)"}${code}`;
}

function isOutOfMemory(error: GuestError): boolean {
  return error.name === "InternalError" && error.message === "out of memory";
}

function memoryHeadline(memoryBytes: number): string {
  return `The program ran out of memory (its limit is ${Math.round(memoryBytes / (1024 * 1024))} MiB).`;
}

function asMissingPeer(error: unknown): unknown {
  const missing = ENGINE_PACKAGES.filter((name) => isPackageNotFound(error, name));
  return missing.length === 0 ? error : new MissingPeerDependencyError(ENGINE_FEATURE, ENGINE_PACKAGES, missing);
}
