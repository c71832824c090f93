import { describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../../test/support/session.js";
import { ToolCallError } from "../errors.js";
import { defineTool } from "../register/define-tool.js";
import type { ToolCallErrorCode, ToolResult } from "../types.js";

const weather = defineTool({
  name: "weather",
  description: "structured",
  inputSchema: { type: "object" },
  execute: (_input, { onUpdate }) => {
    onUpdate({ content: [{ type: "text", text: "looking" }] });
    return { content: [{ type: "text", text: "22C" }], details: { celsius: 22 } };
  },
});

describe("dispatchDetailed", () => {
  it("answers with dispatch's exact block, the result with its details, and the duration", async () => {
    const session = sessionWith([weather]);
    const use = { id: "1", name: "weather", input: {} };
    const outcome = await session.dispatchDetailed(use);
    expect(outcome.block).toEqual(await session.dispatch(use));
    expect(outcome.result).toEqual({ content: [{ type: "text", text: "22C" }], details: { celsius: 22 } });
    expect(outcome.errorCode).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("carries the error code of a refused or failed call, with no event listener anywhere", async () => {
    const session = sessionWith([echoTool()]);
    const missing = await session.dispatchDetailed({ id: "1", name: "nope", input: {} });
    expect(missing.errorCode).toBe("tool-not-found");
    expect(missing.block.is_error).toBe(true);
    const invalid = await session.dispatchDetailed({ id: "2", name: "echo", input: { text: 1 } });
    expect(invalid.errorCode).toBe("invalid-input");
  });

  it("carries the code an executor chose by throwing a ToolCallError, such as run_code's outcome codes", async () => {
    const codes: ToolCallErrorCode[] = [
      "code-syntax-error",
      "code-runtime-error",
      "code-timeout",
      "code-memory-exceeded",
      "code-too-many-calls",
      "code-replay-diverged",
    ];
    const runCode = defineTool({
      name: "run_code",
      description: "Fails with the code it is given",
      inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
      execute: ({ code }) => {
        throw new ToolCallError(code as ToolCallErrorCode, "run_code", `The program failed: ${code}`);
      },
    });
    const session = sessionWith([runCode]);
    const ended: unknown[] = [];
    session.on("tool_execution_end", (event) => ended.push(event.errorCode));
    for (const code of codes) {
      const outcome = await session.dispatchDetailed({ id: code, name: "run_code", input: { code } });
      expect(outcome.errorCode).toBe(code);
      expect(outcome.result).toEqual({
        content: [{ type: "text", text: `The program failed: ${code}` }],
        isError: true,
      });
    }
    expect(ended).toEqual(codes);
  });

  it("dispatchAllDetailed answers every call in order, in both execution modes", async () => {
    for (const toolExecution of ["parallel", "sequential"] as const) {
      const session = sessionWith([weather, echoTool()], { toolExecution });
      const outcomes = await session.dispatchAllDetailed([
        { id: "a", name: "echo", input: { text: "x" } },
        { id: "b", name: "nope", input: {} },
        { id: "c", name: "weather", input: {} },
      ]);
      expect(outcomes.map((outcome) => outcome.block.tool_use_id)).toEqual(["a", "b", "c"]);
      expect(outcomes.map((outcome) => outcome.errorCode)).toEqual([undefined, "tool-not-found", undefined]);
      expect(outcomes[2]?.result.details).toEqual({ celsius: 22 });
    }
  });

  it("hands this call's progress to its own onUpdate, and a throwing one is reported, not fatal", async () => {
    const session = sessionWith([weather]);
    const seen: ToolResult[] = [];
    await session.dispatch({ id: "1", name: "weather", input: {} }, { onUpdate: (partial) => seen.push(partial) });
    expect(seen).toEqual([{ content: [{ type: "text", text: "looking" }] }]);
    const errors: string[] = [];
    session.on("error", (event) => errors.push(event.error.message));
    const outcome = await session.dispatchDetailed(
      { id: "2", name: "weather", input: {} },
      {
        onUpdate: () => {
          throw new Error("listener broke");
        },
      },
    );
    expect(outcome.block.is_error).toBeUndefined();
    expect(errors).toEqual(["An onUpdate listener of a dispatch threw: listener broke"]);
  });
});
