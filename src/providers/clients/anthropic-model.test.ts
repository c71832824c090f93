// The Anthropic client through the real SDK against a loopback server answering like the Messages API.
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain, eventTrace } from "../../../test/support/agent-harness.js";
import {
  anthropicMessageEvents,
  type FakeProviderServer,
  startFakeProvider,
} from "../../../test/support/fake-provider-server.js";
import { readProviderFixture } from "../../../test/support/provider-fixtures.js";
import { anthropicRequestViolations } from "../../../test/support/provider-request-rules.js";
import { TOOL_SEARCH_DEFINITION } from "../../core/defer/create-tool-search-tool.js";
import type { ToolDescriptor } from "../../core/types.js";
import { runAgent } from "../../loop/run-agent.js";
import { ANTHROPIC_CODE_EXECUTION_TOOL, anthropic } from "../anthropic.js";
import { createAnthropicModel } from "./anthropic-model.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The fixture's tool-use response, calling our real tool instead of get_weather. */
function toolUseReply() {
  const { response } = readProviderFixture("anthropic-messages.tool-use-response.json");
  response.model = "claude-test";
  response.content[0].text = "I'll read the note.";
  response.content[1] = { type: "tool_use", id: "toolu_01", name: "read_note", input: { path: "note.txt" } };
  return response;
}

function finalReply(text: string) {
  return {
    id: "msg_02",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 500, output_tokens: 12, cache_read_input_tokens: 300 },
  };
}

async function setup(replies: Parameters<typeof startFakeProvider>[0]) {
  const server: FakeProviderServer = await startFakeProvider(replies);
  const workspace = await createNoteWorkspace();
  cleanups.push(server.close, workspace.cleanup);
  return { server, ...workspace };
}

describe("createAnthropicModel", () => {
  it("runs a tool through the session and sends its result back as a tool_result", async () => {
    const { server, session } = await setup({
      "/v1/messages": [{ json: toolUseReply() }, { json: finalReply("The note says to ship v1 on Friday.") }],
    });
    const model = createAnthropicModel({
      apiKey: "test-key",
      model: "claude-test",
      baseURL: server.url,
      maxRetries: 0,
    });
    const { events, transcript, done } = await drain(runAgent({ session, model, prompt: "What does my note say?" }));

    expect(eventTrace(events)).toEqual([
      "turn_start",
      "model_text_delta",
      "model_text",
      "usage",
      "tool_call:read_note",
      "tool_result:ok",
      "turn_end",
      "turn_start",
      "model_text_delta",
      "model_text",
      "usage",
      "turn_end",
      "done:completed",
    ]);
    expect(done).toMatchObject({ turns: 2, usage: { inputTokens: 884, outputTokens: 82, cacheReadTokens: 300 } });
    expect(done.transcript).toEqual(transcript);

    const [first, second] = server.requests;
    // SDK 1.10 sends the key as a bearer token (older ones used x-api-key).
    expect(first?.headers.authorization ?? first?.headers["x-api-key"]).toMatch(/^(Bearer )?test-key$/);
    expect(first?.headers["anthropic-version"]).toBeTypeOf("string");
    expect(first?.body).toMatchObject({
      model: "claude-test",
      max_tokens: 4096,
      system: session.baseSystemPrompt,
      tools: anthropic.formatTools([...session.activeTools.values()]),
      messages: [{ role: "user", content: "What does my note say?" }],
    });
    // The assistant turn is echoed as sent, then one user message answers the call.
    expect(second?.body.messages.slice(1)).toEqual([
      { role: "assistant", content: toolUseReply().content },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_01", content: [{ type: "text", text: "ship v1 on Friday\n" }] },
        ],
      },
    ]);
    // Prompt caching: the tools are the same bytes on both turns.
    const toolBytes = JSON.stringify(first?.body.tools);
    expect(first?.raw).toContain(toolBytes);
    expect(second?.raw).toContain(toolBytes);
  });
});

describe("createAnthropicModel, native tool search", () => {
  const lookup = Object.freeze<ToolDescriptor>({
    name: "lookup",
    description: "Look a word up.",
    inputSchema: { type: "object", properties: { word: { type: "string" } } },
    owner: { kind: "core" },
  });
  const searchTool = Object.freeze<ToolDescriptor>({ ...TOOL_SEARCH_DEFINITION, owner: { kind: "core" } });

  for (const nativeToolSearch of [false, true]) {
    it(`sends ${nativeToolSearch ? "every deferred tool with defer_loading, a found one too" : "tools as given when nativeToolSearch is off"}`, async () => {
      const server = await startFakeProvider({ "/v1/messages": [{ json: finalReply("ok") }] });
      cleanups.push(server.close);
      const model = createAnthropicModel({
        apiKey: "test-key",
        model: "claude-test",
        baseURL: server.url,
        maxRetries: 0,
        nativeToolSearch,
      });
      // `lookup` was found already: the session sends it after tool_search; natively it stays among the deferred.
      await model.complete({
        systemPrompt: "",
        messages: [{ role: "user", text: "hi" }],
        tools: [searchTool, lookup],
        deferredTools: [lookup],
      });
      const { tools } = server.requests[0]?.body ?? {};
      expect(tools).toEqual(
        nativeToolSearch
          ? [...anthropic.formatTools([searchTool]), ...anthropic.formatTools([lookup], { deferLoading: true })]
          : anthropic.formatTools([searchTool, lookup]),
      );
    });
  }
});

