import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { deferred, echoTool, sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { AgentTool, ToolExecutionEndEvent, ToolResultBlock } from "../types.js";
import { DEFAULT_TOOL_TIMEOUT_MS } from "./session.js";

/** Values an executor may return that are not results and must never break the host. */
function hostileResults(): Record<string, () => unknown> {
  return {
    "a content getter that throws": () => ({
      get content(): never {
        throw new Error("boom from a getter");
      },
    }),
    "a revoked proxy": () => {
      const { proxy, revoke } = Proxy.revocable({ content: [] }, {});
      revoke();
      return proxy;
    },
    "cyclic details": () => {
      const details: Record<string, unknown> = {};
      details.self = details;
      return { content: [{ type: "text", text: "ok" }], details };
    },
    "BigInt details": () => ({ content: [{ type: "text", text: "ok" }], details: { size: 10n } }),
    "a symbol": () => Symbol("no"),
    "a function as text": () => ({ content: [{ type: "text", text: () => "x" }] }),
    "a block whose getter throws": () => ({
      content: [
        {
          type: "text",
          get text(): never {
            throw new Error("boom");
          },
        },
      ],
    }),
    "an array proxy claiming four billion elements": () => ({
      content: new Proxy([], { get: (target, key) => (key === "length" ? 2 ** 32 - 1 : Reflect.get(target, key)) }),
    }),
  };
}

/** Values an executor may throw. */
function hostileThrows(): Record<string, () => unknown> {
  return {
    "a revoked proxy": () => {
      const { proxy, revoke } = Proxy.revocable(new Error("x"), {});
      revoke();
      return proxy;
    },
    "an error whose message getter throws": () => {
      const error = new Error("x");
      Object.defineProperty(error, "message", {
        get() {
          throw new Error("no message");
        },
      });
      return error;
    },
    "an object whose toString throws": () => ({
      toString() {
        throw new Error("no");
      },
      toJSON() {
        throw new Error("no");
      },
    }),
    "a huge string": () => "x".repeat(1_000_000),
  };
}

/** The ways a call can be run: with and without timeouts and signals, alone and in batches. */
const modes = [
  { name: "dispatch, no timeout, no signal", timeout: Number.POSITIVE_INFINITY, signal: false, batch: "none" },
  { name: "dispatch, a session timeout", timeout: 5_000, signal: false, batch: "none" },
  { name: "dispatch, a signal", timeout: Number.POSITIVE_INFINITY, signal: true, batch: "none" },
  { name: "dispatch, a timeout and a signal", timeout: 5_000, signal: true, batch: "none" },
  { name: "dispatchAll in parallel, a timeout and a signal", timeout: 5_000, signal: true, batch: "parallel" },
  { name: "dispatchAll in sequence, a timeout", timeout: 5_000, signal: false, batch: "sequential" },
] as const;

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  await new Promise((resolve) => setTimeout(resolve, 20)); // let any stray rejection surface
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

function toolReturning(name: string, make: () => unknown, mode: "parallel" | "sequential" = "parallel"): AgentTool {
  return defineTool({
    name,
    description: "returns a hostile value",
    inputSchema: { type: "object" },
    executionMode: mode,
    execute: () => make() as Promise<string>, // returned as is: awaiting it would read `then` inside the test
  });
}

function toolThrowing(name: string, make: () => unknown): AgentTool {
  return defineTool({
    name,
    description: "throws a hostile value",
    inputSchema: { type: "object" },
    execute: async () => {
      throw make();
    },
  });
}

async function run(
  tools: AgentTool[],
  mode: (typeof modes)[number],
  names: string[],
): Promise<{ results: ToolResultBlock[]; ends: ToolExecutionEndEvent[] }> {
  const session = sessionWith([...tools, echoTool()], {
    toolTimeoutMs: mode.timeout,
    toolExecution: mode.batch === "sequential" ? "sequential" : "parallel",
  });
  const ends: ToolExecutionEndEvent[] = [];
  session.on("tool_execution_end", (event) => ends.push(event));
  const signal = mode.signal ? new AbortController().signal : undefined;
  const uses = names.map((name, index) => ({ id: `c${index}`, name, input: { text: "fine" } }));
  if (mode.batch === "none") {
    const results: ToolResultBlock[] = [];
    for (const use of uses) results.push(await session.dispatch(use, { signal }));
    return { results, ends };
  }
  return { results: await session.dispatchAll(uses, { signal }), ends };
}

describe("a hostile result becomes an invalid-result error for that call and nothing else", () => {
  for (const mode of modes) {
    it(`every hostile result, ${mode.name}`, async () => {
      const cases = Object.entries(hostileResults());
      const tools = cases.map(([, make], index) =>
        toolReturning(`bad${index}`, make, index % 3 === 0 ? "sequential" : "parallel"),
      );
      const names = cases.flatMap((_, index) => [`bad${index}`, "echo"]);
      const { results, ends } = await run(tools, mode, names);
      expect(results.map((result) => result.tool_use_id)).toEqual(names.map((_, index) => `c${index}`));
      cases.forEach(([label], index) => {
        const bad = results[index * 2] as ToolResultBlock;
        expect(bad.is_error, label).toBe(true);
        expect(textOf(bad), label).toMatch(/returned an invalid result/);
        expect(textOf(results[index * 2 + 1] as ToolResultBlock)).toBe("fine");
        expect(ends.find((end) => end.toolCallId === `c${index * 2}`)?.errorCode, label).toBe("invalid-result");
      });
      expect(() => JSON.stringify(results)).not.toThrow();
    });
  }

  it("names the bad part of the result", async () => {
    const { results } = await run(
      Object.values(hostileResults()).map((make, index) => toolReturning(`bad${index}`, make)),
      modes[1],
      ["bad2", "bad3", "bad6"],
    );
    expect(textOf(results[0] as ToolResultBlock)).toContain("result.details.self refers to itself (a cycle)");
    expect(textOf(results[1] as ToolResultBlock)).toContain("result.details.size is a BigInt");
    expect(textOf(results[2] as ToolResultBlock)).toContain("result.content[0].text could not be read (boom)");
  });

  it("hands on a copy: a result whose getters change their answer cannot change it later", async () => {
    let reads = 0;
    const shifty = {
      get content() {
        reads++;
        return reads === 1 ? [{ type: "text", text: "first" }] : "not an array";
      },
    };
    const session = sessionWith([toolReturning("shifty", () => shifty)]);
    const result = await session.dispatch({ id: "1", name: "shifty", input: {} });
    expect(result.content).toEqual([{ type: "text", text: "first" }]);
    expect(reads).toBe(1);
  });
});

describe("a hostile throw becomes an execution-failed error", () => {
  for (const mode of modes) {
    it(`every hostile throw, ${mode.name}`, async () => {
      const cases = Object.entries(hostileThrows());
      const tools = cases.map(([, make], index) => toolThrowing(`bad${index}`, make));
      const names = cases.map((_, index) => `bad${index}`);
      const { results, ends } = await run(tools, mode, names);
      expect(results).toHaveLength(cases.length);
      results.forEach((result, index) => {
        expect(result.is_error).toBe(true);
        expect(textOf(result)).toMatch(/^Tool bad\d+ failed: /);
        expect(textOf(result).length).toBeLessThan(2_200);
        expect(ends[index]?.errorCode).toBe("execution-failed");
      });
    });
  }
});

describe("hostile hooks", () => {
  it("a before hook's unreadable decision blocks the call", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const session = sessionWith([echoTool()], {
      beforeToolCall: [
        () =>
          ({
            get block(): never {
              throw new Error("no");
            },
          }) as never,
      ],
    });
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "x" } });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toMatch(/^Tool call blocked: a beforeToolCall hook returned an unreadable decision/);
    const revoked = sessionWith([echoTool()], { beforeToolCall: [() => proxy as never] });
    expect(textOf(await revoked.dispatch({ id: "2", name: "echo", input: { text: "x" } }))).toMatch(
      /^Tool call blocked/,
    );
  });

  it("a before hook whose promise-like has a throwing `then` getter does not hang or crash", async () => {
    const session = sessionWith([echoTool()], {
      beforeToolCall: [
        () =>
          // biome-ignore lint/suspicious/noThenProperty: a hostile promise-like is what this test is about
          Object.defineProperty({}, "then", {
            enumerable: true,
            get(): never {
              throw new Error("no then");
            },
          }) as never,
      ],
    });
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "x" } });
    expect(result.is_error).toBe(true);
  });

  it("an after hook's patch with cyclic details is ignored and reported, the result kept", async () => {
    const details: Record<string, unknown> = {};
    details.self = details;
    const errors: string[] = [];
    const session = sessionWith([echoTool()], { afterToolCall: [() => ({ details })] });
    session.on("error", (event) => errors.push(event.error.message));
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "kept" } });
    expect(result).toEqual({ type: "tool_result", tool_use_id: "1", content: [{ type: "text", text: "kept" }] });
    expect(errors.join("\n")).toMatch(/unreadable patch \(the patch\.details\.self refers to itself/);
  });

  it("an after hook's content behind a throwing getter is ignored", async () => {
    const session = sessionWith([echoTool()], {
      afterToolCall: [
        () => ({
          get content(): never {
            throw new Error("no");
          },
        }),
      ],
    });
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "kept" } });
    expect(textOf(result)).toBe("kept");
  });
});

