// The OpenAI-compatible client through the real SDK against a loopback server: Chat Completions and Responses.
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain, eventTrace } from "../../../test/support/agent-harness.js";
import {
  chatCompletionChunks,
  type FakeProviderServer,
  responsesEvents,
  startFakeProvider,
} from "../../../test/support/fake-provider-server.js";
import { readProviderFixture } from "../../../test/support/provider-fixtures.js";
import { openAIResponsesInputViolations } from "../../../test/support/provider-request-rules.js";
import { TOOL_SEARCH_DEFINITION } from "../../core/defer/create-tool-search-tool.js";
import type { ToolDescriptor } from "../../core/types.js";
import { runAgent } from "../../loop/run-agent.js";
import { openaiChat } from "../openai-chat.js";
import { OPENAI_PROGRAMMATIC_TOOL, openaiResponses } from "../openai-responses.js";
import { readChatCompletion } from "./openai-chat-turn.js";
import { createOpenAIModel } from "./openai-model.js";
import type { ToolCallDelta } from "./types.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function setup(replies: Parameters<typeof startFakeProvider>[0]) {
  const server: FakeProviderServer = await startFakeProvider(replies);
  const workspace = await createNoteWorkspace();
  cleanups.push(server.close, workspace.cleanup);
  return { server, ...workspace };
}

/** The fixture's completion, its two calls turned into a good and a malformed call of our real tool. */
function chatToolCallsReply() {
  const { response } = readProviderFixture("openai-chat.tool-calls-response.json");
  const [good, bad] = response.choices[0].message.tool_calls;
  good.function = { name: "read_note", arguments: '{"path":"note.txt"}' };
  bad.function = { name: "read_note", arguments: '{"path": "note.txt"' };
  return response;
}

function chatFinalReply(text: string) {
  return {
    id: "chatcmpl-2",
    object: "chat.completion",
    created: 1741294022,
    model: "gpt-test",
    choices: [
      { index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: text, refusal: null } },
    ],
    usage: {
      prompt_tokens: 120,
      completion_tokens: 9,
      total_tokens: 129,
      prompt_tokens_details: { cached_tokens: 64 },
    },
  };
}

