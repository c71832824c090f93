import { describe, expect, it } from "vitest";
import { deferred, echoTool, sessionWith, textOf } from "../../test/support/session.js";
import type { AgentSessionOptions } from "../core/dispatch/session.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolExecutionStartEvent } from "../core/types.js";
import type { CodeModeOptions } from "./code-mode-options.js";
import { createCodeMode } from "./create-code-mode.js";

/** A session over `tools` with run_code in its registry, and a way to run one program through it. */
function codeSession(
  tools: AgentTool[],
  options: Omit<AgentSessionOptions, "registry"> = {},
  codeOptions: CodeModeOptions = {},
) {
  const session = sessionWith(tools, options);
  const codeMode = createCodeMode(session, codeOptions);
  session.registry.refresh({ custom: [...tools, codeMode.source] });
  let runs = 0;
  const run = (code: string) => session.dispatchDetailed({ id: `p${++runs}`, name: "run_code", input: { code } });
  return { session, codeMode, run };
}

const weather = defineTool({
  name: "weather",
  description: "The weather in a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  outputSchema: { type: "object", properties: { celsius: { type: "number" } } },
  execute: (input) => ({
    content: [{ type: "text", text: `${input.city}: 21C` }],
    details: { structuredContent: { celsius: input.city === "Oslo" ? 3 : 21 } },
  }),
});

const broken = defineTool({
  name: "broken",
  description: "Always fails",
  inputSchema: { type: "object" },
  execute: () => ({ content: [{ type: "text", text: "disk on fire" }], isError: true }),
});

