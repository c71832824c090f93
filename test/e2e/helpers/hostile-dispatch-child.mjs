// A child process that drives hostile executors, hooks and inputs through dispatch, dispatchAll and serveMcp.
// It installs no unhandledRejection handler on purpose: one unhandled rejection ends it with a nonzero code.
// argv: <dist folder> <seed> <runs>. Prints one JSON line of figures (the loop's delays and how long it was blocked)
// and exits 0 when every check held.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import fc from "fast-check";

const [dist, seedText, runsText] = process.argv.slice(2);
const toolwire = await import(pathToFileURL(`${dist}/index.js`).href);
const { serveMcp } = await import(pathToFileURL(`${dist}/mcp/index.js`).href);
const { createAgentSession, createToolRegistry, defineTool } = toolwire;

function revoked(target = {}) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return proxy;
}
function cyclic() {
  const value = { content: [{ type: "text", text: "ok" }], details: {} };
  value.details.self = value.details;
  return value;
}
function throwingGetter(key, base = {}) {
  return Object.defineProperty(base, key, {
    enumerable: true,
    get() {
      throw new Error(`getter ${key}`);
    },
  });
}
function deepArray(levels) {
  let value = [];
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}
const never = () => new Promise(() => {});
const later = (ms, value) => new Promise((resolve) => setTimeout(() => resolve(value), ms));
const laterReject = (ms, value) => new Promise((_, reject) => setTimeout(() => reject(value), ms));

/** What an executor does, by name: return, throw or hang in every hostile way. */
const behaviours = {
  text: () => "fine",
  result: () => ({ content: [{ type: "text", text: "fine" }], details: { n: 1 } }),
  asyncText: () => later(1, "fine"),
  contentGetterThrows: () => throwingGetter("content"),
  revokedProxy: () => revoked({ content: [] }),
  revokedProxyAsync: async () => revoked({ content: [] }),
  cyclicDetails: () => cyclic(),
  bigintDetails: () => ({ content: [{ type: "text", text: "ok" }], details: { n: 1n } }),
  symbol: () => Symbol("s"),
  functionAsText: () => ({ content: [{ type: "text", text: () => "x" }] }),
  deepDetails: () => ({ content: [], details: deepArray(10_000) }),
  thenGetterThrows: () => throwingGetter("then"),
  throwsRevoked: () => {
    throw revoked(new Error("x"));
  },
  throwsGetterMessage: () => {
    throw throwingGetter("message", new Error("x"));
  },
  rejectsLater: () => laterReject(2, throwingGetter("message", new Error("x"))),
  hangs: () => never(),
  hangsIgnoringAbort: () => never(),
  hangsWithThrowingAbortListener: (_input, context) => {
    context.signal.addEventListener("abort", () => {
      throw revoked(new Error("listener"));
    });
    context.signal.onabort = () => {
      throw new Error("onabort");
    };
    return never();
  },
  resolvesAfterTimeout: () => later(400, "late"),
  updatesHostile: (_input, context) => {
    context.onUpdate(throwingGetter("content"));
    context.onUpdate(revoked());
    return "fine";
  },
};
const behaviourNames = Object.keys(behaviours);

/** What a before hook does. */
const befores = {
  none: () => undefined,
  block: () => ({ block: true, reason: "no" }),
  throws: () => {
    throw revoked(new Error("x"));
  },
  revoked: () => revoked(),
  thenThrows: () => throwingGetter("then"),
  rejects: () => laterReject(1, revoked()),
  hangs: () => never(),
  cyclicInput: () => {
    const input = {};
    input.self = input;
    return { input };
  },
  rewrite: () => ({ input: { text: "rewritten" } }),
  getterInput: () => ({ input: throwingGetter("text") }),
};
/** What an after hook does. */
const afters = {
  none: () => undefined,
  cyclicDetails: () => cyclic(),
  contentGetter: () => throwingGetter("content"),
  patch: () => ({ content: [{ type: "text", text: "patched" }] }),
  throws: () => {
    throw throwingGetter("message", new Error("x"));
  },
  hangs: () => never(),
  revoked: () => revoked(),
};

/** Inputs a model (or a caller) may send. */
const inputs = {
  valid: () => ({ text: "hello" }),
  jsonText: () => '{"text":"hello"}',
  malformedJson: () => '{"text":',
  deepJson: () => `{"text":"x","d":${"[".repeat(50_000)}${"]".repeat(50_000)}}`,
  revoked: () => revoked(),
  getter: () => throwingGetter("text"),
  cyclic: () => {
    const input = { text: "x" };
    input.self = input;
    return input;
  },
  notObject: () => 42,
  nullish: () => null,
  bigint: () => ({ text: 1n }),
};

const toolNames = [...behaviourNames, "missing", "m".repeat(100_000)];

function buildRegistry() {
  return createToolRegistry({
    custom: behaviourNames.map((name, index) =>
      defineTool({
        name,
        description: `behaves: ${name}`,
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
        executionMode: index % 4 === 0 ? "sequential" : "parallel",
        execute: behaviours[name],
      }),
    ),
  });
}

const sizeOf = (value) => {
  try {
    return JSON.stringify(value).length;
  } catch {
    return -1;
  }
};

