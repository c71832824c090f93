// @ts-check
// Code mode's worker thread: each program runs in a fresh QuickJS-NG context on a capped wasm memory, and only strings
// cross to the host. Plain JavaScript (type-checked) so that Node runs this same file from src/ and from dist/.
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import engineVariant from "@jitl/quickjs-ng-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";

/** @typedef {import("./protocol.js").HostMessage} HostMessage */
/** @typedef {import("./protocol.js").WorkerMessage} WorkerMessage */
/** @typedef {import("./protocol.js").WorkerEnd} WorkerEnd */
/** @typedef {import("./protocol.js").WorkerSetup} WorkerSetup */
/** @typedef {import("quickjs-emscripten-core").QuickJSContext} QuickJSContext */
/** @typedef {import("quickjs-emscripten-core").QuickJSRuntime} QuickJSRuntime */
/** @typedef {import("quickjs-emscripten-core").QuickJSHandle} QuickJSHandle */
/** @typedef {import("quickjs-emscripten-core").QuickJSDeferredPromise} QuickJSDeferredPromise */

const PAGE_BYTES = 65536;
/** What the engine itself takes besides a program's memory: its static data, stack and a fresh context. */
const BASELINE_BYTES = 16 * 1024 * 1024;
/** QuickJS's own stack limit, well inside the worker thread's native stack, so deep recursion is a RangeError. */
const STACK_BYTES = 256 * 1024;
const PROGRAM_FILE = "program.js";
/**
 * The most JSON characters one call's input may have, and the calls of one message together: the host parses them on
 * its own thread, and a few MiB of JSON there would hold its event loop past 50 ms.
 */
const MOST_INPUT_CHARS = 1024 * 1024;
/** The longest tool name a call may give (MCP allows 128): a name travels to the host and back in error messages. */
const LONGEST_TOOL_NAME = 256;
/** The most characters of an error's stack sent to the host (only its first program frame is read). */
const MOST_STACK_CHARS = 4000;

if (parentPort === null) throw new Error("program-worker.js runs as a worker thread");
const port = parentPort;
const setup = /** @type {WorkerSetup} */ (workerData);
const stop = new Int32Array(setup.stop);
const maximumPages = Math.min(65536, Math.ceil((setup.memoryBytes + BASELINE_BYTES) / PAGE_BYTES));
// Node's types leave out the WebAssembly global, and the variant's types describe its CommonJS face.
const { WebAssembly: wasm } = /** @type {any} */ (globalThis);
const wasmMemory = new wasm.Memory({ initial: Math.min(256, maximumPages), maximum: maximumPages });
/** Whether the engine asked to grow past the cap during the running program: the sure sign it ran out of memory. */
let growthRefused = false;
const grow = wasmMemory.grow.bind(wasmMemory);
wasmMemory.grow = (/** @type {number} */ pages) => {
  try {
    return grow(pages);
  } catch (error) {
    growthRefused = true;
    throw error;
  }
};
/** @type {import("@jitl/quickjs-ffi-types").QuickJSSyncVariant} */
const syncVariant = /** @type {any} */ (engineVariant);
// Compiled here, synchronously: left to Emscripten, the compile is asynchronous and its tiering then stalls this thread
// for 170-250 ms just after the warm-up, which the first program waited out (measured on Node 20, 2 cores).
const wasmModule = new wasm.Module(
  readFileSync(new URL(import.meta.resolve("@jitl/quickjs-ng-wasmfile-release-sync/wasm"))),
);
const engine = await newQuickJSWASMModuleFromVariant(newVariant(syncVariant, { wasmMemory, wasmModule }));

