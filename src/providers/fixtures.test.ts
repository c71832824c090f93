// Every provider fixture round-trips: tools out, calls in, the assistant turn echoed, results out, as the wire shows.
import { describe, expect, it } from "vitest";
import { startFakeProvider } from "../../test/support/fake-provider-server.js";
import { providerFixtureNames, readProviderFixture } from "../../test/support/provider-fixtures.js";
import {
  anthropicRequestViolations,
  openAIResponsesInputViolations,
} from "../../test/support/provider-request-rules.js";
import type { JsonObject, ToolDescriptor, ToolResultBlock } from "../core/types.js";
import { ANTHROPIC_CODE_EXECUTION_TOOL, anthropic } from "./anthropic.js";
import { anthropicRequestBody, readAnthropicMessage, toAnthropicMessages } from "./clients/anthropic-model.js";
import { createGeminiModel, readGeminiResponse, toGeminiContents } from "./clients/gemini-model.js";
import { readChatCompletion, toChatMessages } from "./clients/openai-chat-turn.js";
import { readResponse, toResponsesInput } from "./clients/openai-responses-turn.js";
import type { TranscriptMessage } from "./clients/types.js";
import { gemini } from "./gemini.js";
import { openaiChat } from "./openai-chat.js";
import { formatResponsesToolSearch, OPENAI_PROGRAMMATIC_TOOL, openaiResponses } from "./openai-responses.js";

// biome-ignore lint/suspicious/noExplicitAny: reading wire shapes back
type Any = any;

function descriptor(name: string, description: string, inputSchema: JsonObject): ToolDescriptor {
  return Object.freeze({ name, description, inputSchema, owner: { kind: "core" as const } });
}

function textResult(id: string, text: string, isError = false): ToolResultBlock {
  return isError
    ? { type: "tool_result", tool_use_id: id, content: [{ type: "text", text }], is_error: true }
    : { type: "tool_result", tool_use_id: id, content: [{ type: "text", text }] };
}

