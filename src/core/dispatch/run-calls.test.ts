import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { builtScript } from "../../../test/e2e/helpers/build.js";
import { echoTool, sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { AgentTool, ToolExecutionMode } from "../types.js";

/** A tool that records when it starts and ends, and takes `ms` milliseconds. */
function timedTool(name: string, log: string[], executionMode?: ToolExecutionMode): AgentTool {
  return defineTool({
    name,
    description: name,
    inputSchema: { type: "object", properties: { id: { type: "string" }, ms: { type: "number" } }, required: ["id"] },
    executionMode,
    execute: async (input) => {
      log.push(`start ${input.id}`);
      await new Promise((resolve) => setTimeout(resolve, input.ms ?? 5));
      log.push(`end ${input.id}`);
      return input.id;
    },
  });
}

describe("dispatchAll", () => {
  it("runs executors together in parallel mode and returns results in source order", async () => {
    const log: string[] = [];
    const session = sessionWith([timedTool("t", log)]);
    const results = await session.dispatchAll([
      { id: "1", name: "t", input: { id: "slow", ms: 30 } },
      { id: "2", name: "t", input: { id: "fast", ms: 1 } },
    ]);
    expect(log).toEqual(["start slow", "start fast", "end fast", "end slow"]);
    expect(results.map(textOf)).toEqual(["slow", "fast"]);
    expect(results.map((result) => result.tool_use_id)).toEqual(["1", "2"]);
  });

  it("runs a sequential tool alone: after the running ones, before the next", async () => {
    const log: string[] = [];
    const session = sessionWith([timedTool("p", log), timedTool("s", log, "sequential")]);
    await session.dispatchAll([
      { id: "1", name: "p", input: { id: "p1", ms: 10 } },
      { id: "2", name: "s", input: { id: "s1", ms: 5 } },
      { id: "3", name: "p", input: { id: "p2", ms: 5 } },
      { id: "4", name: "p", input: { id: "p3", ms: 1 } },
    ]);
    expect(log).toEqual(["start p1", "end p1", "start s1", "end s1", "start p2", "start p3", "end p3", "end p2"]);
  });

  it("runs each call's whole life before the next in sequential session mode", async () => {
    const log: string[] = [];
    const session = sessionWith([timedTool("t", log)], {
      toolExecution: "sequential",
      beforeToolCall: [(event) => void log.push(`before ${event.input.id}`)],
    });
    await session.dispatchAll([
      { id: "1", name: "t", input: { id: "a", ms: 10 } },
      { id: "2", name: "t", input: { id: "b", ms: 1 } },
    ]);
    expect(log).toEqual(["before a", "start a", "end a", "before b", "start b", "end b"]);
  });

  it("runs before hooks one call at a time, all before any executor, in parallel mode", async () => {
    const log: string[] = [];
    const session = sessionWith([timedTool("t", log)], {
      beforeToolCall: [
        async (event) => {
          log.push(`before ${event.input.id}`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        },
      ],
    });
    await session.dispatchAll([
      { id: "1", name: "t", input: { id: "a", ms: 1 } },
      { id: "2", name: "t", input: { id: "b", ms: 1 } },
    ]);
    expect(log.slice(0, 2)).toEqual(["before a", "before b"]);
  });

  it("gives one result per call, whatever failed, and the rest of the batch completes", async () => {
    const crash = defineTool({
      name: "crash",
      description: "c",
      inputSchema: { type: "object" },
      execute: () => {
        throw new Error("boom");
      },
    });
    const session = sessionWith([echoTool(), crash], {
      beforeToolCall: [(e) => (e.input.text === "no" ? { block: true } : undefined)],
    });
    const results = await session.dispatchAll([
      { id: "1", name: "crash", input: {} },
      { id: "2", name: "echo", input: "{oops" },
      { id: "3", name: "nope", input: {} },
      { id: "4", name: "echo", input: { text: "no" } },
      { id: "5", name: "echo", input: { text: "fine" } },
    ]);
    expect(results.map((result) => [result.tool_use_id, result.is_error === true])).toEqual([
      ["1", true],
      ["2", true],
      ["3", true],
      ["4", true],
      ["5", false],
    ]);
    expect(textOf(results[4] as never)).toBe("fine");
  });

  it("returns an empty list for no calls or a non-array", async () => {
    const session = sessionWith([echoTool()]);
    expect(await session.dispatchAll([])).toEqual([]);
    expect(await session.dispatchAll("nope" as never)).toEqual([]);
  });
});

describe("dispatchAll properties", () => {
  const names = fc.constantFrom("echo", "crash", "seq", "hang", "nope", "__proto__", "constructor", "");
  const inputs = fc.oneof(
    fc.record({ text: fc.string() }),
    fc.string(),
    fc.constant('{"text":"json"}'),
    fc.constant("{broken"),
    fc.anything(),
  );
  const toolUse = fc.record({ id: fc.string(), name: names, input: inputs });
  const tools = [
    echoTool(),
    defineTool({
      name: "crash",
      description: "throws a random value",
      inputSchema: { type: "object" },
      execute: (input) => {
        throw input;
      },
    }),
    defineTool({
      name: "seq",
      description: "sequential",
      inputSchema: { type: "object" },
      executionMode: "sequential",
      execute: async () => "seq",
    }),
    defineTool({
      name: "hang",
      description: "never ends",
      inputSchema: { type: "object" },
      timeoutMs: 1,
      execute: () => new Promise(() => {}),
    }),
  ];

  it.each(["parallel", "sequential"] as const)(
    "gives exactly one result per call, in source order, and never rejects (%s)",
    async (mode) => {
      const session = sessionWith(tools, {
        toolExecution: mode,
        beforeToolCall: [(event) => (event.input.text === "block" ? { block: true } : undefined)],
        afterToolCall: [
          (event) => {
            if (event.toolName === "echo" && event.input.text === "") throw new Error("after hook bug");
          },
        ],
      });
      await fc.assert(
        fc.asyncProperty(fc.array(toolUse, { maxLength: 12 }), async (calls) => {
          const results = await session.dispatchAll(calls);
          expect(results).toHaveLength(calls.length);
          results.forEach((result, index) => {
            expect(result.type).toBe("tool_result");
            expect(result.tool_use_id).toBe(calls[index]?.id);
            expect(Array.isArray(result.content)).toBe(true);
          });
        }),
        { numRuns: 60 },
      );
    },
  );
});

describe("a call's timeout and the process", () => {
  const built = pathToFileURL(builtScript("dist/index.js")).href;
  /** Runs `body` in a new Node process with `session`, a session over a tool `hang` that never settles. */
  const run = (body: string) =>
    execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const api = await import(${JSON.stringify(built)});
         const hang = api.defineTool({ name: "hang", description: "never settles", inputSchema: { type: "object" }, execute: () => new Promise(() => {}) });
         const quick = api.defineTool({ name: "quick", description: "answers", inputSchema: { type: "object" }, execute: () => "ok" });
         const registry = api.createToolRegistry({ custom: [hang, quick] });
         ${body}`,
      ],
      { encoding: "utf8", timeout: 20_000 },
    );

  it("holds the process while a call runs, until its timeout ends it", () => {
    const started = Date.now();
    const out = run(`const session = api.createAgentSession({ registry, toolTimeoutMs: 300 });
      session.dispatch({ id: "1", name: "hang", input: {} }).then((block) => console.log(block.content[0].text));`);
    expect(out).toMatch(/^Tool hang timed out after 300 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("lets the process exit once its calls have ended, whatever their timeout", () => {
    const started = Date.now();
    const out = run(`const session = api.createAgentSession({ registry, toolTimeoutMs: 60_000 });
      session.dispatchAll([{ id: "1", name: "quick", input: {} }, { id: "2", name: "quick", input: {} }]).then((blocks) => console.log(blocks.length));`);
    expect(out).toBe("2\n");
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