/** The guest side of the bridge, run first in every context: `tools`, `console`, the recorded clock. */
const PRELUDE = `(() => {
  "use strict";
  const host = globalThis.__toolwire;
  delete globalThis.__toolwire;
  delete globalThis.performance;
  const { call, log, now, random } = host;
  const stringify = JSON.stringify, parse = JSON.parse, toText = (value) => {
    try {
      if (typeof value === "string") return value;
      if (value instanceof Error) return value.name + ": " + value.message;
      if (typeof value === "object" && value !== null) {
        const json = stringify(value);
        if (json !== undefined) return json;
      }
      return String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  };
  const settle = (text) => {
    const answer = parse(text);
    if (answer.ok) return answer.value;
    const error = new Error(answer.message);
    error.code = answer.code;
    throw error;
  };
  const callTool = (name, input) => {
    if (name.length > ${LONGEST_TOOL_NAME}) throw new TypeError("no tool has a name longer than ${LONGEST_TOOL_NAME} characters");
    const json = stringify(input === undefined ? {} : input);
    if (typeof json !== "string") throw new TypeError("tools." + name + " takes one JSON value as its input");
    if (json.length > ${MOST_INPUT_CHARS}) {
      throw new RangeError("tools." + name + ": the input is " + json.length + " characters as JSON; one call takes at most ${MOST_INPUT_CHARS}");
    }
    return call(name, json).then(settle);
  };
  // "then" stays undefined so that awaiting \`tools\` itself calls nothing; "toJSON" so that printing it calls nothing.
  const tools = new Proxy({}, {
    get: (_, name) => typeof name === "string" && name !== "then" && name !== "toJSON" ? (input) => callTool(name, input) : undefined,
  });
  // Strings cross as JSON text: a lone surrogate survives the trip through UTF-8.
  const write = (...values) => { log(stringify(values.map(toText).join(" "))); };
  const console = { log: write, info: write, warn: write, error: write, debug: write };
  const OriginalDate = Date;
  function RecordedDate(...values) {
    if (new.target === undefined) return new OriginalDate(now()).toString();
    return Reflect.construct(OriginalDate, values.length === 0 ? [now()] : values, new.target);
  }
  RecordedDate.prototype = OriginalDate.prototype;
  Object.defineProperties(RecordedDate, {
    name: { value: "Date" }, length: { value: 7 },
    now: { value: () => now(), writable: true, configurable: true },
    parse: { value: OriginalDate.parse, writable: true, configurable: true },
    UTC: { value: OriginalDate.UTC, writable: true, configurable: true },
  });
  Object.defineProperty(OriginalDate.prototype, "constructor", { value: RecordedDate, writable: true, configurable: true });
  Object.defineProperty(Math, "random", { value: () => random(), writable: true, configurable: true });
  for (const [name, value] of [["tools", tools], ["console", console], ["Date", RecordedDate]]) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  }
  const render = (value) => {
    if (typeof value === "string") return "s" + stringify(value);
    const json = value === undefined ? undefined : stringify(value);
    return json === undefined ? "u" : "j" + json;
  };
  const describe = (error) => {
    const read = (get) => {
      try {
        const value = get();
        return value === undefined || value === null ? undefined : String(value);
      } catch {
        return undefined;
      }
    };
    if ((typeof error !== "object" && typeof error !== "function") || error === null) return stringify({ message: read(() => error) });
    return stringify({
      name: read(() => error.name), message: read(() => error.message), stack: read(() => error.stack),
      code: read(() => (typeof error.code === "string" ? error.code : undefined)),
    });
  };
  return [render, describe];
})()`;

/**
 * @typedef {object} Program
 * @property {number} id
 * @property {QuickJSRuntime} runtime
 * @property {QuickJSContext} context
 * @property {Map<number, QuickJSDeferredPromise>} deferreds nested calls not answered yet, by seq
 * @property {QuickJSDeferredPromise[]} refused calls over the limit: never answered, disposed at the end
 * @property {QuickJSHandle | undefined} promise the program's own promise
 * @property {QuickJSHandle | undefined} render
 * @property {QuickJSHandle | undefined} describe
 * @property {number} calls
 * @property {number} maxToolCalls
 * @property {number} logChars
 * @property {number} maxOutputChars
 * @property {{ now: readonly number[], random: readonly number[] }} replay
 * @property {number} nowRead
 * @property {number} randomRead
 * @property {WorkerEnd | undefined} ending set when the program must end whatever it does next
 * @property {News} news
 * @property {number} newsInputChars the JSON characters of the inputs in `news.calls`
 */

