// One suite, every model client (Hono's common.case pattern): the same behaviours on each wire, streamed and not.
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain, eventTrace } from "../../../test/support/agent-harness.js";
import {
  anthropicMessageEvents,
  chatCompletionChunks,
  type FakeEvent,
  type FakeProviderServer,
  type FakeReply,
  geminiStreamChunks,
  responsesEvents,
  startFakeProvider,
} from "../../../test/support/fake-provider-server.js";
import { freePort } from "../../../test/support/free-port.js";
import { defineTool } from "../../core/register/define-tool.js";
import { runAgent } from "../../loop/run-agent.js";
import type { AgentEvent } from "../../loop/types.js";
import { ModelError } from "../errors.js";
import { createAnthropicModel } from "./anthropic-model.js";
import { createGeminiModel } from "./gemini-model.js";
import { createOpenAIModel } from "./openai-model.js";
import { createScriptedModel, type ScriptedTurn } from "./scripted-model.js";
import type { ModelClient, ModelRequest, ToolCallDelta } from "./types.js";

// biome-ignore lint/suspicious/noExplicitAny: reading wire shapes back
type Any = any;

/** A turn as the tests write it; each wire format puts it in its own shape. */
interface WireTurn {
  readonly text: string;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown> }[];
  readonly usage: { readonly input: number; readonly output: number };
}

/** A tool result read back from the request that carried it. */
interface SentResult {
  readonly id: string | undefined;
  readonly text: string;
  readonly isError: boolean;
}

/** One provider's wire, as a loopback server speaks it. */
interface WireFormat {
  readonly name: string;
  path(stream: boolean): string;
  /** The client; `extra` goes into its options as is (the generation options). */
  client(url: string, options: { stream: boolean; maxRetries: number }, extra?: Record<string, unknown>): ModelClient;
  /**
   * Every shared generation option this wire takes (with an `extraBody`), and a check of the body that carries them.
   */
  readonly generation: { readonly options: Record<string, unknown>; expectIn(body: Any): void };
  /** How the body says which tools the model may call, when it says (`tool_choice`, `toolConfig`). */
  toolChoiceOf(body: Any): unknown;
  /** The whole response body a non-streamed request gets for this turn. */
  body(turn: WireTurn): Any;
  /** The same body as the server-sent events of a streamed reply. */
  events(body: Any): FakeEvent[];
  /** How many of those events come before the first piece of text has been sent (and one more). */
  readonly eventsThroughFirstText: number;
  /** An error body with this message, as the API sends one. */
  errorBody(status: number, message: string): unknown;
  /** The event a stream that began well sends when the server fails, with this message. */
  streamError(message: string): FakeEvent;
  /** The assistant message the next request echoes, read from that request's body. */
  echoed(request: Any): unknown;
  /** What that echo must be for the reply that was sent. */
  expectedEcho(reply: Any): unknown;
  /** The tool results a request sends back, in order. */
  results(request: Any): SentResult[];
  /** Provider-native tool search, for the wires that have one. */
  readonly nativeSearch?: NativeSearchWire;
}

/** How a wire with provider-native tool search is driven and checked. */
interface NativeSearchWire {
  /** The client with `nativeToolSearch: true`. */
  client(url: string, options: { stream: boolean }): ModelClient;
  /** The body of a turn whose one call (a `tool_search` call) the model makes the provider's native way. */
  searchBody(turn: WireTurn): Any;
  /** Checks the bodies of the three requests: search, call the found tool, finish. */
  check(bodies: readonly Any[], searchReply: Any): void;
}

/** A deferred tool the model finds with tool_search, then calls. */
const getWeather = defineTool({
  name: "get_weather",
  description: "Current weather for a city.\nIn degrees Celsius.",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  defer: true,
  execute: ({ city }) => `Sunny in ${String(city)}, 21 degrees.`,
});
/** A deferred tool no search finds: sent deferred all the same. */
const getQuote = defineTool({
  name: "get_quote",
  description: "A stock quote by ticker symbol.",
  inputSchema: { type: "object", properties: { ticker: { type: "string" } } },
  defer: true,
  execute: () => "101.5",
});

const U = { input: 10, output: 5 } as const;

const NATIVE_SEARCH: readonly WireTurn[] = [
  { text: "Searching.", calls: [{ id: "call_s", name: "tool_search", args: { query: "weather" } }], usage: U },
  { text: "Asking.", calls: [{ id: "call_w", name: "get_weather", args: { city: "Paris" } }], usage: U },
  { text: "Sunny, 21 degrees.", calls: [], usage: U },
];