describe("hostile input", () => {
  it("an input whose getter throws is invalid input", async () => {
    const session = sessionWith([echoTool()]);
    const input = {
      get text(): never {
        throw new Error("no");
      },
    };
    const result = await session.dispatch({ id: "1", name: "echo", input });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toContain("Invalid input for tool echo: input.text could not be read (no)");
  });

  it("JSON text nested 100,000 levels deep is refused before parsing, not a stack overflow", async () => {
    const session = sessionWith([echoTool()]);
    const deep = `{"text":"x","more":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const result = await session.dispatch({ id: "1", name: "echo", input: deep });
    expect(textOf(result)).toBe(
      "Invalid input for tool echo: the JSON text nests more than 100 levels deep. Send the arguments as one JSON object of plain values.",
    );
  });

  it("JSON text and objects nest at most 100 levels, counted alike; brackets inside strings do not count", async () => {
    const open = defineTool({
      name: "open",
      description: "any object",
      inputSchema: { type: "object" },
      execute: () => "ok",
    });
    const session = sessionWith([open]);
    const nested = (levels: number) => `{"text":"x","more":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    expect((await session.dispatch({ id: "1", name: "open", input: nested(100) })).is_error).toBeUndefined();
    expect(textOf(await session.dispatch({ id: "2", name: "open", input: nested(101) }))).toMatch(
      /the JSON text nests more than 100 levels deep/,
    );
    expect(
      (await session.dispatch({ id: "3", name: "open", input: JSON.parse(nested(100)) })).is_error,
    ).toBeUndefined();
    expect(textOf(await session.dispatch({ id: "4", name: "open", input: JSON.parse(nested(101)) }))).toMatch(
      /^Invalid input for tool open: input\.more(\[0\]){99} is nested more than 100 levels deep/,
    );
    const bracketsInText = JSON.stringify({ text: `${"[".repeat(20_000)}\\"${"{".repeat(20_000)}` });
    expect((await session.dispatch({ id: "5", name: "open", input: bracketsInText })).is_error).toBeUndefined();
  });

  it("a 100,000-character tool name is not echoed whole", async () => {
    const session = sessionWith([echoTool()]);
    const result = await session.dispatch({ id: "1", name: "n".repeat(100_000), input: {} });
    expect(result.is_error).toBe(true);
    expect(textOf(result).length).toBeLessThan(500);
    expect(textOf(result)).toMatch(/^Tool n{100}… \(99900 more characters\) not found/);
  });

  it("a schema error lists at most 20 violations and cuts a model's 100,000-character key", async () => {
    const session = sessionWith([echoTool()]);
    const huge = await session.dispatch({ id: "1", name: "echo", input: { text: "x", ["k".repeat(100_000)]: 1 } });
    expect(textOf(huge).length).toBeLessThan(600);
    expect(textOf(huge)).toContain(`- input.${"k".repeat(194)}… (99806 more characters): unexpected property`);
    const many: Record<string, unknown> = { text: "x" };
    for (let index = 0; index < 5_000; index++) many[`extra${index}`] = index;
    const result = await session.dispatch({ id: "2", name: "echo", input: many });
    expect(
      textOf(result)
        .split("\n")
        .filter((line) => line.startsWith("- input.")),
    ).toHaveLength(20);
    expect(textOf(result)).toContain("- ... and 4980 more");
  });

  it("a revoked proxy as the whole tool use still gets one error result", async () => {
    const { proxy, revoke } = Proxy.revocable({ id: "1", name: "echo", input: {} }, {});
    revoke();
    const session = sessionWith([echoTool()]);
    const [result] = await session.dispatchAll([proxy as never, { id: "2", name: "echo", input: { text: "y" } }]);
    expect(result?.is_error).toBe(true);
  });
});

describe("every call ends: the default per-call timeout", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const hung = (mode: "parallel" | "sequential") =>
    defineTool({
      name: `hung_${mode}`,
      description: "never settles",
      inputSchema: { type: "object" },
      executionMode: mode,
      execute: () => new Promise<string>(() => {}),
    });

  it(`a hung executor gets a timeout result after ${DEFAULT_TOOL_TIMEOUT_MS} ms with the defaults`, async () => {
    const session = sessionWith([hung("parallel")]);
    const pending = session.dispatch({ id: "1", name: "hung_parallel", input: {} });
    await vi.advanceTimersByTimeAsync(DEFAULT_TOOL_TIMEOUT_MS - 1);
    let early = true;
    pending.then(() => (early = false));
    await vi.advanceTimersByTimeAsync(0);
    expect(early).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toBe(
      `Tool hung_parallel timed out after ${DEFAULT_TOOL_TIMEOUT_MS} ms and was stopped. Try a smaller request, or another way to get the result.`,
    );
  });

  it("a hung sequential call no longer holds back the rest of a dispatchAll", async () => {
    const session = sessionWith([hung("sequential"), echoTool()]);
    const settled = deferred<ToolResultBlock[]>();
    session
      .dispatchAll([
        { id: "1", name: "hung_sequential", input: {} },
        { id: "2", name: "echo", input: { text: "after" } },
      ])
      .then(settled.resolve);
    await vi.advanceTimersByTimeAsync(DEFAULT_TOOL_TIMEOUT_MS + 1);
    const results = await settled.promise;
    expect(results.map((result) => result.is_error === true)).toEqual([true, false]);
    expect(textOf(results[1] as ToolResultBlock)).toBe("after");
  });

  it("a tool's own timeoutMs and the session's option still win; Infinity turns it off", async () => {
    const own = defineTool({
      name: "own",
      description: "never settles",
      inputSchema: { type: "object" },
      timeoutMs: 50,
      execute: () => new Promise<string>(() => {}),
    });
    const session = sessionWith([own, hung("parallel")], { toolTimeoutMs: 1_000 });
    const first = session.dispatch({ id: "1", name: "own", input: {} });
    const second = session.dispatch({ id: "2", name: "hung_parallel", input: {} });
    await vi.advanceTimersByTimeAsync(1_100);
    expect(textOf(await first)).toMatch(/timed out after 50 ms/);
    expect(textOf(await second)).toMatch(/timed out after 1000 ms/);
    const never = sessionWith([hung("parallel")], { toolTimeoutMs: Number.POSITIVE_INFINITY });
    let done = false;
    never.dispatch({ id: "3", name: "hung_parallel", input: {} }).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_TOOL_TIMEOUT_MS * 10);
    expect(done).toBe(false);
  });

  it("refuses a timeout that is not a positive number", () => {
    expect(() => sessionWith([], { toolTimeoutMs: 0 })).toThrow(/toolTimeoutMs must be a positive number/);
    expect(() => sessionWith([], { toolTimeoutMs: Number.NaN })).toThrow(/toolTimeoutMs must be a positive number/);
  });
});