function checkResult(result, expectedId, where) {
  if (result === null || typeof result !== "object" || result.type !== "tool_result") {
    throw new Error(`${where}: not a tool_result: ${String(result)}`);
  }
  if (result.tool_use_id !== expectedId) throw new Error(`${where}: id ${result.tool_use_id} for ${expectedId}`);
  if (!Array.isArray(result.content)) throw new Error(`${where}: no content array`);
  if (sizeOf(result) < 0) throw new Error(`${where}: result cannot be encoded`);
  for (const block of result.content) {
    if (block.type === "text" && block.text.length > 200_000) throw new Error(`${where}: unbounded text`);
  }
}

const call = fc.record({
  tool: fc.constantFrom(...toolNames),
  input: fc.constantFrom(...Object.keys(inputs)),
});
const scenario = fc.record({
  calls: fc.array(call, { minLength: 1, maxLength: 8 }),
  before: fc.constantFrom(...Object.keys(befores)),
  after: fc.constantFrom(...Object.keys(afters)),
  execution: fc.constantFrom("parallel", "sequential"),
  single: fc.boolean(),
  signal: fc.constantFrom("none", "preAborted", "abortSoon"),
  timeout: fc.constantFrom(30, 80, undefined),
});

/**
 * The longest stretch the event loop was held by this process's own work. A 10 ms ticker notes the wall
 * time and this process's CPU time between its ticks: a tick that came late while the process used
 * little CPU was held up by other processes on the machine (a busy CI runner), not by a blocked loop,
 * so a stretch counts as blocked only as far as the CPU time spent in it.
 */
function createBlockMeter() {
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  let longest = 0;
  const ticker = setInterval(() => {
    const wall = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const blocked = Math.min(wall - lastWall, (cpu.user + cpu.system) / 1000) - 10;
    if (blocked > longest) longest = blocked;
    lastWall = wall;
    lastCpu = process.cpuUsage();
  }, 10);
  return {
    take() {
      const value = longest;
      longest = 0;
      return value;
    },
    stop: () => clearInterval(ticker),
  };
}

const registry = buildRegistry();
// Warm up first (module loading, compiling the schema's validator, the first JIT): that is not a hostile input's doing.
const warm = createAgentSession({ registry, toolTimeoutMs: 30 });
await warm.dispatchAll(behaviourNames.map((name, index) => ({ id: `w${index}`, name, input: { text: "warm" } })));
await fc.assert(
  fc.asyncProperty(scenario, async () => {}),
  { numRuns: 5 },
);

const delay = monitorEventLoopDelay({ resolution: 10 });
const meter = createBlockMeter();
let calls = 0;
const heapBefore = process.memoryUsage().heapUsed;
delay.enable();

await fc.assert(
  fc.asyncProperty(scenario, async (s) => {
    const session = createAgentSession({
      registry,
      toolExecution: s.execution,
      hookTimeoutMs: 40,
      ...(s.timeout === undefined ? {} : { toolTimeoutMs: s.timeout }),
      beforeToolCall: [befores[s.before]],
      afterToolCall: [afters[s.after]],
    });
    // Without a session timeout the 5-minute default applies: a hung executor then needs the signal to end.
    const controller = new AbortController();
    if (s.signal === "preAborted") controller.abort(revoked());
    const hasHang = s.calls.some((c) => c.tool.startsWith("hangs"));
    const timer =
      s.signal === "abortSoon" || (s.timeout === undefined && hasHang)
        ? setTimeout(() => controller.abort(), 20)
        : undefined;
    const uses = s.calls.map((c, index) => ({ id: `c${index}`, name: c.tool, input: inputs[c.input]() }));
    try {
      if (s.single) {
        for (const use of uses)
          checkResult(await session.dispatch(use, { signal: controller.signal }), use.id, "dispatch");
      } else {
        const results = await session.dispatchAll(uses, { signal: controller.signal });
        if (results.length !== uses.length)
          throw new Error(`dispatchAll: ${results.length} results for ${uses.length}`);
        results.forEach((result, index) => {
          checkResult(result, `c${index}`, "dispatchAll");
        });
      }
    } finally {
      clearTimeout(timer);
      session.close();
    }
    calls += uses.length;
  }),
  { seed: Number(seedText), numRuns: Number(runsText), endOnFailure: true },
);

const dispatchDelayMs = delay.max / 1e6;
const dispatchBlockedMs = meter.take();
delay.reset();

// The same hostile tools behind serveMcp, called by the official client over Streamable HTTP on loopback.
const served = createAgentSession({ registry, toolTimeoutMs: 50, hookTimeoutMs: 40 });
const server = await serveMcp(served, { transport: "http", host: "127.0.0.1", port: 0 });
const client = new Client({ name: "hostile", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
const names = [...behaviourNames, "missing"];
const answers = await Promise.all(
  [...names, ...names].map((name) => client.callTool({ name, arguments: { text: "hi" } })),
);
const fine = new Set(["text", "result", "asyncText", "updatesHostile"]);
answers.forEach((answer, index) => {
  const name = names[index % names.length];
  if ((answer.isError === true) === fine.has(name))
    throw new Error(`serveMcp: ${name} answered ${JSON.stringify(answer)}`);
});
await client.close();
await server.close();
calls += answers.length;
delay.disable();
const serveBlockedMs = meter.take();
meter.stop();

globalThis.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
process.stdout.write(
  `${JSON.stringify({ calls, dispatchDelayMs, dispatchBlockedMs, serveDelayMs: delay.max / 1e6, serveBlockedMs, heapBeforeMb: heapBefore / 2 ** 20, heapAfterMb: heapAfter / 2 ** 20 })}\n`,
);
