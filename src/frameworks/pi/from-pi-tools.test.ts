// fromPiTools: pi's own tools (TypeBox schemas, execute with onUpdate) in a toolwire registry, dispatched by a session.
import type { AgentTool as Pi1AgentTool } from "@earendil-works/pi-agent-core";
import type { AgentTool as PiAgentTool } from "@mariozechner/pi-agent-core";
import { Type } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { sessionWith } from "../../../test/support/session.js";
import { ToolDefinitionError } from "../../core/errors.js";
import type { ToolExecutionEndEvent, ToolResult } from "../../core/types.js";
import { fromPiTools } from "./from-pi-tools.js";

const parameters = Type.Object(
  { city: Type.String(), days: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

const forecast: PiAgentTool<typeof parameters, { calls: number }> = {
  name: "forecast",
  label: "Weather forecast",
  description: "Tells the weather",
  parameters,
  async execute(toolCallId, params, _signal, onUpdate) {
    onUpdate?.({ content: [{ type: "text", text: `looking up ${params.city}` }], details: { calls: 0 } });
    return {
      content: [
        { type: "text", text: `${params.city}: sunny for ${params.days} days (${toolCallId})` },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
      details: { calls: 1 },
    };
  },
};

const broken: PiAgentTool = {
  name: "broken",
  label: "broken",
  description: "Throws, as pi tools signal failure",
  parameters: Type.Object({}),
  executionMode: "sequential",
  async execute() {
    throw new Error("the weather service is down");
  },
};

describe("fromPiTools", () => {
  it("describes a pi tool by its name, label, description and TypeBox schema as JSON Schema", () => {
    const [tool] = fromPiTools([forecast]);
    expect(tool?.descriptor).toMatchObject({
      name: "forecast",
      title: "Weather forecast",
      description: "Tells the weather",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
        required: ["city", "days"],
        additionalProperties: false,
      },
      owner: { kind: "core" },
    });
  });

  it("runs a valid call with the call's id, and returns pi's content and details", async () => {
    const session = sessionWith(fromPiTools([forecast]));
    const outcome = await session.dispatchDetailed({
      id: "call_7",
      name: "forecast",
      input: { city: "Oslo", days: 2 },
    });
    expect(outcome.block).toEqual({
      type: "tool_result",
      tool_use_id: "call_7",
      content: [
        { type: "text", text: "Oslo: sunny for 2 days (call_7)" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
    });
    expect(outcome.result.details).toEqual({ calls: 1 });
  });

  it("passes pi's onUpdate partials on as the session's progress", async () => {
    const session = sessionWith(fromPiTools([forecast]));
    const partials: ToolResult[] = [];
    session.on("tool_execution_update", (event) => partials.push(event.partial));
    await session.dispatch({ id: "call_1", name: "forecast", input: { city: "Oslo", days: 1 } });
    expect(partials).toEqual([{ content: [{ type: "text", text: "looking up Oslo" }], details: { calls: 0 } }]);
  });

  it("refuses an invalid input with toolwire's validation error before pi's execute runs", async () => {
    let ran = false;
    const watched = {
      ...forecast,
      execute: async () => {
        ran = true;
        return { content: [], details: { calls: 0 } };
      },
    };
    const session = sessionWith(fromPiTools([watched]));
    const outcome = await session.dispatchDetailed({
      id: "call_1",
      name: "forecast",
      input: { city: "Oslo", days: 0 },
    });
    expect(outcome.errorCode).toBe("invalid-input");
    expect(outcome.block.is_error).toBe(true);
    expect(outcome.block.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("days") });
    expect(ran).toBe(false);
  });

  it("fails a call whose pi tool throws with the thrown message", async () => {
    const session = sessionWith(fromPiTools([broken]));
    const ended: ToolExecutionEndEvent[] = [];
    session.on("tool_execution_end", (event) => ended.push(event));
    const block = await session.dispatch({ id: "call_1", name: "broken", input: {} });
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: "Tool broken failed: the weather service is down" }],
      is_error: true,
    });
    expect(ended[0]?.errorCode).toBe("execution-failed");
  });

  it("fails a call whose pi 1 tool returns isError, keeping its details", async () => {
    const refusing: Pi1AgentTool = {
      name: "refusing",
      label: "refusing",
      description: "Fails without throwing, as pi 1 allows",
      parameters: { type: "object", properties: {} },
      async execute() {
        return { content: [{ type: "text", text: "no such city" }], details: { city: "Atlantis" }, isError: true };
      },
    };
    const session = sessionWith(fromPiTools([refusing]));
    const outcome = await session.dispatchDetailed({ id: "call_1", name: "refusing", input: {} });
    expect(outcome.block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: "no such city" }],
      is_error: true,
    });
    expect(outcome.result.details).toEqual({ city: "Atlantis" });
  });

  it("keeps a pi tool's executionMode", () => {
    expect(fromPiTools([broken, forecast]).map((tool) => tool.executionMode)).toEqual(["sequential", undefined]);
  });

  it("passes the session's abort signal to pi's execute", async () => {
    const waiting: PiAgentTool = {
      ...broken,
      name: "wait",
      execute: (_id, _params, signal) =>
        new Promise((_resolve, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped")))),
    };
    const session = sessionWith(fromPiTools([waiting]));
    const controller = new AbortController();
    const pending = session.dispatchDetailed({ id: "call_1", name: "wait", input: {} }, { signal: controller.signal });
    controller.abort();
    expect((await pending).errorCode).toBe("aborted");
  });

  it("runs a tool's prepareArguments on the validated input before execute", async () => {
    const seen: unknown[] = [];
    const shim: PiAgentTool = {
      ...broken,
      name: "shim",
      parameters: Type.Object({ path: Type.String() }),
      prepareArguments: (args) => ({ path: String((args as { path: string }).path).trim() }),
      execute: async (_id, params) => {
        seen.push(params);
        return { content: [{ type: "text", text: "ok" }], details: undefined };
      },
    };
    await sessionWith(fromPiTools([shim])).dispatch({ id: "call_1", name: "shim", input: { path: "  a.txt " } });
    expect(seen).toEqual([{ path: "a.txt" }]);
  });

  it("throws ToolDefinitionError for a pi tool whose name toolwire cannot take", () => {
    const dotted = { ...broken, name: "weather.today" };
    expect(() => fromPiTools([dotted])).toThrow(ToolDefinitionError);
    expect(() => fromPiTools([dotted])).toThrow(
      expect.objectContaining({ code: "invalid-tool-definition", toolName: "weather.today" }),
    );
  });
});