describe("createOpenAIModel (Chat Completions)", () => {
  it("runs the calls through the session and answers each with a tool message, errors prefixed", async () => {
    const { server, session } = await setup({
      "/v1/chat/completions": [{ json: chatToolCallsReply() }, { json: chatFinalReply("It says ship v1 on Friday.") }],
    });
    const model = createOpenAIModel({
      apiKey: "sk-test",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    });
    const { events, done } = await drain(runAgent({ session, model, prompt: "Read my note." }));
    expect(eventTrace(events)).toEqual([
      "turn_start",
      "usage",
      "tool_call:read_note",
      "tool_call:read_note",
      "tool_result:ok",
      "tool_result:error",
      "turn_end",
      "turn_start",
      "model_text_delta",
      "model_text",
      "usage",
      "turn_end",
      "done:completed",
    ]);
    expect(done.usage).toEqual({ inputTokens: 202, outputTokens: 60, cacheReadTokens: 64 });

    const [first, second] = server.requests;
    expect(first?.headers.authorization).toBe("Bearer sk-test");
    expect(first?.body).toEqual({
      model: "gpt-test",
      messages: [
        { role: "system", content: session.baseSystemPrompt },
        { role: "user", content: "Read my note." },
      ],
      tools: openaiChat.formatTools([...session.activeTools.values()]),
    });
    const [, , assistant, okMessage, errorMessage] = second?.body.messages ?? [];
    // The assistant message is echoed with the arguments text exactly as the model wrote it, even when broken.
    expect(assistant).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_12345xyz", type: "function", function: { name: "read_note", arguments: '{"path":"note.txt"}' } },
        { id: "call_67890abc", type: "function", function: { name: "read_note", arguments: '{"path": "note.txt"' } },
      ],
    });
    expect(okMessage).toEqual({ role: "tool", tool_call_id: "call_12345xyz", content: "ship v1 on Friday\n" });
    expect(errorMessage).toMatchObject({ role: "tool", tool_call_id: "call_67890abc" });
    expect(errorMessage.content).toMatch(/^Error: Invalid input for tool read_note: the input is not valid JSON/);
    expect(JSON.stringify(second?.body.tools)).toBe(JSON.stringify(first?.body.tools));
  });

  it("streams text deltas and assembles streamed tool calls when asked to", async () => {
    const toolCalls = chatToolCallsReply();
    toolCalls.choices[0].message.content = "Reading.";
    const { server, session } = await setup({
      "/v1/chat/completions": [
        { sse: chatCompletionChunks(toolCalls) },
        { sse: chatCompletionChunks(chatFinalReply("Friday.")) },
      ],
    });
    const model = createOpenAIModel({
      apiKey: "k",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      stream: true,
      maxRetries: 0,
    });
    const { events, done } = await drain(runAgent({ session, model, prompt: "When?" }));
    const deltas = events.filter((event) => event.type === "model_text_delta").map((event) => event.text);
    expect(deltas).toEqual(["Read", "ing.", "Frid", "ay."]);
    expect(done).toMatchObject({ reason: "completed", usage: { inputTokens: 202, outputTokens: 60 } });
    expect(server.requests[0]?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // The calls were assembled from their pieces and echoed with the arguments text as streamed.
    const [, , assistant, okMessage, errorMessage] = server.requests[1]?.body.messages ?? [];
    expect(assistant.tool_calls.map((call: { function: { arguments: string } }) => call.function.arguments)).toEqual([
      '{"path":"note.txt"}',
      '{"path": "note.txt"',
    ]);
    expect(okMessage.content).toBe("ship v1 on Friday\n");
    expect(errorMessage.content).toMatch(/^Error: Invalid input/);
  });

  it("sends strict tools when strict mode is on", async () => {
    const { server, session } = await setup({ "/v1/chat/completions": [{ json: chatFinalReply("ok") }] });
    const model = createOpenAIModel({
      apiKey: "k",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      strict: true,
      maxRetries: 0,
    });
    await drain(runAgent({ session, model, prompt: "hi" }));
    expect(server.requests[0]?.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "read_note",
          description: "Read a note file from the workspace.",
          parameters: {
            type: "object",
            properties: { path: { type: "string", description: "File name inside the workspace" } },
            required: ["path"],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
  });

  it("works against a local server without an API key", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const { server, session } = await setup({ "/v1/chat/completions": [{ json: chatFinalReply("hello") }] });
      const model = createOpenAIModel({ model: "llama3.1", baseURL: `${server.url}/v1`, maxRetries: 0 });
      const { done } = await drain(runAgent({ session, model, prompt: "hi" }));
      expect(done.reason).toBe("completed");
      expect(server.requests[0]?.body.model).toBe("llama3.1");
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});

describe("readChatCompletion", () => {
  it("echoes only the function calls it parsed, so every echoed call gets a result", () => {
    const turn = readChatCompletion(
      {
        choices: [
          {
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "c1", type: "custom", custom: { name: "grammar_tool", input: "x" } },
                { id: "c2", type: "function", function: { name: "read_note", arguments: "{}" } },
              ],
            },
          },
        ],
      },
      "test",
    );
    expect(turn.toolCalls).toEqual([{ id: "c2", name: "read_note", input: {} }]);
    expect(turn.providerMessage?.value).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c2", type: "function", function: { name: "read_note", arguments: "{}" } }],
    });
  });
});

function responsesFinalReply(text: string) {
  return {
    id: "resp_2",
    object: "response",
    status: "completed",
    model: "gpt-test",
    output: [
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      },
    ],
    usage: { input_tokens: 90, output_tokens: 8, total_tokens: 98 },
  };
}

describe("createOpenAIModel (Responses)", () => {
  function responsesToolCallReply() {
    const { response } = readProviderFixture("openai-responses.function-call-response.json");
    response.output = [
      { type: "reasoning", id: "rs_1", summary: [] },
      {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "read_note",
        arguments: '{"path":"note.txt"}',
        status: "completed",
      },
    ];
    response.usage = { input_tokens: 50, output_tokens: 20, total_tokens: 70 };
    return response;
  }

  it("echoes the output items and answers the call with a function_call_output", async () => {
    const { server, session } = await setup({
      "/v1/responses": [{ json: responsesToolCallReply() }, { json: responsesFinalReply("Ship v1 on Friday.") }],
    });
    const model = createOpenAIModel({
      apiKey: "k",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      api: "responses",
      maxRetries: 0,
    });
    const { events, done } = await drain(runAgent({ session, model, prompt: "Read my note." }));
    expect(eventTrace(events).filter((type) => type.startsWith("tool"))).toEqual([
      "tool_call:read_note",
      "tool_result:ok",
    ]);
    expect(done).toMatchObject({ reason: "completed", usage: { inputTokens: 140, outputTokens: 28 } });
    const [first, second] = server.requests;
    expect(first?.body).toEqual({
      model: "gpt-test",
      instructions: session.baseSystemPrompt,
      input: [{ role: "user", content: "Read my note." }],
      tools: openaiResponses.formatTools([...session.activeTools.values()]),
    });
    expect(first?.body.tools[0].strict).toBe(false);
    expect(second?.body.input).toEqual([
      { role: "user", content: "Read my note." },
      ...responsesToolCallReply().output,
      { type: "function_call_output", call_id: "call_1", output: "ship v1 on Friday\n" },
    ]);
  });
});