const ROUND_TRIP: readonly WireTurn[] = [
  {
    text: "Reading the note.",
    calls: [
      { id: "call_1", name: "read_note", args: { path: "note.txt" } },
      { id: "call_2", name: "no_such_tool", args: {} },
    ],
    usage: { input: 100, output: 20 },
  },
  { text: "It says to ship v1 on Friday.", calls: [], usage: { input: 150, output: 10 } },
];

/** The generation options every wire takes the same way. */
const SHARED_OPTIONS = { temperature: 0.5, toolChoice: { tool: "read_note" } } as const;

const readNote = defineTool({
  name: "read_note",
  description: "Read a note.",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
  execute: () => "ship v1 on Friday",
});

const joinedText = (parts: Any[]) =>
  parts
    .filter((part: Any) => part.type === "text")
    .map((part: Any) => part.text)
    .join("\n");

const FORMATS: readonly WireFormat[] = [
  {
    name: "anthropic",
    path: () => "/v1/messages",
    client: (url, { stream, maxRetries }, extra) =>
      createAnthropicModel({ apiKey: "test-key", model: "claude-test", baseURL: url, maxRetries, stream, ...extra }),
    generation: {
      options: { ...SHARED_OPTIONS, stopSequences: ["END"], extraBody: { metadata: { user_id: "user-1" } } },
      expectIn: (body) =>
        expect(body).toMatchObject({
          temperature: 0.5,
          tool_choice: { type: "tool", name: "read_note" },
          stop_sequences: ["END"],
          metadata: { user_id: "user-1" },
        }),
    },
    toolChoiceOf: (body) => body.tool_choice,
    body: (turn) => ({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [
        { type: "text", text: turn.text },
        ...turn.calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
      ],
      stop_reason: turn.calls.length > 0 ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: turn.usage.input, output_tokens: turn.usage.output },
    }),
    events: anthropicMessageEvents,
    eventsThroughFirstText: 3,
    errorBody: (_status, message) => ({ type: "error", error: { type: "invalid_request_error", message } }),
    streamError: (message) => ({
      event: "error",
      data: { type: "error", error: { type: "overloaded_error", message } },
    }),
    echoed: (request) => request.messages[1],
    expectedEcho: (reply) => ({ role: "assistant", content: reply.content }),
    results: (request) =>
      request.messages.at(-1).content.map((block: Any) => ({
        id: block.tool_use_id,
        text: joinedText(block.content),
        isError: block.is_error === true,
      })),
    nativeSearch: {
      client: (url, { stream }) =>
        createAnthropicModel({
          apiKey: "test-key",
          model: "claude-test",
          baseURL: url,
          maxRetries: 0,
          stream,
          nativeToolSearch: true,
        }),
      searchBody: (turn) => FORMATS[0]?.body(turn),
      check: (bodies) => {
        const [first, second, third] = bodies;
        expect(first.tools.map((tool: Any) => [tool.name, tool.defer_loading])).toEqual([
          ["read_note", undefined],
          ["tool_search", undefined],
          ["get_quote", true], // the registry's order, which is by name
          ["get_weather", true],
        ]);
        // Found or not, the tools are the same bytes on every request: the prompt cache keeps them.
        expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
        expect(JSON.stringify(third.tools)).toBe(JSON.stringify(first.tools));
        expect(second.messages.at(-1)).toEqual({
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "call_s",
              content: [{ type: "tool_reference", tool_name: "get_weather" }],
            },
          ],
        });
        expect(third.messages.at(-3)).toEqual(second.messages.at(-1)); // the search's result, as sent before
        expect(third.messages.at(-1).content[0]).toMatchObject({ tool_use_id: "call_w" });
        expect(joinedText(third.messages.at(-1).content[0].content)).toBe("Sunny in Paris, 21 degrees.");
      },
    },
  },
  {
    name: "openai-chat",
    path: () => "/v1/chat/completions",
    client: (url, { stream, maxRetries }, extra) =>
      createOpenAIModel({ apiKey: "test-key", model: "gpt-test", baseURL: `${url}/v1`, maxRetries, stream, ...extra }),
    generation: {
      options: { ...SHARED_OPTIONS, stopSequences: ["END"], extraBody: { user: "user-1" } },
      expectIn: (body) =>
        expect(body).toMatchObject({
          temperature: 0.5,
          tool_choice: { type: "function", function: { name: "read_note" } },
          stop: ["END"],
          user: "user-1",
        }),
    },
    toolChoiceOf: (body) => body.tool_choice,
    body: (turn) => ({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1741294021,
      model: "gpt-test",
      choices: [
        {
          index: 0,
          finish_reason: turn.calls.length > 0 ? "tool_calls" : "stop",
          logprobs: null,
          message: {
            role: "assistant",
            content: turn.text,
            refusal: null,
            ...(turn.calls.length === 0
              ? {}
              : {
                  tool_calls: turn.calls.map((call) => ({
                    id: call.id,
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.args) },
                  })),
                }),
          },
        },
      ],
      usage: {
        prompt_tokens: turn.usage.input,
        completion_tokens: turn.usage.output,
        total_tokens: turn.usage.input + turn.usage.output,
      },
    }),
    events: chatCompletionChunks,
    eventsThroughFirstText: 2,
    errorBody: (_status, message) => ({ error: { message, type: "invalid_request_error", param: null, code: null } }),
    streamError: (message) => ({ data: { error: { message, type: "server_error", param: null, code: null } } }),
    echoed: (request) => request.messages[2],
    expectedEcho: (reply) => {
      const { content, tool_calls } = reply.choices[0].message;
      return { role: "assistant", content, ...(tool_calls === undefined ? {} : { tool_calls }) };
    },
    results: (request) =>
      request.messages
        .filter((message: Any) => message.role === "tool")
        .map((message: Any) => ({
          id: message.tool_call_id,
          text: message.content.replace(/^Error: /, ""),
          isError: message.content.startsWith("Error: "),
        })),
  },
  {
    name: "openai-responses",
    path: () => "/v1/responses",
    client: (url, { stream, maxRetries }, extra) =>
      createOpenAIModel({
        apiKey: "test-key",
        model: "gpt-test",
        baseURL: `${url}/v1`,
        api: "responses",
        maxRetries,
        stream,
        ...extra,
      }),
    // The Responses API has no stop sequences.
    generation: {
      options: { ...SHARED_OPTIONS, extraBody: { user: "user-1" } },
      expectIn: (body) =>
        expect(body).toMatchObject({
          temperature: 0.5,
          tool_choice: { type: "function", name: "read_note" },
          user: "user-1",
        }),
    },
    toolChoiceOf: (body) => body.tool_choice,
    body: (turn) => ({
      id: "resp_1",
      object: "response",
      created_at: 1741294021,
      status: "completed",
      model: "gpt-test",
      output: [
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: turn.text, annotations: [] }],
        },
        ...turn.calls.map((call, index) => ({
          type: "function_call",
          id: `fc_${index + 1}`,
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.args),
          status: "completed",
        })),
      ],
      usage: {
        input_tokens: turn.usage.input,
        output_tokens: turn.usage.output,
        total_tokens: turn.usage.input + turn.usage.output,
      },
    }),
    events: responsesEvents,
    eventsThroughFirstText: 4,
    errorBody: (_status, message) => ({ error: { message, type: "invalid_request_error", param: null, code: null } }),
    streamError: (message) => ({
      event: "error",
      data: { type: "error", code: "server_error", message, param: null, sequence_number: 1 },
    }),
    echoed: (request) => request.input.slice(1, -2),
    expectedEcho: (reply) => reply.output,
    results: (request) =>
      request.input
        .filter((item: Any) => item.type === "function_call_output")
        .map((item: Any) => ({
          id: item.call_id,
          text: item.output.replace(/^Error: /, ""),
          isError: item.output.startsWith("Error: "),
        })),
    nativeSearch: {
      client: (url, { stream }) =>
        createOpenAIModel({
          apiKey: "test-key",
          model: "gpt-test",
          baseURL: `${url}/v1`,
          api: "responses",
          maxRetries: 0,
          stream,
          nativeToolSearch: true,
        }),
      searchBody: (turn) => {
        const body = FORMATS[2]?.body({ ...turn, calls: [] });
        const [call] = turn.calls;
        // Arguments as an object: the SDK types them `unknown`, and the client reads either form.
        const item = {
          type: "tool_search_call",
          id: "tsc_1",
          call_id: call?.id,
          execution: "client",
          status: "completed",
          arguments: call?.args,
        };
        return { ...body, output: [...body.output, item] };
      },
      check: (bodies, searchReply) => {
        const [first, second, third] = bodies;
        expect(first.tools.map((tool: Any) => [tool.type, tool.name, tool.defer_loading])).toEqual([
          ["function", "read_note", undefined],
          ["tool_search", undefined, undefined],
          ["function", "get_quote", true],
          ["function", "get_weather", true],
        ]);
        expect(first.tools[1]).toMatchObject({ execution: "client", parameters: { required: ["query"] } });
        expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
        expect(JSON.stringify(third.tools)).toBe(JSON.stringify(first.tools));
        // The model's output items echoed as sent (the tool_search_call included), then the search's output.
        expect(second.input.slice(1, -1)).toEqual(searchReply.output);
        const { defer_loading: _deferred, ...loaded } = first.tools[3];
        expect(second.input.at(-1)).toEqual({
          type: "tool_search_output",
          call_id: "call_s",
          execution: "client",
          tools: [loaded],
        });
        expect(third.input.at(-1)).toMatchObject({
          type: "function_call_output",
          call_id: "call_w",
          output: "Sunny in Paris, 21 degrees.",
        });
      },
    },
  },
  {
    name: "gemini",
    path: (stream) => `/v1beta/models/gemini-test:${stream ? "streamGenerateContent" : "generateContent"}`,
    client: (url, { stream, maxRetries }, extra) =>
      createGeminiModel({ apiKey: "test-key", model: "gemini-test", baseURL: url, maxRetries, stream, ...extra }),
    generation: {
      // extraBody merges into generationConfig, key by key.
      options: { ...SHARED_OPTIONS, stopSequences: ["END"], extraBody: { generationConfig: { topK: 40 } } },
      expectIn: (body) =>
        expect(body).toMatchObject({
          toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["read_note"] } },
          generationConfig: { temperature: 0.5, stopSequences: ["END"], topK: 40 },
        }),
    },
    toolChoiceOf: (body) => body.toolConfig,
    body: (turn) => ({
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: turn.text },
              ...turn.calls.map((call, index) => ({
                functionCall: { id: call.id, name: call.name, args: call.args },
                // Gemini 3 signs the first call of a turn; the signature must come back.
                ...(index === 0 ? { thoughtSignature: "c2lnbmF0dXJlLTE=" } : {}),
              })),
            ],
          },
        },
      ],
      usageMetadata: {
        promptTokenCount: turn.usage.input,
        candidatesTokenCount: turn.usage.output,
        totalTokenCount: turn.usage.input + turn.usage.output,
      },
      modelVersion: "gemini-test",
    }),
    events: geminiStreamChunks,
    eventsThroughFirstText: 1,
    errorBody: (status, message) => ({ error: { code: status, message, status: "INVALID_ARGUMENT" } }),
    streamError: (message) => ({ data: { error: { code: 500, message, status: "INTERNAL" } } }),
    echoed: (request) => request.contents[1],
    expectedEcho: (reply) => reply.candidates[0].content,
    results: (request) =>
      request.contents.at(-1).parts.map(({ functionResponse }: Any) => ({
        id: functionResponse.id,
        text: functionResponse.response.output ?? functionResponse.response.error,
        isError: "error" in functionResponse.response,
      })),
  },
];