/**
 * @typedef {object} News what the host has not been told yet (protocol.ts WorkerNews)
 * @property {{ seq: number, tool: string, input: string }[]} calls
 * @property {string[]} logs
 * @property {number} droppedLogChars
 * @property {number[]} now
 * @property {number[]} random
 */

/** @type {Program | undefined} */
let current;

/** @returns {News} */
function freshNews() {
  return { calls: [], logs: [], droppedLogChars: 0, now: [], random: [] };
}

/** Set while the worker runs its own warm-up program, whose messages are not for the host. */
let warmingUp = true;

/** @param {WorkerMessage} message */
function post(message) {
  if (!warmingUp) port.postMessage(message);
}

/**
 * The stop flag is the host's: it lowers it before it sends `run` (lowering it here could undo a stop the host raised
 * before this message arrived).
 * @param {Extract<HostMessage, { kind: "run" }>} message
 */
function startProgram(message) {
  growthRefused = false;
  const runtime = engine.newRuntime();
  // No runtime.setMemoryLimit: the wasm memory's cap is the one limit, so running out always shows as a full memory
  // (a program that catches the error and then fails otherwise still ends as out of memory).
  runtime.setMaxStackSize(STACK_BYTES);
  const context = runtime.newContext();
  /** @type {Program} */
  const program = {
    id: message.id,
    runtime,
    context,
    deferreds: new Map(),
    refused: [],
    promise: undefined,
    render: undefined,
    describe: undefined,
    calls: 0,
    maxToolCalls: message.maxToolCalls,
    logChars: 0,
    maxOutputChars: message.maxOutputChars,
    replay: message.replay,
    nowRead: 0,
    randomRead: 0,
    ending: undefined,
    news: freshNews(),
    newsInputChars: 0,
  };
  current = program;
  runtime.setInterruptHandler(() => program.ending !== undefined || Atomics.load(stop, 0) !== 0);
  try {
    installPrelude(program);
    const error = evaluate(program, message.script);
    if (error === undefined) return drive(program);
    if (error.name !== "SyntaxError") return finish(program, endOfThrow(program, error));
    if (transformSync !== undefined) return startStripped(program, message.script, error);
    loadStripper().then(
      () => {
        if (current === program) startStripped(program, message.script, error);
      },
      (failure) => {
        if (current === program) finish(program, endOfFault(program, failure));
      },
    );
  } catch (error) {
    finish(program, endOfFault(program, error));
  }
}

/** @param {Program} program */
function installPrelude(program) {
  const { context } = program;
  const host = context.newObject();
  const functions = {
    call: context.newFunction("call", (name, input) =>
      issueCall(program, context.getString(name), context.getString(input)),
    ),
    log: context.newFunction("log", (line) => {
      writeLog(program, JSON.parse(context.getString(line)));
    }),
    now: context.newFunction("now", () => context.newNumber(readClock(program, "now"))),
    random: context.newFunction("random", () => context.newNumber(readClock(program, "random"))),
  };
  for (const [name, handle] of Object.entries(functions)) {
    context.setProp(host, name, handle);
    handle.dispose();
  }
  context.setProp(context.global, "__toolwire", host);
  host.dispose();
  const pair = context.unwrapResult(context.evalCode(PRELUDE, "toolwire-prelude.js"));
  program.render = context.getProp(pair, 0);
  program.describe = context.getProp(pair, 1);
  pair.dispose();
}

/**
 * Evaluates the script, which starts the program's async function. Returns the error if it could not start (a
 * SyntaxError, or the host's stop).
 * @param {Program} program
 * @param {string} script
 * @returns {import("./protocol.js").GuestError | undefined}
 */
function evaluate(program, script) {
  reserve(program, script.length * 3 + 1);
  const result = program.context.evalCode(script, PROGRAM_FILE);
  if (result.error === undefined) {
    program.promise = result.value;
    return undefined;
  }
  const error = describeError(program, result.error);
  result.error.dispose();
  return error;
}