function withoutKey(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** The same JSON text: the bytes a provider's prompt cache compares, key order included. */
function sameBytes(actual: unknown, expected: unknown): void {
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/** What each fixture proves; a fixture not listed here fails the coverage test below. */
const ROUND_TRIPS: Record<string, () => void | Promise<void>> = {
  "anthropic-messages.programmatic-tool-use.json": () => {
    const fixture = readProviderFixture("anthropic-messages.programmatic-tool-use.json");
    const { request, response, next_request, final_response, direct_tool_use } = fixture;
    const [tool] = request.tools;
    const query = descriptor(tool.name, tool.description, tool.input_schema);
    const options = { model: request.model, maxTokens: request.max_tokens, programmaticToolCalling: true };
    const prompt: TranscriptMessage = { role: "user", text: request.messages[0].content };
    const first = anthropicRequestBody(options, { systemPrompt: "", messages: [prompt], tools: [query] });
    sameBytes(first, request);
    sameBytes(anthropic.formatTools([query], { programmaticToolCalling: true }), [tool]);
    expect(request.tools[1]).toEqual(ANTHROPIC_CODE_EXECUTION_TOOL);

    const turn = readAnthropicMessage(response, "test");
    expect(turn.toolCalls).toEqual([
      {
        id: "toolu_def456",
        name: "query_database",
        input: { sql: "SELECT SUM(revenue) AS revenue FROM sales WHERE region = 'West'" },
        caller: { type: "program", id: "srvtoolu_abc123" },
      },
    ]);
    expect(turn).toMatchObject({ stopReason: "tool_use", providerMessage: { container: "container_xyz789" } });
    const transcript: TranscriptMessage[] = [
      prompt,
      { role: "assistant", text: turn.text, toolCalls: turn.toolCalls, providerMessage: turn.providerMessage },
      { role: "tool", results: [textResult("toolu_def456", '[{"revenue": 45000}]')] },
    ];
    const next = anthropicRequestBody(options, { systemPrompt: "", messages: transcript, tools: [query] });
    // The assistant content goes back exactly as sent (the program's server_tool_use, the caller), and the container.
    expect(next).toEqual({
      ...next_request,
      tools: request.tools,
      messages: [next_request.messages[0], { role: "assistant", content: response.content }, next_request.messages[2]],
    });
    expect(anthropicRequestViolations(next)).toEqual([]);
    // The rules hold what the docs say: no container, or a text block beside the results, is refused.
    expect(anthropicRequestViolations({ ...next, container: undefined })).toEqual([
      "messages[2]: a program waits for these results and the request names no container",
    ]);
    const chatty = { role: "user", content: [...(next.messages as Any)[2].content, { type: "text", text: "Next?" }] };
    expect(anthropicRequestViolations({ ...next, messages: [...(next.messages as Any).slice(0, 2), chatty] })).toEqual([
      "messages[2]: answering a program's calls, only tool_result blocks may be sent",
    ]);

    // The program ends: its result comes in the content (no call to answer) and is echoed the next time as it came.
    const end = readAnthropicMessage(final_response, "test");
    expect(end).toMatchObject({ toolCalls: [], stopReason: "end", text: final_response.content[1].text });
    const after = anthropicRequestBody(options, {
      systemPrompt: "",
      messages: [
        ...transcript,
        { role: "assistant", text: end.text, toolCalls: [], providerMessage: end.providerMessage },
      ],
      tools: [query],
    });
    expect((after.messages as Any)[3]).toEqual({ role: "assistant", content: final_response.content });
    expect(anthropicRequestViolations(after)).toEqual([]);

    // The model's own call of the same tool: caller direct, answered as any call is.
    const direct = anthropic.parseToolCalls({ content: [direct_tool_use] });
    expect(direct).toEqual([
      { id: "toolu_direct01", name: "query_database", input: { sql: "SELECT 1" }, caller: { type: "direct" } },
    ]);
    expect(anthropic.formatToolResults([textResult("toolu_direct01", "1")], direct)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_direct01", content: [{ type: "text", text: "1" }] }],
    });
  },

  "openai-responses.programmatic-function-call.json": () => {
    const { request, response, next_input } = readProviderFixture("openai-responses.programmatic-function-call.json");
    const [fn, programmatic] = request.tools;
    const weather = descriptor(
      fn.name,
      fn.description,
      withoutKey(fn.parameters, "additionalProperties") as JsonObject,
    );
    sameBytes(openaiResponses.formatTools([weather], { strict: true, programmaticToolCalling: true }), [fn]);
    expect(programmatic).toEqual(OPENAI_PROGRAMMATIC_TOOL);

    const turn = readResponse(response, "test");
    expect(turn.stopReason).toBe("tool_use");
    expect(turn.toolCalls).toEqual([
      {
        id: "call_1",
        name: "get_weather",
        input: { location: "Paris, France" },
        caller: { type: "program", id: "call_prog_1" },
      },
      {
        id: "call_2",
        name: "get_weather",
        input: { location: "Bogotá, Colombia" },
        caller: { type: "program", id: "call_prog_1" },
      },
    ]);
    const input = toResponsesInput([
      { role: "user", text: request.input[0].content },
      { role: "assistant", text: turn.text, toolCalls: turn.toolCalls, providerMessage: turn.providerMessage },
      {
        role: "tool",
        results: [textResult("call_1", "14"), textResult("call_2", "weather service timed out", true)],
      },
    ]);
    // The output items go back as sent (the program item with its fingerprint); each output names its call's caller.
    expect(input).toEqual([next_input[0], ...response.output, ...next_input.slice(2)]);
    expect(openAIResponsesInputViolations(input)).toEqual([]);
    expect(
      openAIResponsesInputViolations([
        ...response.output,
        { type: "function_call_output", call_id: "call_1", output: "14" },
      ]),
    ).toEqual(["input[3]: call_1 answers a program's call without its caller"]);
  },

  "anthropic-messages.tool-search-request.json": () => {
    const { request } = readProviderFixture("anthropic-messages.tool-search-request.json");
    const tools: ToolDescriptor[] = request.tools.map((tool: Any) =>
      descriptor(tool.name, tool.description, tool.input_schema),
    );
    const upFront = tools.slice(0, 2);
    const deferred = tools.slice(2);
    sameBytes(
      [...anthropic.formatTools(upFront), ...anthropic.formatTools(deferred, { deferLoading: true })],
      request.tools,
    );
    const assistant = request.messages[1];
    const calls = anthropic.parseToolCalls(assistant);
    expect(calls).toEqual([{ id: "toolu_01SearchAbc", name: "tool_search", input: { query: "weather" } }]);
    // What toolwire's tool_search answers, in its pinned format: the adapter reads the names from it.
    const listing = textResult("toolu_01SearchAbc", "get_weather: Get the current weather in a given location.");
    const transcript: TranscriptMessage[] = [
      { role: "user", text: request.messages[0].content },
      { role: "assistant", text: assistant.content[0].text, toolCalls: calls },
      { role: "tool", results: [listing] },
    ];
    expect(toAnthropicMessages(transcript, { toolSearch: { deferredTools: deferred } })).toEqual(request.messages);
  },

  "openai-responses.tool-search-output-request.json": () => {
    const { request } = readProviderFixture("openai-responses.tool-search-output-request.json");
    const [time, search, ...deferredTools] = request.tools;
    const asDescriptor = (tool: Any) => descriptor(tool.name ?? "tool_search", tool.description, tool.parameters);
    const deferred = deferredTools.map(asDescriptor);
    sameBytes(
      [
        ...openaiResponses.formatTools([asDescriptor(time)]),
        formatResponsesToolSearch(asDescriptor(search)),
        ...openaiResponses.formatTools(deferred, { deferLoading: true }),
      ],
      request.tools,
    );
    const searchCall = request.input[1];
    const calls = openaiResponses.parseToolCalls([searchCall]);
    expect(calls).toEqual([{ id: "call_search_1", name: "tool_search", input: { query: "weather" } }]);
    const listing = textResult("call_search_1", "get_weather: Get current temperature for a given location.");
    const transcript: TranscriptMessage[] = [
      { role: "user", text: request.input[0].content },
      {
        role: "assistant",
        text: "",
        toolCalls: calls,
        providerMessage: { provider: "openai-responses", value: [searchCall] },
      },
      { role: "tool", results: [listing] },
    ];
    const input = toResponsesInput(transcript, { toolSearch: { deferredTools: deferred } });
    expect(input).toEqual(request.input);
    sameBytes(input[2], request.input[2]); // the found tool's definition, byte for byte
  },

  "anthropic-messages.tool-use-response.json": () => {
    const { response } = readProviderFixture("anthropic-messages.tool-use-response.json");
    const calls = anthropic.parseToolCalls(response);
    expect(calls).toEqual([
      {
        id: "toolu_01A09q90qw90lq917835lq9",
        name: "get_weather",
        input: { location: "San Francisco, CA", unit: "celsius" },
      },
    ]);
    const turn = readAnthropicMessage(response, "test");
    expect(turn).toMatchObject({ text: response.content[0].text, stopReason: "tool_use", rawStopReason: "tool_use" });
    expect(turn.usage).toMatchObject({ inputTokens: 384, outputTokens: 70 });
    // The next request echoes the assistant content exactly as sent.
    const [, assistant] = toAnthropicMessages([
      { role: "user", text: "hi" },
      { role: "assistant", text: turn.text, toolCalls: turn.toolCalls, providerMessage: turn.providerMessage },
    ]);
    expect(assistant).toEqual({ role: "assistant", content: response.content });
  },

  "anthropic-messages.tool-result-request.json": () => {
    const fixture = readProviderFixture("anthropic-messages.tool-result-request.json");
    const { request } = fixture;
    const tool = request.tools[0];
    expect(anthropic.formatTools([descriptor(tool.name, tool.description, tool.input_schema)])).toEqual(request.tools);
    const assistant = request.messages[1];
    const calls = anthropic.parseToolCalls(assistant);
    const results = [textResult(calls[0]?.id ?? "", "15 degrees, partly cloudy")];
    const transcript: TranscriptMessage[] = [
      { role: "user", text: request.messages[0].content },
      { role: "assistant", text: assistant.content[0].text, toolCalls: calls },
      { role: "tool", results },
    ];
    const messages = toAnthropicMessages(transcript) as { role: string; content: unknown[] }[];
    expect(messages.slice(0, 2)).toEqual(request.messages.slice(0, 2)); // rebuilt from text and calls alone
    // The fixture's user message adds a text block after the tool_result; toolwire sends the tool_result itself.
    expect(messages[2]).toEqual({ role: "user", content: [request.messages[2].content[0]] });
    const [asString, asTextList, , withoutContent] = fixture.variants_of_tool_result_content;
    const formatted = anthropic.formatToolResults([textResult(asString.tool_use_id, asString.content)], calls) as {
      content: unknown[];
    };
    expect(formatted.content[0]).toEqual(asTextList);
    const empty = anthropic.formatToolResults(
      [{ type: "tool_result", tool_use_id: withoutContent.tool_use_id, content: [] }],
      calls,
    ) as { content: unknown[] };
    expect(empty.content[0]).toEqual(withoutContent);
  },

  "anthropic-messages.parallel-tool-use.json": () => {
    const { assistant_turn, next_user_turn } = readProviderFixture("anthropic-messages.parallel-tool-use.json");
    const calls = anthropic.parseToolCalls(assistant_turn);
    expect(calls.map((call) => call.id)).toEqual(["toolu_01", "toolu_02", "toolu_03"]);
    // Results arrive in another order; the message answers the calls in their order, errors flagged.
    const expected = next_user_turn.content as { tool_use_id: string; content: string; is_error?: boolean }[];
    const results = [...expected]
      .reverse()
      .map((block) => textResult(block.tool_use_id, block.content, block.is_error === true));
    const message = anthropic.formatToolResults(results, calls);
    // The fixture sends content as a string; toolwire always sends the equivalent list of text blocks.
    expect(message).toEqual({
      role: "user",
      content: expected.map((block) => ({ ...block, content: [{ type: "text", text: block.content }] })),
    });
  },

  "anthropic-messages.tool-choice.json": () => {
    // tool_choice is a request option the adapters do not set; what they must not break is that every listed
    // value names a tool by the name formatTools sends.
    const { tool_choice_values } = readProviderFixture("anthropic-messages.tool-choice.json");
    const [tool] = anthropic.formatTools([descriptor("get_weather", "Weather", { type: "object" })]) as {
      name: string;
    }[];
    for (const choice of tool_choice_values as { type: string; name?: string }[]) {
      if (choice.type === "tool") expect(choice.name).toBe(tool?.name);
    }
  },

  "openai-chat.tool-calls-response.json": () => {
    const { response } = readProviderFixture("openai-chat.tool-calls-response.json");
    const calls = openaiChat.parseToolCalls(response);
    expect(calls).toEqual([
      { id: "call_12345xyz", name: "get_weather", input: { location: "Paris, France" } },
      { id: "call_67890abc", name: "get_weather", input: { location: "Bogotá, Colombia" } },
    ]);
    const turn = readChatCompletion(response, "test");
    expect(turn).toMatchObject({ text: "", stopReason: "tool_use", usage: { inputTokens: 82, outputTokens: 51 } });
    const { request } = readProviderFixture("openai-chat.tool-result-request.json");
    const [, assistant] = toChatMessages([
      { role: "user", text: "hi" },
      { role: "assistant", text: turn.text, toolCalls: turn.toolCalls, providerMessage: turn.providerMessage },
    ]);
    expect(assistant).toEqual(request.messages[1]);
  },

  "openai-chat.tool-result-request.json": () => {
    const { request } = readProviderFixture("openai-chat.tool-result-request.json");
    const fn = request.tools[0].function;
    // Strict mode adds what the fixture's schema has: additionalProperties false, every property required.
    const loose = descriptor(fn.name, fn.description, withoutKey(fn.parameters, "additionalProperties") as JsonObject);
    expect(openaiChat.formatTools([loose], { strict: true })).toEqual(request.tools);
    const calls = openaiChat.parseToolCalls(request.messages[1]);
    const transcript: TranscriptMessage[] = [
      { role: "user", text: request.messages[0].content },
      { role: "assistant", text: "", toolCalls: calls },
      {
        role: "tool",
        results: [
          textResult(calls[0]?.id ?? "", "14"),
          textResult(calls[1]?.id ?? "", "weather service timed out", true),
        ],
      },
    ];
    expect(toChatMessages(transcript)).toEqual(request.messages); // rebuilt from text and calls alone
  },

  "openai-responses.function-call-response.json": () => {
    const { response } = readProviderFixture("openai-responses.function-call-response.json");
    const calls = openaiResponses.parseToolCalls(response);
    expect(calls).toEqual([
      { id: "call_12345xyz", name: "get_weather", input: { location: "Paris, France" } },
      { id: "call_67890abc", name: "get_weather", input: { location: "Bogotá, Colombia" } },
    ]);
    const fn = response.tools[0];
    const loose = descriptor(fn.name, fn.description, withoutKey(fn.parameters, "additionalProperties") as JsonObject);
    expect(openaiResponses.formatTools([loose], { strict: true })).toEqual(response.tools);
    const turn = readResponse(response, "test");
    expect(turn.stopReason).toBe("tool_use");
    const { request } = readProviderFixture("openai-responses.function-call-output-request.json");
    const input = toResponsesInput([
      { role: "user", text: request.input[0].content },
      { role: "assistant", text: turn.text, toolCalls: turn.toolCalls, providerMessage: turn.providerMessage },
    ]) as Record<string, unknown>[];
    // The output items are echoed as sent; the fixture's request shows them without their `status`.
    expect(input.map((item) => withoutKey(item, "status"))).toEqual(request.input.slice(0, 3));
  },

  "openai-responses.function-call-output-request.json": () => {
    const { request } = readProviderFixture("openai-responses.function-call-output-request.json");
    const fn = request.tools[0];
    expect(openaiResponses.formatTools([descriptor(fn.name, fn.description, fn.parameters)], { strict: true })).toEqual(
      request.tools,
    );
    const calls = openaiResponses.parseToolCalls(request.input);
    const transcript: TranscriptMessage[] = [
      { role: "user", text: request.input[0].content },
      { role: "assistant", text: "", toolCalls: calls },
      {
        role: "tool",
        results: [textResult("call_12345xyz", "14"), textResult("call_67890abc", "weather service timed out", true)],
      },
    ];
    const input = toResponsesInput(transcript) as Record<string, unknown>[];
    // Rebuilt calls carry no item id (`fc_...`); the output is text, the fixture's second one a list of input_text.
    expect(input.slice(1, 3)).toEqual(
      request.input.slice(1, 3).map((item: Record<string, unknown>) => withoutKey(item, "id")),
    );
    expect(input[3]).toEqual(request.input[3]);
    const [{ text }] = request.input[4].output;
    expect(input[4]).toEqual({ type: "function_call_output", call_id: "call_67890abc", output: text });
  },

  "gemini.function-call-response.json": () => {
    const { response } = readProviderFixture("gemini.function-call-response.json");
    const calls = gemini.parseToolCalls(response);
    expect(calls.map(({ name, input }) => ({ name, input }))).toEqual([
      { name: "get_weather", input: { location: "Paris, France" } },
      { name: "get_weather", input: { location: "Bogotá, Colombia" } },
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2); // made up, unique within the response
    const turn = readGeminiResponse(response, "test");
    expect(turn).toMatchObject({ text: "", stopReason: "tool_use", rawStopReason: "STOP" });
    expect(turn.usage).toEqual({ inputTokens: 29, outputTokens: 15, cacheReadTokens: 0 });
    // The next request echoes the model's content exactly as sent, thought signature included; no made-up id.
    const [, model, results] = toGeminiContents([
      { role: "user", text: "hi" },
      { role: "assistant", text: turn.text, toolCalls: turn.toolCalls, providerMessage: turn.providerMessage },
      { role: "tool", results: turn.toolCalls.map((call) => textResult(call.id, "14 degrees")) },
    ]) as Record<string, Any>[];
    expect(model).toEqual(response.candidates[0].content);
    expect(results?.parts.map((part: Any) => part.functionResponse.id)).toEqual([undefined, undefined]);
  },

  "gemini.stream-response.json": async () => {
    const { chunks, assembled } = readProviderFixture("gemini.stream-response.json");
    const server = await startFakeProvider({
      "/v1beta/models/gemini-test:streamGenerateContent": [{ sse: chunks.map((data: unknown) => ({ data })) }],
      "/v1beta/models/gemini-test:generateContent": [{ json: assembled }],
    });
    try {
      const request = { systemPrompt: "", messages: [{ role: "user" as const, text: "Weather in Paris?" }], tools: [] };
      const client = (stream: boolean) =>
        createGeminiModel({ model: "gemini-test", apiKey: "k", baseURL: server.url, maxRetries: 0, stream });
      const texts: string[] = [];
      const deltas: unknown[] = [];
      const streamed = await client(true).complete({
        ...request,
        onTextDelta: (text) => texts.push(text),
        onToolCallDelta: (delta) => deltas.push(delta),
      });
      const whole = await client(false).complete(request);
      // Made-up ids differ from one reading to the next; everything else is the same.
      const withoutIds = (turn: typeof whole) => ({
        ...turn,
        toolCalls: turn.toolCalls.map(({ id: _id, ...call }) => call),
      });
      expect(withoutIds(streamed)).toEqual(withoutIds(whole));
      expect(streamed).toMatchObject({
        text: "Let me check the weather in Paris.",
        stopReason: "tool_use",
        usage: { inputTokens: 61, outputTokens: 24 + 87, cacheReadTokens: 32 },
        providerMessage: { provider: "gemini", value: assembled.candidates[0].content },
      });
      expect(texts).toEqual(["Let me check the weather ", "in Paris."]);
      expect(deltas).toEqual([{ index: 0, name: "get_weather", argumentsDelta: '{"location":"Paris, France"}' }]);
    } finally {
      await server.close();
    }
  },

  "gemini.function-response-request.json": () => {
    const { request } = readProviderFixture("gemini.function-response-request.json");
    const declaration = request.tools[0].functionDeclarations[0];
    expect(gemini.formatTools([descriptor(declaration.name, declaration.description, declaration.parameters)])).toEqual(
      request.tools,
    );
    const calls = gemini.parseToolCalls(request.contents[1]);
    const [first, second] = calls;
    const message = gemini.formatToolResults(
      [
        textResult(first?.id ?? "", JSON.stringify({ temperature_c: 14 })),
        textResult(second?.id ?? "", "weather service timed out", true),
      ],
      calls,
    ) as { role: string; parts: { functionResponse: { response: { output?: string } } }[] };
    const expected = request.contents[2];
    expect(message.role).toBe(expected.role);
    // No id: Gemini gave none. The error part is exact; toolwire's output is the tool's text (here JSON text).
    expect(message.parts[1]).toEqual(expected.parts[1]);
    const output = message.parts[0]?.functionResponse.response.output ?? "";
    expect({
      functionResponse: { ...message.parts[0]?.functionResponse, response: { output: JSON.parse(output) } },
    }).toEqual(expected.parts[0]);
  },
};

describe("provider fixtures", () => {
  it("has a round trip for every provider fixture", () => {
    expect(Object.keys(ROUND_TRIPS).sort()).toEqual(providerFixtureNames());
  });

  for (const [name, check] of Object.entries(ROUND_TRIPS)) {
    it(`round-trips ${name}`, check);
  }
});