/** What a case's model answers, step by step. */
type Step =
  | { readonly kind: "turn"; readonly turn: WireTurn }
  | { readonly kind: "status"; readonly status: number; readonly message: string }
  | { readonly kind: "hang" }
  /** Part of a streamed turn, then nothing more. */
  | { readonly kind: "hang-mid-stream"; readonly turn: WireTurn }
  /** Part of a streamed turn, then the server's error event. */
  | { readonly kind: "error-mid-stream"; readonly turn: WireTurn; readonly message: string }
  /** A reply (or, streamed, an event) that is not JSON. */
  | { readonly kind: "not-json" }
  /** A JSON reply (or events) in no provider's shape. */
  | { readonly kind: "wrong-shape" };

interface Opened {
  readonly model: ModelClient;
  /** The loopback server, for clients that talk HTTP. */
  readonly server?: FakeProviderServer;
  readonly format?: WireFormat;
}

interface ClientCase {
  readonly name: string;
  readonly streaming: boolean;
  /** The wire, for clients that talk HTTP. */
  readonly format?: WireFormat;
  open(steps: readonly Step[], options?: { maxRetries?: number }): Promise<Opened>;
  /** The client talking to this URL instead, without retries (HTTP clients only). */
  at?(url: string): ModelClient;
  /** Behaviours that do not apply to this client, with the reason. */
  readonly skip: Readonly<Record<string, string>>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Quick retries for the SDKs (`retry-after-ms`) and for the Gemini client (`retry-after`). */
const RETRY_SOON = { "retry-after-ms": "10", "retry-after": "0" };

function reply(format: WireFormat, stream: boolean, step: Step): FakeReply {
  switch (step.kind) {
    case "turn":
      return stream ? { sse: format.events(format.body(step.turn)) } : { json: format.body(step.turn) };
    case "status":
      return { status: step.status, json: format.errorBody(step.status, step.message), headers: RETRY_SOON };
    case "hang":
      return { hang: true };
    case "hang-mid-stream":
      return { sse: format.events(format.body(step.turn)).slice(0, format.eventsThroughFirstText), hang: true };
    case "error-mid-stream":
      return {
        sse: [
          ...format.events(format.body(step.turn)).slice(0, format.eventsThroughFirstText),
          format.streamError(step.message),
        ],
      };
    case "not-json":
      return stream ? { sse: [{ event: "message_start", data: "{not json" }] } : { text: "{not json" };
    case "wrong-shape":
      return stream ? { sse: [{ data: { unexpected: true } }] } : { json: { unexpected: true } };
  }
}

function httpCase(format: WireFormat, streaming: boolean): ClientCase {
  return {
    name: `${format.name}${streaming ? " (streaming)" : ""}`,
    streaming,
    format,
    async open(steps, options = {}) {
      const server = await startFakeProvider({
        [format.path(streaming)]: steps.map((step) => reply(format, streaming, step)),
      });
      cleanups.push(server.close);
      return {
        model: format.client(server.url, { stream: streaming, maxRetries: options.maxRetries ?? 2 }),
        server,
        format,
      };
    },
    at: (url) => format.client(url, { stream: streaming, maxRetries: 0 }),
    skip: {
      ...(format.nativeSearch === undefined
        ? { [NATIVE_CASE]: "no native tool search: the provider-neutral form" }
        : {}),
      ...(streaming ? STREAMING_SKIPS : PLAIN_SKIPS),
    },
  };
}

const NATIVE_CASE =
  "provider-native tool search: deferred tools sent defer_loading, the search answered natively, the found tool called";
const STREAMING_SKIPS = {
  "a client that does not stream sends the text as one delta and no call deltas": "this one streams",
};
const PLAIN_SKIPS = {
  "streams text and tool-call deltas as events, before model_text": "not streamed",
  "a streamed turn equals the same turn not streamed": "not streamed",
  "aborting a stream midway rejects with the signal's reason": "not streamed",
  "an error the server sends inside a stream is request-failed with its message": "not streamed",
};

const NO_HTTP = "the scripted model makes no request";
const GENERATION_CASE =
  "the generation options reach the request body in the provider's own shape, extraBody merged in last";
const NO_TOOLS_CASE = "a request without tools sends no tool choice";
const UNKNOWN_TOOL_CASE =
  "a toolChoice naming a tool the turn does not have is invalid-model-options, and nothing is sent";
const BAD_OPTIONS_CASE = "a bad option is invalid-model-options when the client is created";

const scriptedCase: ClientCase = {
  name: "scripted",
  streaming: false,
  async open(steps) {
    const turns = steps.map((step, index): ScriptedTurn => {
      if (step.kind === "hang") return { delayMs: 60_000 };
      if (step.kind !== "turn") throw new Error(`the scripted case cannot answer with ${step.kind}`);
      const previous = steps[index - 1];
      return {
        text: step.turn.text,
        toolCalls: step.turn.calls.map((call) => ({ id: call.id, name: call.name, input: call.args })),
        usage: { inputTokens: step.turn.usage.input, outputTokens: step.turn.usage.output },
        // What the HTTP cases read from the request body, the script checks in the request.
        ...(previous?.kind === "turn" && previous.turn.calls.length > 0
          ? {
              expect: {
                toolResults: [
                  { id: "call_1", isError: false, contains: "ship v1" },
                  { id: "call_2", isError: true },
                ],
              },
            }
          : {}),
      };
    });
    return { model: createScriptedModel({ turns }) };
  },
  skip: {
    "streams text and tool-call deltas as events, before model_text": "the scripted model does not stream",
    "a streamed turn equals the same turn not streamed": "the scripted model does not stream",
    "aborting a stream midway rejects with the signal's reason": "the scripted model does not stream",
    "an error the server sends inside a stream is request-failed with its message":
      "the scripted model does not stream",
    "an HTTP 400 is request-failed with its status and message, and is not retried": NO_HTTP,
    "an HTTP 503 is retried, and the next answer is used": NO_HTTP,
    "an HTTP 503 that stays is request-failed with its status once the retries are spent": NO_HTTP,
    "a server that is not there is request-failed naming its URL": NO_HTTP,
    "a body that is not JSON is invalid-response": NO_HTTP,
    "a JSON body in no provider's shape is invalid-response": NO_HTTP,
    [NATIVE_CASE]: NO_HTTP,
    [GENERATION_CASE]: NO_HTTP,
    [NO_TOOLS_CASE]: NO_HTTP,
    [UNKNOWN_TOOL_CASE]: NO_HTTP,
    [BAD_OPTIONS_CASE]: "the scripted model takes no generation options",
  },
};

const CASES: readonly ClientCase[] = [
  ...FORMATS.flatMap((format) => [httpCase(format, false), httpCase(format, true)]),
  scriptedCase,
];

function each(name: string, run: (c: ClientCase) => Promise<void>) {
  for (const c of CASES) {
    const reason = c.skip[name];
    if (reason === undefined) it(`${c.name}: ${name}`, () => run(c));
    else it.skip(`${c.name}: ${name} (skipped: ${reason})`, () => {});
  }
}

/** One request for a model turn, outside the loop. */
function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return { systemPrompt: "You are a test agent.", messages: [{ role: "user", text: "hi" }], tools: [], ...extra };
}