/**
 * The program was no JavaScript: runs it again with TypeScript's annotations stripped (positions kept), or reports
 * JavaScript's syntax error when it is no TypeScript either.
 * @param {Program} program
 * @param {string} script
 * @param {import("./protocol.js").GuestError} javaScriptError
 */
function startStripped(program, script, javaScriptError) {
  try {
    const stripped = stripTypes(script);
    if (stripped.kind === "unsupported") return finish(program, stripped.end);
    if (stripped.kind === "not-typescript") return finish(program, { kind: "syntax-error", error: javaScriptError });
    const error = evaluate(program, stripped.code);
    if (error === undefined) return drive(program);
    finish(program, error.name === "SyntaxError" ? { kind: "syntax-error", error } : endOfThrow(program, error));
  } catch (error) {
    finish(program, endOfFault(program, error));
  }
}

/** swc's `transformSync`, loaded the first time a program needs it: plain JavaScript programs never load it. */
/** @type {((code: string, options: { mode: "strip-only" }) => { code: string }) | undefined} */
let transformSync;

async function loadStripper() {
  const loaded = await import("@swc/wasm-typescript");
  transformSync = loaded.transformSync ?? /** @type {any} */ (loaded).default.transformSync;
}

/**
 * @param {string} script
 * @returns {{ kind: "stripped", code: string } | { kind: "not-typescript" } | { kind: "unsupported", end: WorkerEnd }}
 */
function stripTypes(script) {
  try {
    const strip = /** @type {NonNullable<typeof transformSync>} */ (transformSync);
    return { kind: "stripped", code: strip(script, { mode: "strip-only" }).code };
  } catch (error) {
    const failure = /** @type {{ code?: unknown, message?: unknown, startLine?: unknown }} */ (error);
    if (failure?.code !== "UnsupportedSyntax") return { kind: "not-typescript" };
    const line = typeof failure.startLine === "number" ? failure.startLine : undefined;
    return { kind: "unsupported", end: { kind: "unsupported-typescript", message: String(failure.message), line } };
  }
}

/**
 * The host side of `tools.<name>(input)`: a guest promise, answered when the host's answer arrives.
 * @param {Program} program
 * @param {string} tool
 * @param {string} input
 */
function issueCall(program, tool, input) {
  const deferred = program.context.newPromise();
  program.calls += 1;
  if (program.calls > program.maxToolCalls) {
    program.ending ??= { kind: "too-many-calls" };
    program.refused.push(deferred);
    return deferred.handle;
  }
  program.deferreds.set(program.calls, deferred);
  program.news.calls.push({ seq: program.calls, tool, input });
  program.newsInputChars += input.length;
  // Many large inputs in one flush go out in more than one message, so the host never parses too much at once.
  if (program.newsInputChars > MOST_INPUT_CHARS) sendNews(program, "progress");
  return deferred.handle;
}

/**
 * @param {Program} program
 * @param {string} line
 */
function writeLog(program, line) {
  const room = program.maxOutputChars - program.logChars;
  const cost = line.length + 1;
  if (room >= cost) {
    program.news.logs.push(line);
    program.logChars += cost;
  } else {
    program.news.droppedLogChars += cost;
    program.logChars = program.maxOutputChars;
  }
}

/**
 * `Date.now()` and `Math.random()`: the replayed values first, then live ones; every value read is recorded.
 * @param {Program} program
 * @param {"now" | "random"} which
 */
function readClock(program, which) {
  const read = which === "now" ? program.nowRead++ : program.randomRead++;
  const value = program.replay[which][read] ?? (which === "now" ? Date.now() : Math.random());
  program.news[which].push(value);
  return value;
}

/**
 * Runs the program's queued jobs, then ends it if it settled (or can never settle), else tells the host what it asked.
 * @param {Program} program
 */
