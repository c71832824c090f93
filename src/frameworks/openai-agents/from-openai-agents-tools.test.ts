import { type RunContext, setTracingDisabled, shellTool, tool } from "@openai/agents-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { ToolDefinitionError } from "../../core/errors.js";
import { createToolRegistry } from "../../core/register/registry.js";
import { createAgentSession } from "../../create-agent-session.js";
import { OPENAI_AGENTS_DEFAULT_ERROR_TEXT } from "./from-openai-agents-output.js";
import { fromOpenAIAgentsTools } from "./from-openai-agents-tools.js";

setTracingDisabled(true);
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

describe("fromOpenAIAgentsTools", () => {
  it("runs a zod-typed Agents SDK tool through a toolwire session, with its JSON Schema", async () => {
    const seen: { input: unknown; context: unknown; callId: unknown; signal: unknown }[] = [];
    const weather = tool({
      name: "weather",
      description: "The weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: async (input, runContext?: RunContext<unknown>, details?) => {
        seen.push({
          input,
          context: runContext?.context,
          callId: details?.toolCall?.callId,
          signal: details?.signal,
        });
        return `sunny in ${input.city}`;
      },
    });
    const tools = fromOpenAIAgentsTools([weather], { context: { userId: "u1" } });
    expect(tools[0]?.descriptor).toMatchObject({
      name: "weather",
      description: "The weather in a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const session = sessionWith(tools);
    const block = await session.dispatch({ id: "call_1", name: "weather", input: { city: "Oslo" } });
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [{ type: "text", text: "sunny in Oslo" }],
    });
    expect(seen).toEqual([
      { input: { city: "Oslo" }, context: { userId: "u1" }, callId: "call_1", signal: expect.any(AbortSignal) },
    ]);
  });

  it("takes a non-strict JSON Schema tool", async () => {
    const greet = tool({
      name: "greet",
      description: "Greets",
      parameters: {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
        additionalProperties: true,
      },
      strict: false,
      execute: async (input) => `hello ${(input as { name: string }).name}`,
    });
    const session = sessionWith(fromOpenAIAgentsTools([greet]));
    expect(textOf(await session.dispatch({ id: "1", name: "greet", input: { name: "Ada" } }))).toBe("hello Ada");
  });

  it("an input that breaks the tool's schema is refused by toolwire before the tool runs", async () => {
    let runs = 0;
    const add = tool({
      name: "add",
      description: "Adds",
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: async ({ a, b }) => {
        runs++;
        return String(a + b);
      },
    });
    const session = sessionWith(fromOpenAIAgentsTools([add]));
    const outcome = await session.dispatchDetailed({ id: "1", name: "add", input: { a: "2", b: 3 } });
    expect(outcome.errorCode).toBe("invalid-input");
    expect(textOf(outcome.block)).toContain('- input.a: must be number, got string "2"');
    expect(runs).toBe(0);
  });

  it("a tool made with errorFunction null that throws is execution-failed with its message", async () => {
    const fail = tool({
      name: "fail",
      description: "Fails",
      parameters: z.object({}),
      errorFunction: null,
      execute: async (): Promise<string> => {
        throw new Error("the disk is full");
      },
    });
    const outcome = await sessionWith(fromOpenAIAgentsTools([fail])).dispatchDetailed({
      id: "1",
      name: "fail",
      input: {},
    });
    expect(outcome.errorCode).toBe("execution-failed");
    expect(textOf(outcome.block)).toBe("Tool fail failed: the disk is full");
  });

  it("a tool with the SDK's default error function that throws gives its fixed text, marked as an error", async () => {
    const fail = tool({
      name: "fail",
      description: "Fails",
      parameters: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error("secret detail");
      },
    });
    const block = await sessionWith(fromOpenAIAgentsTools([fail])).dispatch({ id: "1", name: "fail", input: {} });
    expect(block).toEqual({
      type: "tool_result",
      tool_use_id: "1",
      content: [{ type: "text", text: OPENAI_AGENTS_DEFAULT_ERROR_TEXT }],
      is_error: true,
    });
  });

  it("structured outputs become text, image and resource blocks; the raw output is the details", async () => {
    const output = [
      { type: "text", text: "the screen:" },
      { type: "image", image: `data:image/png;base64,${PIXEL}` },
      { type: "image", image: { data: PIXEL, mediaType: "image/png" } },
      { type: "file", file: { data: "JVBERi0=", mediaType: "application/pdf", filename: "report.pdf" } },
      { type: "file", file: { url: "https://example.test/notes.txt" } },
    ];
    const snap = tool({
      name: "snap",
      description: "Screenshot",
      parameters: z.object({}),
      execute: async () => output,
    });
    const outcome = await sessionWith(fromOpenAIAgentsTools([snap])).dispatchDetailed({
      id: "1",
      name: "snap",
      input: {},
    });
    expect(outcome.block.content).toEqual([
      { type: "text", text: "the screen:" },
      { type: "image", data: PIXEL, mimeType: "image/png" },
      { type: "image", data: PIXEL, mimeType: "image/png" },
      { type: "resource", resource: { uri: "report.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
      { type: "resource_link", uri: "https://example.test/notes.txt", name: "notes.txt" },
    ]);
    expect(outcome.result.details).toEqual(output);
  });

  it("an object output that is not structured output is its JSON text", async () => {
    const stats = tool({
      name: "stats",
      description: "Stats",
      parameters: z.object({}),
      execute: async () => ({ files: 3 }) as unknown as string,
    });
    const outcome = await sessionWith(fromOpenAIAgentsTools([stats])).dispatchDetailed({
      id: "1",
      name: "stats",
      input: {},
    });
    expect(outcome.block.content).toEqual([{ type: "text", text: '{"files":3}' }]);
    expect(outcome.result.details).toEqual({ files: 3 });
  });

  it("the tool's timeoutMs is the toolwire call's", async () => {
    const slow = tool({
      name: "slow",
      description: "Slow",
      parameters: z.object({}),
      timeoutMs: 50,
      timeoutBehavior: "raise_exception",
      execute: (_input, _context, details) =>
        new Promise<string>((resolve) => details?.signal?.addEventListener("abort", () => resolve("late"))),
    });
    const [converted] = fromOpenAIAgentsTools([slow]);
    expect(converted?.timeoutMs).toBe(50);
    const outcome = await sessionWith(converted === undefined ? [] : [converted]).dispatchDetailed({
      id: "1",
      name: "slow",
      input: {},
    });
    expect(outcome.errorCode).toBe("timeout");
  });

  it("the registry's policy applies to them through their owner", () => {
    const tools = fromOpenAIAgentsTools(
      [tool({ name: "a", description: "A", parameters: z.object({}), execute: async () => "a" })],
      { owner: { kind: "plugin", pluginId: "agents" } },
    );
    const session = createAgentSession({
      registry: createToolRegistry({ extensions: tools, policy: [{ label: "project", deny: ["group:plugins"] }] }),
    });
    expect(session.activeToolNames).toEqual([]);
  });

  it("refuses a tool that is not a function tool", () => {
    const shell = shellTool({ shell: { run: async () => ({ output: [] }) } as never });
    expect(() => fromOpenAIAgentsTools([shell])).toThrow(ToolDefinitionError);
    expect(() => fromOpenAIAgentsTools([shell])).toThrow(
      "only function tools can run in toolwire (this one is a shell tool)",
    );
  });
});