/** The rejection of a promise (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Collects unhandled rejections while `run` runs, and a moment after. */
async function unhandledRejectionsDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on("unhandledRejection", listener);
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off("unhandledRejection", listener);
  }
  return seen;
}

describe("every model client", { timeout: 20_000 }, () => {
  each("a tool round trip: calls dispatched, results sent back in the provider's format", async (c) => {
    const workspace = await createNoteWorkspace();
    cleanups.push(workspace.cleanup);
    const { model, server, format } = await c.open(ROUND_TRIP.map((turn) => ({ kind: "turn", turn })));
    const { events, done } = await drain(
      runAgent({ session: workspace.session, model, prompt: "What does my note say?" }),
    );

    expect(eventTrace(events).filter((type) => type.startsWith("tool"))).toEqual([
      "tool_call:read_note",
      "tool_call:no_such_tool",
      "tool_result:ok",
      "tool_result:error",
    ]);
    expect(done).toMatchObject({ reason: "completed", turns: 2, usage: { inputTokens: 250, outputTokens: 30 } });
    expect(events.filter((event) => event.type === "model_text").map((event) => event.text)).toEqual(
      ROUND_TRIP.map((turn) => turn.text),
    );
    if (server === undefined || format === undefined) return; // the script checked the results itself
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1]?.body;
    expect(format.echoed(second)).toEqual(format.expectedEcho(format.body(ROUND_TRIP[0] as WireTurn)));
    const [ok, failed] = format.results(second);
    expect(ok).toEqual({ id: "call_1", text: "ship v1 on Friday\n", isError: false });
    expect(failed).toMatchObject({ id: "call_2", isError: true });
    expect(failed?.text).toContain("no_such_tool");
  });

  each(NATIVE_CASE, async (c) => {
    const workspace = await createNoteWorkspace([getWeather, getQuote]);
    cleanups.push(workspace.cleanup);
    const native = c.format?.nativeSearch as NativeSearchWire;
    const format = c.format as WireFormat;
    const searchReply = native.searchBody(NATIVE_SEARCH[0] as WireTurn);
    const bodies = [searchReply, format.body(NATIVE_SEARCH[1] as WireTurn), format.body(NATIVE_SEARCH[2] as WireTurn)];
    const server = await startFakeProvider({
      [format.path(c.streaming)]: bodies.map((body) => (c.streaming ? { sse: format.events(body) } : { json: body })),
    });
    cleanups.push(server.close);
    const model = native.client(server.url, { stream: c.streaming });
    const { events, done } = await drain(runAgent({ session: workspace.session, model, prompt: "Weather in Paris?" }));

    expect(eventTrace(events).filter((type) => type.startsWith("tool"))).toEqual([
      "tool_call:tool_search",
      "tool_result:ok",
      "tool_call:get_weather",
      "tool_result:ok",
    ]);
    expect(done).toMatchObject({ reason: "completed", turns: 3 });
    expect(server.requests).toHaveLength(3);
    native.check(
      server.requests.map((request) => request.body),
      searchReply,
    );
  });

  each("streams text and tool-call deltas as events, before model_text", async (c) => {
    const workspace = await createNoteWorkspace();
    cleanups.push(workspace.cleanup);
    const { model } = await c.open(ROUND_TRIP.map((turn) => ({ kind: "turn", turn })));
    const { events } = await drain(runAgent({ session: workspace.session, model, prompt: "What does my note say?" }));
    const turn1 = events.filter((event) => "turn" in event && event.turn === 1);
    const trace = eventTrace(turn1);
    const lastDelta = Math.max(trace.lastIndexOf("model_text_delta"), trace.lastIndexOf("model_tool_call_delta"));
    expect(trace[0]).toBe("turn_start");
    expect(lastDelta).toBeLessThan(trace.indexOf("model_text"));

    const texts = turn1.flatMap((event) => (event.type === "model_text_delta" ? [event.text] : []));
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join("")).toBe(ROUND_TRIP[0]?.text);

    const deltas = turn1.filter(
      (event): event is Extract<AgentEvent, { type: "model_tool_call_delta" }> =>
        event.type === "model_tool_call_delta",
    );
    const calls = ROUND_TRIP[0]?.calls ?? [];
    calls.forEach((call, index) => {
      const own = deltas.filter((delta) => delta.index === index);
      expect(own[0]).toMatchObject({ turn: 1, index, id: call.id, name: call.name });
      expect(own.slice(1).every((delta) => delta.name === undefined)).toBe(true);
      expect(JSON.parse(own.map((delta) => delta.argumentsDelta).join(""))).toEqual(call.args);
    });
    expect(new Set(deltas.map((delta) => delta.index))).toEqual(new Set([0, 1]));
  });

  each("a client that does not stream sends the text as one delta and no call deltas", async (c) => {
    const workspace = await createNoteWorkspace();
    cleanups.push(workspace.cleanup);
    const { model } = await c.open(ROUND_TRIP.map((turn) => ({ kind: "turn", turn })));
    const { events } = await drain(runAgent({ session: workspace.session, model, prompt: "What does my note say?" }));
    expect(eventTrace(events).slice(0, 3)).toEqual(["turn_start", "model_text_delta", "model_text"]);
    expect(events.some((event) => event.type === "model_tool_call_delta")).toBe(false);
  });

  each("a streamed turn equals the same turn not streamed", async (c) => {
    const turn = ROUND_TRIP[0] as WireTurn;
    const streamed = await c.open([{ kind: "turn", turn }]);
    const plainServer = await startFakeProvider({
      [(streamed.format as WireFormat).path(false)]: [{ json: streamed.format?.body(turn) }],
    });
    cleanups.push(plainServer.close);
    const plain = streamed.format?.client(plainServer.url, { stream: false, maxRetries: 0 }) as ModelClient;
    const deltas: ToolCallDelta[] = [];
    const streamedTurn = await streamed.model.complete(request({ onToolCallDelta: (delta) => deltas.push(delta) }));
    const plainTurn = await plain.complete(request());
    expect(streamedTurn).toEqual(plainTurn);
    expect(streamedTurn).toMatchObject({
      text: turn.text,
      stopReason: "tool_use",
      usage: { inputTokens: 100, outputTokens: 20 },
    });
    expect(streamedTurn.toolCalls.map((call) => call.id)).toEqual(["call_1", "call_2"]);
    expect(deltas.length).toBeGreaterThan(0);
    // The streamed request asked for a stream; the plain one did not.
    const streamedRequest = streamed.server?.requests[0];
    expect(streamedRequest?.body.stream === true || streamedRequest?.path.includes("streamGenerateContent")).toBe(true);
    expect(plainServer.requests[0]?.body.stream).toBeUndefined();
  });

  each("an HTTP 400 is request-failed with its status and message, and is not retried", async (c) => {
    const { model, server } = await c.open([{ kind: "status", status: 400, message: "max_tokens: too large" }], {
      maxRetries: 2,
    });
    const error = await rejection(model.complete(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: "request-failed", status: 400, model: model.name });
    expect((error as Error).message).toContain("max_tokens: too large");
    expect(server?.requests).toHaveLength(1);
  });

  each("an HTTP 503 is retried, and the next answer is used", async (c) => {
    const turn = ROUND_TRIP[1] as WireTurn;
    const { model, server } = await c.open(
      [
        { kind: "status", status: 503, message: "overloaded" },
        { kind: "turn", turn },
      ],
      { maxRetries: 1 },
    );
    const result = await model.complete(request());
    expect(result).toMatchObject({ text: turn.text, stopReason: "end" });
    expect(server?.requests).toHaveLength(2);
  });

  each("an HTTP 503 that stays is request-failed with its status once the retries are spent", async (c) => {
    const overloaded = { kind: "status", status: 503, message: "overloaded" } as const;
    const { model, server } = await c.open([overloaded, overloaded], { maxRetries: 1 });
    const error = await rejection(model.complete(request()));
    expect(error).toMatchObject({ code: "request-failed", status: 503 });
    expect(server?.requests).toHaveLength(2);
  });

  each("a server that is not there is request-failed naming its URL", async (c) => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const model = c.at?.(url) as ModelClient;
    const error = await rejection(model.complete(request()));
    expect(error).toMatchObject({ code: "request-failed", model: model.name });
    expect((error as Error).message).toContain(url);
  });

  each("aborting a request the server never answers rejects promptly with the signal's reason", async (c) => {
    const { model, server } = await c.open([{ kind: "hang" }]);
    const controller = new AbortController();
    const reason = new Error("the user stopped it");
    let elapsed = 0;
    const unhandled = await unhandledRejectionsDuring(async () => {
      const pending = rejection(model.complete(request({ signal: controller.signal })));
      if (server !== undefined) await server.received(1);
      else await new Promise((resolve) => setTimeout(resolve, 20));
      const started = performance.now();
      controller.abort(reason);
      expect(await pending).toBe(reason);
      elapsed = performance.now() - started;
      await server?.hungUp(1);
    });
    expect(elapsed).toBeLessThan(1000);
    expect(unhandled).toEqual([]);
  });

  each("aborting a stream midway rejects with the signal's reason", async (c) => {
    const { model, server } = await c.open([{ kind: "hang-mid-stream", turn: ROUND_TRIP[0] as WireTurn }]);
    const controller = new AbortController();
    const reason = new Error("the user stopped it");
    let firstText: () => void = () => {};
    const textArrived = new Promise<void>((resolve) => {
      firstText = resolve;
    });
    const unhandled = await unhandledRejectionsDuring(async () => {
      const pending = rejection(model.complete(request({ signal: controller.signal, onTextDelta: () => firstText() })));
      await textArrived;
      controller.abort(reason);
      expect(await pending).toBe(reason);
      await server?.hungUp(1);
    });
    expect(unhandled).toEqual([]);
  });

  each("an error the server sends inside a stream is request-failed with its message", async (c) => {
    const turn = ROUND_TRIP[0] as WireTurn;
    const { model } = await c.open([{ kind: "error-mid-stream", turn, message: "The server is overloaded." }], {
      maxRetries: 0,
    });
    const error = await rejection(model.complete(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: "request-failed", model: model.name });
    expect((error as Error).message).toContain("The server is overloaded.");
  });

  each("a body that is not JSON is invalid-response", async (c) => {
    const { model } = await c.open([{ kind: "not-json" }], { maxRetries: 0 });
    const error = await rejection(model.complete(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: "invalid-response", model: model.name });
  });

  each("a JSON body in no provider's shape is invalid-response", async (c) => {
    const { model } = await c.open([{ kind: "wrong-shape" }], { maxRetries: 0 });
    const error = await rejection(model.complete(request()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: "invalid-response", model: model.name });
  });

  each(GENERATION_CASE, async (c) => {
    const format = c.format as WireFormat;
    const { server } = await c.open([{ kind: "turn", turn: ROUND_TRIP[1] as WireTurn }]);
    const model = format.client(server?.url ?? "", { stream: c.streaming, maxRetries: 0 }, format.generation.options);
    await model.complete(request({ tools: [readNote] }));
    format.generation.expectIn(server?.requests[0]?.body);
  });

  each(NO_TOOLS_CASE, async (c) => {
    const format = c.format as WireFormat;
    const { server } = await c.open([{ kind: "turn", turn: ROUND_TRIP[1] as WireTurn }]);
    const model = format.client(server?.url ?? "", { stream: c.streaming, maxRetries: 0 }, { toolChoice: "required" });
    await model.complete(request());
    expect(format.toolChoiceOf(server?.requests[0]?.body)).toBeUndefined();
  });

  each(UNKNOWN_TOOL_CASE, async (c) => {
    const format = c.format as WireFormat;
    const { server } = await c.open([{ kind: "turn", turn: ROUND_TRIP[1] as WireTurn }]);
    const options = { toolChoice: { tool: "write_note" } };
    const model = format.client(server?.url ?? "", { stream: c.streaming, maxRetries: 0 }, options);
    const error = await rejection(model.complete(request({ tools: [readNote] })));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: "invalid-model-options", model: model.name });
    expect((error as Error).message).toContain("toolChoice names the tool write_note");
    expect((error as Error).message).toContain("(read_note)");
    expect(server?.requests).toHaveLength(0);
  });

  each(BAD_OPTIONS_CASE, async (c) => {
    const format = c.format as WireFormat;
    const bad: Record<string, unknown>[] = [
      { temperature: 2.5 },
      { temperature: -0.1 },
      { temperature: Number.NaN },
      { temperature: "0.5" },
      { toolChoice: "any" },
      { toolChoice: { tool: "" } },
      { stopSequences: [""] },
      { stopSequences: "END" },
      { extraBody: ["user"] },
      { extraBody: { stream: true } },
      { maxTokens: 0 },
      { maxTokens: 1.5 },
    ];
    for (const extra of bad) {
      let thrown: unknown;
      try {
        format.client("http://127.0.0.1:9", { stream: c.streaming, maxRetries: 0 }, extra);
      } catch (error) {
        thrown = error;
      }
      const option = Object.keys(extra)[0] as string;
      expect(thrown, option).toBeInstanceOf(ModelError);
      expect(thrown).toMatchObject({ code: "invalid-model-options" });
      expect((thrown as Error).message).toContain(option);
    }
  });
});