describe("createCodeMode", () => {
  it("runs a program whose calls resolve to structuredContent, else to the result's text", async () => {
    const { run } = codeSession([weather, echoTool()]);
    const outcome = await run(`
      const oslo = await tools.weather({ city: "Oslo" });
      const said = await tools.echo({ text: "hi" });
      return { oslo: oslo.celsius, said };
    `);
    expect(outcome.errorCode).toBeUndefined();
    expect(JSON.parse(textOf(outcome.block))).toEqual({ oslo: 3, said: "hi" });
  });

  it("describes run_code with the declarations of the tools a program may call", () => {
    const { codeMode, session } = codeSession([weather, echoTool()]);
    expect(codeMode.declarations).toContain("weather");
    expect(codeMode.declarations).toContain("echo");
    expect(codeMode.declarations).not.toContain("run_code(");
    expect(session.activeTools.get("run_code")?.descriptor.description).toContain(codeMode.declarations);
  });

  it("gives a failed call to the program as an Error with the call's code and the result's text", async () => {
    const { run } = codeSession([broken, echoTool()]);
    const outcome = await run(`
      const seen = [];
      try { await tools.broken({}); } catch (error) { seen.push(error.code + ": " + error.message); }
      try { await tools.echo({ text: 42 }); } catch (error) { seen.push(error.code); }
      try { await tools.nope({}); } catch (error) { seen.push(error.code); }
      return seen;
    `);
    expect(JSON.parse(textOf(outcome.block))).toEqual(["tool-error: disk on fire", "invalid-input", "tool-not-found"]);
  });

  it("lets a program call only the tools its patterns expose, and never run_code itself", async () => {
    const { run, codeMode } = codeSession([weather, echoTool()], {}, { tools: ["weather"] });
    expect(codeMode.declarations).not.toContain("echo");
    const outcome = await run(`
      const codes = [];
      for (const name of ["echo", "run_code"]) {
        try { await tools[name]({ text: "x", code: "return 1" }); } catch (error) { codes.push(error.code); }
      }
      return codes;
    `);
    expect(JSON.parse(textOf(outcome.block))).toEqual(["tool-not-found", "tool-not-found"]);
  });

  it("runs each nested call's executor once, through the session's before and after hooks", async () => {
    let executed = 0;
    const counted = defineTool({
      name: "counted",
      description: "Counts its runs",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      execute: (input) => {
        executed += 1;
        return `ran ${String(input.n)}`;
      },
    });
    const { run } = codeSession([counted], {
      beforeToolCall: [(event) => (event.input.n === 2 ? { block: true, reason: "not two" } : undefined)],
      afterToolCall: [
        (event) => (event.toolName === "counted" ? { content: [{ type: "text", text: "patched" }] } : undefined),
      ],
    });
    const outcome = await run(`
      const one = await tools.counted({ n: 1 });
      let two;
      try { await tools.counted({ n: 2 }); } catch (error) { two = error.code; }
      return [one, two];
    `);
    expect(JSON.parse(textOf(outcome.block))).toEqual(["patched", "blocked-by-hook"]);
    expect(executed).toBe(1);
  });

  it("announces nested calls with ids under run_code's and parentToolCallId", async () => {
    const { run, session } = codeSession([echoTool()]);
    const started: ToolExecutionStartEvent[] = [];
    session.on("tool_execution_start", (event) => started.push(event));
    await run(`await tools.echo({ text: "a" }); await tools.echo({ text: "b" }); return "ok";`);
    expect(started.map((event) => [event.toolCallId, event.toolName, event.parentToolCallId])).toEqual([
      ["p1", "run_code", undefined],
      ["p1.1", "echo", "p1"],
      ["p1.2", "echo", "p1"],
    ]);
  });

  it("runs the calls a program makes at once together", async () => {
    const gate = deferred();
    let running = 0;
    let most = 0;
    const slow = defineTool({
      name: "slow",
      description: "Waits for the gate",
      inputSchema: { type: "object" },
      execute: async () => {
        running += 1;
        most = Math.max(most, running);
        if (running === 3) gate.resolve();
        await gate.promise;
        running -= 1;
        return "done";
      },
    });
    const { run } = codeSession([slow]);
    const outcome = await run(`return (await Promise.all([tools.slow({}), tools.slow({}), tools.slow({})])).length;`);
    expect(textOf(outcome.block)).toBe("3");
    expect(most).toBe(3);
  });

  it("keeps a sequential tool alone: it waits for the running calls, and later calls wait for it", async () => {
    const log: string[] = [];
    const tool = (name: string, executionMode: "parallel" | "sequential") =>
      defineTool({
        name,
        description: name,
        inputSchema: { type: "object" },
        executionMode,
        execute: async () => {
          log.push(`${name} start`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          log.push(`${name} end`);
          return name;
        },
      });
    const { run } = codeSession([tool("a", "parallel"), tool("s", "sequential"), tool("b", "parallel")]);
    await run(`return await Promise.all([tools.a({}), tools.s({}), tools.b({})]);`);
    const sStart = log.indexOf("s start");
    expect(log.indexOf("a end")).toBeLessThan(sStart);
    expect(log[sStart + 1]).toBe("s end");
  });

  it("ends a program that makes more calls than maxToolCalls with code-too-many-calls", async () => {
    const { run } = codeSession([echoTool()], {}, { limits: { maxToolCalls: 3 } });
    const outcome = await run(`for (let i = 0; i < 10; i++) await tools.echo({ text: String(i) }); return "all";`);
    expect(outcome.errorCode).toBe("code-too-many-calls");
  });

  it("lets a program search the exposed tools and read a full declaration", async () => {
    const { run } = codeSession([weather, echoTool()]);
    const outcome = await run(
      `const found = await tools.tool_search({ query: "weather city" }); return found.tools[0];`,
    );
    const first = JSON.parse(textOf(outcome.block));
    expect(first.name).toBe("weather");
    expect(first.declaration).toContain("city");
  });

  it("waits for an approver inside a program, without the wait counting against timeoutMs", async () => {
    let ran = 0;
    const danger = defineTool({
      name: "danger",
      description: "Needs a person",
      inputSchema: { type: "object", properties: { what: { type: "string" } } },
      execute: (input) => {
        ran += 1;
        return `did ${String(input.what)}`;
      },
    });
    const asked: string[] = [];
    const { run } = codeSession(
      [danger],
      {
        approvals: {
          require: ["danger"],
          approver: async (request) => {
            asked.push(`${request.toolCallId} ${JSON.stringify(request.input)}`);
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            return request.input.what === "no" ? { approve: false, reason: "not that" } : { approve: true };
          },
        },
      },
      { limits: { timeoutMs: 1_000 } },
    );
    const outcome = await run(`
      const yes = await tools.danger({ what: "yes" });
      let no;
      try { await tools.danger({ what: "no" }); } catch (error) { no = error.code; }
      return [yes, no];
    `);
    expect(outcome.errorCode).toBeUndefined();
    expect(JSON.parse(textOf(outcome.block))).toEqual(["did yes", "approval-declined"]);
    expect(asked).toEqual(['p1.1 {"what":"yes"}', 'p1.2 {"what":"no"}']);
    expect(ran).toBe(1);
  });

  it("answers approval-required inside the program when nobody can be asked", async () => {
    const danger = defineTool({
      name: "danger",
      description: "d",
      inputSchema: { type: "object" },
      execute: () => "ran",
    });
    const { run } = codeSession([danger], { approvals: { require: ["danger"] } });
    const outcome = await run(`try { await tools.danger({}); return "ran"; } catch (error) { return error.code; }`);
    expect(textOf(outcome.block)).toBe("approval-required");
  });

  it("gives the registry a new run_code when the tools a program may call change", () => {
    const { session, codeMode } = codeSession([echoTool()]);
    const before = codeMode.tool;
    let changes = 0;
    codeMode.source.onChange?.(() => changes++);
    session.registry.refresh({ custom: [echoTool(), weather, codeMode.source] });
    expect(changes).toBe(1);
    expect(codeMode.tool).not.toBe(before);
    expect(codeMode.declarations).toContain("weather");
    expect(session.activeTools.get("run_code")?.descriptor.description).toContain("weather");
    codeMode.close();
  });

  it("refuses bad options with a TypeError naming the option", () => {
    const session = sessionWith([echoTool()]);
    expect(() => createCodeMode(session, { limits: { timeoutMs: -1 } })).toThrow(/limits\.timeoutMs/);
    expect(() => createCodeMode(session, { limits: { memoryBytes: 10 } })).toThrow(/limits\.memoryBytes/);
    expect(() => createCodeMode(session, { tools: "echo" as never })).toThrow(/tools/);
  });
});