describe("createOpenAIModel (Responses), programmatic tool calling", () => {
  /** The fixture's programmatic reply, its program calling our real tool twice. */
  function programReply() {
    const { response } = readProviderFixture("openai-responses.programmatic-function-call.json");
    response.model = "gpt-test";
    response.output[1].name = "read_note";
    response.output[1].arguments = '{"path":"note.txt"}';
    response.output[2].name = "read_note";
    response.output[2].arguments = '{"path":"missing.txt"}';
    return response;
  }

  for (const stream of [false, true]) {
    it(`dispatches a program's calls and answers each with its caller${stream ? " (streaming)" : ""}`, async () => {
      const reply = programReply();
      const final = responsesFinalReply("Ship v1 on Friday.");
      const { server, session } = await setup({
        "/v1/responses": stream
          ? [{ sse: responsesEvents(reply) }, { sse: responsesEvents(final) }]
          : [{ json: reply }, { json: final }],
      });
      const model = createOpenAIModel({
        apiKey: "k",
        model: "gpt-test",
        baseURL: `${server.url}/v1`,
        api: "responses",
        maxRetries: 0,
        stream,
        programmaticToolCalling: true,
      });
      const { events, done } = await drain(runAgent({ session, model, prompt: "Read my note." }));

      expect(done).toMatchObject({ reason: "completed", turns: 2 });
      const callers = events.flatMap((event) => (event.type === "tool_call" ? [event.call.caller] : []));
      expect(callers).toEqual([
        { type: "program", id: "call_prog_1" },
        { type: "program", id: "call_prog_1" },
      ]);
      const [first, second] = server.requests.map((request) => request.body);
      const tools = openaiResponses.formatTools([...session.activeTools.values()], { programmaticToolCalling: true });
      expect(first.tools).toEqual([...tools, OPENAI_PROGRAMMATIC_TOOL]);
      const caller = { type: "program", caller_id: "call_prog_1" };
      expect(second.input.slice(1, 4)).toEqual(reply.output); // the program item, fingerprint and all
      expect(second.input.slice(4)).toEqual([
        { type: "function_call_output", call_id: "call_1", output: "ship v1 on Friday\n", caller },
        { type: "function_call_output", call_id: "call_2", output: expect.stringMatching(/^Error: /), caller },
      ]);
      expect(openAIResponsesInputViolations(second.input)).toEqual([]);
    });
  }
});

describe("createOpenAIModel (Responses), native tool search", () => {
  const lookup = Object.freeze<ToolDescriptor>({
    name: "lookup",
    description: "Look a word up.",
    inputSchema: { type: "object", properties: { word: { type: "string" } } },
    owner: { kind: "core" },
  });
  const searchTool = Object.freeze<ToolDescriptor>({ ...TOOL_SEARCH_DEFINITION, owner: { kind: "core" } });
  const searchItem = {
    type: "tool_search_call",
    id: "tsc_1",
    call_id: "call_s",
    execution: "client",
    status: "completed",
    arguments: { query: "words" },
  };
  const searchReply = { ...responsesFinalReply(""), output: [searchItem] };

  it("reports a streamed tool_search_call as deltas of tool_search, its arguments from the item done", async () => {
    // The item added has no arguments yet; they come whole with the item done (tool search streams no pieces).
    const events = [
      { event: "response.created", data: { type: "response.created", response: { ...searchReply, output: [] } } },
      {
        event: "response.output_item.added",
        data: { type: "response.output_item.added", output_index: 0, item: { ...searchItem, arguments: null } },
      },
      {
        event: "response.output_item.done",
        data: { type: "response.output_item.done", output_index: 0, item: searchItem },
      },
      { event: "response.completed", data: { type: "response.completed", response: searchReply } },
    ];
    const server = await startFakeProvider({ "/v1/responses": [{ sse: events }] });
    cleanups.push(server.close);
    const model = createOpenAIModel({
      apiKey: "k",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      api: "responses",
      maxRetries: 0,
      stream: true,
      nativeToolSearch: true,
    });
    const deltas: ToolCallDelta[] = [];
    const turn = await model.complete({
      systemPrompt: "",
      messages: [{ role: "user", text: "hi" }],
      tools: [searchTool],
      deferredTools: [lookup],
      onToolCallDelta: (delta) => deltas.push(delta),
    });
    expect(turn.toolCalls).toEqual([{ id: "call_s", name: "tool_search", input: { query: "words" } }]);
    expect(turn.stopReason).toBe("tool_use");
    expect(deltas).toEqual([
      { index: 0, id: "call_s", name: "tool_search", argumentsDelta: "" },
      { index: 0, argumentsDelta: '{"query":"words"}' },
    ]);
  });

  it("sends the provider-neutral form when nativeToolSearch is off, whatever deferredTools holds", async () => {
    const server = await startFakeProvider({ "/v1/responses": [{ json: responsesFinalReply("ok") }] });
    cleanups.push(server.close);
    const model = createOpenAIModel({
      apiKey: "k",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      api: "responses",
      maxRetries: 0,
    });
    await model.complete({
      systemPrompt: "",
      messages: [{ role: "user", text: "hi" }],
      tools: [searchTool],
      deferredTools: [lookup],
    });
    expect(server.requests[0]?.body.tools).toEqual(openaiResponses.formatTools([searchTool]));
  });
});