function drive(program) {
  const jobs = program.runtime.executePendingJobs();
  if (jobs.error !== undefined) {
    const error = describeError(program, jobs.error);
    jobs.error.dispose();
    return finish(program, endOfThrow(program, error));
  }
  if (program.ending !== undefined) return finish(program, program.ending);
  const promise = /** @type {QuickJSHandle} */ (program.promise);
  const state = program.context.getPromiseState(promise);
  if (state.type === "fulfilled") {
    const rendered = program.context.callFunction(
      /** @type {QuickJSHandle} */ (program.render),
      program.context.undefined,
      state.value,
    );
    // A script that closed the wrapper may end in a value that is no promise: then `value` is the promise handle itself.
    if (state.notAPromise !== true) state.value.dispose();
    if (rendered.error !== undefined) {
      const error = describeError(program, rendered.error);
      rendered.error.dispose();
      const end = endOfThrow(program, error);
      return finish(
        program,
        end.kind === "threw"
          ? {
              kind: "threw",
              error: {
                ...error,
                name: "ReturnValueError",
                message: `the returned value cannot be written as JSON: ${error.name ?? "Error"}: ${error.message ?? ""}`,
                stack: undefined,
              },
            }
          : end,
      );
    }
    const rendering = program.context.getString(rendered.value);
    rendered.value.dispose();
    const text = rendering.startsWith("s")
      ? JSON.parse(rendering.slice(1))
      : rendering.startsWith("j")
        ? rendering.slice(1)
        : "";
    const kept = cutPoint(text, program.maxOutputChars);
    return finish(program, { kind: "returned", text: text.slice(0, kept), cutChars: text.length - kept });
  }
  if (state.type === "rejected") {
    const error = describeError(program, state.error);
    state.error.dispose();
    return finish(program, endOfThrow(program, error));
  }
  if (program.deferreds.size === 0) return finish(program, { kind: "stuck" });
  sendNews(program, "progress");
}

/**
 * A thrown error: the host's stop or the call limit when either interrupted it, else the program's own throw.
 * @param {Program} program
 * @param {import("./protocol.js").GuestError} error
 * @returns {WorkerEnd}
 */
function endOfThrow(program, error) {
  if (program.ending !== undefined) return program.ending;
  if (Atomics.load(stop, 0) !== 0) return { kind: "stopped" };
  return { kind: "threw", error };
}

/**
 * Describes a guest error through the guest's own `describe` (which never throws), as plain data.
 * @param {Program} program
 * @param {QuickJSHandle} handle
 * @returns {import("./protocol.js").GuestError}
 */
function describeError(program, handle) {
  const { context } = program;
  if (program.describe === undefined) return { message: "the engine failed before the program started" };
  const described = context.callFunction(program.describe, context.undefined, handle);
  if (described.error !== undefined) {
    described.error.dispose();
    return { name: "InternalError", message: "the thrown value could not be read (out of memory or time)" };
  }
  const text = context.getString(described.value);
  described.value.dispose();
  /** @type {import("./protocol.js").GuestError} */
  let error;
  try {
    error = JSON.parse(text);
  } catch {
    error = { message: text };
  }
  const cut = (/** @type {string | undefined} */ field, /** @type {number} */ most) =>
    field === undefined ? undefined : field.slice(0, cutPoint(field, most));
  return {
    name: cut(error.name, 200),
    message: cut(error.message, program.maxOutputChars),
    stack: cut(error.stack, MOST_STACK_CHARS),
    code: cut(error.code, 200),
  };
}

/**
 * Where to cut `text` to at most `most` characters without splitting a surrogate pair (program-output.ts cutPoint).
 * @param {string} text
 * @param {number} most
 */
function cutPoint(text, most) {
  const kept = Math.min(text.length, most);
  const last = text.charCodeAt(kept - 1);
  return kept > 0 && kept < text.length && last >= 0xd800 && last <= 0xdbff ? kept - 1 : kept;
}

/**
 * Makes sure the engine can allocate `bytes` now: quickjs-emscripten does not check its own allocations, and writing
 * through a failed one corrupts the module. A failed probe ends the program as out of memory instead.
 * @param {Program} program
 * @param {number} bytes
 */