describe("createAnthropicModel, thinking", () => {
  const hi = { systemPrompt: "", messages: [{ role: "user" as const, text: "hi" }], tools: [] };

  it("sends thinkingBudget as thinking enabled with budget_tokens, beside temperature 1", async () => {
    const server = await startFakeProvider({ "/v1/messages": [{ json: finalReply("Thought about it.") }] });
    cleanups.push(server.close);
    const model = createAnthropicModel({
      apiKey: "test-key",
      model: "claude-test",
      baseURL: server.url,
      maxTokens: 8192,
      thinkingBudget: 4096,
      temperature: 1,
      toolChoice: "auto",
    });
    await model.complete(hi);
    expect(server.requests[0]?.body).toMatchObject({
      max_tokens: 8192,
      temperature: 1,
      thinking: { type: "enabled", budget_tokens: 4096 },
    });
  });

  it.each([
    [{ thinkingBudget: 1000 }, "thinkingBudget (less than maxTokens) must be an integer from 1024 to 4095, got 1000"],
    [{ thinkingBudget: 4096 }, "from 1024 to 4095, got 4096"],
    [{ thinkingBudget: 2048, maxTokens: 1024 }, "thinkingBudget needs maxTokens above 1024"],
    [{ thinkingBudget: 2048, temperature: 0.2 }, "Anthropic takes no temperature but 1 with thinking, got 0.2"],
    [{ thinkingBudget: 2048, toolChoice: "required" as const }, 'toolChoice "auto" or "none" only with thinking'],
    [{ thinkingBudget: 2048, toolChoice: { tool: "read_note" } }, 'toolChoice "auto" or "none" only with thinking'],
    [{ temperature: 1.5 }, "temperature must be a number from 0 to 1, got 1.5"],
  ])("refuses %o when the client is created", (options, message) => {
    const create = () => createAnthropicModel({ apiKey: "test-key", model: "claude-test", ...options });
    expect(create).toThrow(expect.objectContaining({ code: "invalid-model-options", model: "anthropic:claude-test" }));
    expect(create).toThrow(message);
  });
});

describe("createAnthropicModel, programmatic tool calling", () => {
  /** The fixture's programmatic reply, its program calling our real tool. */
  function programReply() {
    const { response } = readProviderFixture("anthropic-messages.programmatic-tool-use.json");
    response.model = "claude-test";
    response.content[2] = {
      type: "tool_use",
      id: "toolu_p1",
      name: "read_note",
      input: { path: "note.txt" },
      caller: { type: "code_execution_20260120", tool_id: "srvtoolu_abc123" },
    };
    return response;
  }

  for (const stream of [false, true]) {
    it(`dispatches a program's call and sends its result back with the container${stream ? " (streaming)" : ""}`, async () => {
      const reply = programReply();
      const final = finalReply("The note says to ship v1 on Friday.");
      const { server, session } = await setup({
        "/v1/messages": stream
          ? [{ sse: anthropicMessageEvents(reply) }, { sse: anthropicMessageEvents(final) }]
          : [{ json: reply }, { json: final }],
      });
      const model = createAnthropicModel({
        apiKey: "test-key",
        model: "claude-test",
        baseURL: server.url,
        maxRetries: 0,
        stream,
        programmaticToolCalling: true,
      });
      const { events, done } = await drain(runAgent({ session, model, prompt: "What does my note say?" }));

      expect(done).toMatchObject({ reason: "completed", turns: 2 });
      const call = events.find((event) => event.type === "tool_call");
      expect(call).toMatchObject({ call: { id: "toolu_p1", caller: { type: "program", id: "srvtoolu_abc123" } } });
      const [first, second] = server.requests.map((request) => request.body);
      const tools = [...anthropic.formatTools([...session.activeTools.values()], { programmaticToolCalling: true })];
      expect(first.tools).toEqual([...tools, ANTHROPIC_CODE_EXECUTION_TOOL]);
      expect(first.container).toBeUndefined();
      expect(second.container).toBe("container_xyz789");
      expect(second.messages[1]).toEqual({ role: "assistant", content: reply.content });
      expect(second.messages[2]).toEqual({
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_p1", content: [{ type: "text", text: "ship v1 on Friday\n" }] },
        ],
      });
      expect(anthropicRequestViolations(first)).toEqual([]);
      expect(anthropicRequestViolations(second)).toEqual([]);
    });
  }

  it("sends no container after a reply that ran in none, and no code execution tool unless asked", async () => {
    const { server, session } = await setup({
      "/v1/messages": [{ json: toolUseReply() }, { json: finalReply("Done.") }],
    });
    const model = createAnthropicModel({
      apiKey: "test-key",
      model: "claude-test",
      baseURL: server.url,
      maxRetries: 0,
    });
    await drain(runAgent({ session, model, prompt: "What does my note say?" }));
    const [first, second] = server.requests.map((request) => request.body);
    expect(
      first.tools.map((tool: { type?: string; allowed_callers?: unknown }) => [tool.type, tool.allowed_callers]),
    ).toEqual([[undefined, undefined]]);
    expect("container" in second).toBe(false);
  });
});