describe("createOpenAIModel, reasoning effort", () => {
  const hi = { systemPrompt: "", messages: [{ role: "user" as const, text: "hi" }], tools: [] };

  it("sends maxTokens over Chat as max_completion_tokens to reasoning models, which refuse max_tokens", async () => {
    const models = ["o1-mini", "o3", "o4-mini", "gpt-5", "gpt-5.1-codex", "gpt-4.1", "llama3.1"];
    const server = await startFakeProvider({
      "/v1/chat/completions": models.map(() => ({ json: chatFinalReply("ok") })),
    });
    cleanups.push(server.close);
    for (const model of models) {
      await createOpenAIModel({ apiKey: "test-key", model, baseURL: `${server.url}/v1`, maxTokens: 300 }).complete(hi);
    }
    const fields = server.requests.map(({ body }) => ({
      model: body.model,
      max_tokens: body.max_tokens,
      max_completion_tokens: body.max_completion_tokens,
    }));
    expect(fields).toEqual([
      { model: "o1-mini", max_tokens: undefined, max_completion_tokens: 300 },
      { model: "o3", max_tokens: undefined, max_completion_tokens: 300 },
      { model: "o4-mini", max_tokens: undefined, max_completion_tokens: 300 },
      { model: "gpt-5", max_tokens: undefined, max_completion_tokens: 300 },
      { model: "gpt-5.1-codex", max_tokens: undefined, max_completion_tokens: 300 },
      { model: "gpt-4.1", max_tokens: 300, max_completion_tokens: undefined },
      { model: "llama3.1", max_tokens: 300, max_completion_tokens: undefined },
    ]);
  });

  it("sends reasoningEffort as reasoning_effort over Chat and as reasoning.effort over Responses", async () => {
    const server = await startFakeProvider({
      "/v1/chat/completions": [{ json: chatFinalReply("ok") }],
      "/v1/responses": [{ json: responsesFinalReply("ok") }],
    });
    cleanups.push(server.close);
    const common = {
      apiKey: "test-key",
      model: "gpt-test",
      baseURL: `${server.url}/v1`,
      reasoningEffort: "high",
    } as const;
    await createOpenAIModel(common).complete(hi);
    // extraBody merges into reasoning key by key: the effort stays.
    await createOpenAIModel({ ...common, api: "responses", extraBody: { reasoning: { summary: "auto" } } }).complete(
      hi,
    );
    const [chat, responses] = server.requests.map((request) => request.body);
    expect(chat.reasoning_effort).toBe("high");
    expect(responses.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(responses.reasoning_effort).toBeUndefined();
  });

  it.each([
    [{ reasoningEffort: "hihg" }, 'reasoningEffort must be one of none, minimal, low, medium, high, xhigh, got "hihg"'],
    [{ stopSequences: ["a", "b", "c", "d", "e"] }, "stopSequences takes at most 4 sequences here, got 5"],
    [{ api: "responses", stopSequences: ["END"] }, "the Responses API has none"],
  ])("refuses %o when the client is created", (options, message) => {
    const create = () => createOpenAIModel({ apiKey: "test-key", model: "gpt-test", ...(options as object) });
    expect(create).toThrow(expect.objectContaining({ code: "invalid-model-options" }));
    expect(create).toThrow(message);
  });

  it("does not repeat a long value in its message: it may be a key pasted into the wrong option", () => {
    const key = "sk-proj-0123456789abcdefghijklmnopqrstuvwxyz";
    const create = () => createOpenAIModel({ model: "gpt-test", reasoningEffort: key as "high" });
    expect(create).toThrow("got text of 44 characters");
    expect(create).not.toThrow(key.slice(0, 12));
  });
});