function reserve(program, bytes) {
  const module = /** @type {{ _malloc(size: number): number, _free(pointer: number): void }} */ (
    /** @type {any} */ (program.context).module
  );
  const pointer = module._malloc(bytes);
  if (pointer === 0) throw new EngineOutOfMemory();
  module._free(pointer);
}

class EngineOutOfMemory extends Error {
  constructor() {
    super("out of memory");
  }
}

/**
 * A fault on the host side of the engine (the prelude interrupted, an allocation refused): the host's stop or the call
 * limit when either is why, else the fault itself.
 * @param {Program} program
 * @param {unknown} error
 * @returns {WorkerEnd}
 */
function endOfFault(program, error) {
  if (program.ending !== undefined) return program.ending;
  if (Atomics.load(stop, 0) !== 0) return { kind: "stopped" };
  return engineFailed(error);
}

/**
 * @param {unknown} error
 * @returns {WorkerEnd}
 */
function engineFailed(error) {
  if (error instanceof EngineOutOfMemory)
    return { kind: "threw", error: { name: "InternalError", message: "out of memory" } };
  return { kind: "engine-failed", message: error instanceof Error ? error.message : String(error) };
}

/**
 * @param {Program} program
 * @param {"progress"} kind
 */
function sendNews(program, kind) {
  const news = program.news;
  if (news.calls.length + news.logs.length + news.now.length + news.random.length + news.droppedLogChars === 0) return;
  program.news = freshNews();
  program.newsInputChars = 0;
  post({ kind, id: program.id, ...news });
}

/**
 * Ends the program: frees its context and runtime, and reports how it ended with its last news.
 * @param {Program} program
 * @param {WorkerEnd} end
 */
function finish(program, end) {
  if (current !== program) return;
  current = undefined;
  let outcome = end;
  try {
    for (const deferred of [...program.deferreds.values(), ...program.refused]) deferred.dispose();
    for (const handle of [program.promise, program.render, program.describe]) handle?.dispose();
    program.context.dispose();
    program.runtime.dispose();
  } catch (error) {
    // The engine cannot be trusted after this: the host replaces the worker.
    if (outcome.kind === "returned") outcome = engineFailed(error);
    post({ kind: "done", id: program.id, end: outcome, memoryExceeded: growthRefused, replace: true, ...program.news });
    return;
  }
  // Wasm memory never shrinks: a worker whose memory reached its cap is replaced, so the process gives it back.
  const replace = growthRefused || outcome.kind === "engine-failed";
  post({ kind: "done", id: program.id, end: outcome, memoryExceeded: growthRefused, replace, ...program.news });
}

/**
 * @param {Program} program
 * @param {readonly import("./protocol.js").WorkerAnswer[]} answers
 */
function answerCalls(program, answers) {
  const { context } = program;
  try {
    for (const { seq, answer } of answers) {
      const deferred = program.deferreds.get(seq);
      if (deferred === undefined) continue;
      program.deferreds.delete(seq);
      reserve(program, answer.length * 3 + 1);
      const text = context.newString(answer);
      deferred.resolve(text);
      text.dispose();
      deferred.dispose();
    }
    drive(program);
  } catch (error) {
    finish(program, endOfFault(program, error));
  }
}

port.on("message", (/** @type {HostMessage} */ message) => {
  if (message.kind === "run") return startProgram(message);
  const program = current;
  if (program === undefined || program.id !== message.id) return;
  if (message.kind === "answers") return answerCalls(program, message.answers);
  finish(program, { kind: "stopped" });
});

// Warm-up: one program through the whole path, so that the first real program finds the engine's code compiled.
startProgram({
  kind: "run",
  id: 0,
  script: "(async () => { await tools.warm(); return Date.now() > 0; })()",
  maxToolCalls: 1,
  maxOutputChars: 0,
  replay: { now: [], random: [] },
});
const warming = /** @type {Program | undefined} */ (/** @type {unknown} */ (current));
if (warming !== undefined) answerCalls(warming, [{ seq: 1, answer: '{"ok":true,"value":null}' }]);
warmingUp = false;
post({ kind: "ready" });
