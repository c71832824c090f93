// One suite, every adapter (Hono's common.case pattern): the same behaviours checked on the four wire formats.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  anthropicRequestViolations,
  anthropicToolViolations,
  geminiDeclarationViolations,
  openAIFunctionViolations,
  openAIResponsesInputViolations,
} from "../../test/support/provider-request-rules.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { ContentBlock, ToolResultBlock } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { ANTHROPIC_CODE_EXECUTION_TOOL, anthropic } from "./anthropic.js";
import { ProviderFormatError } from "./errors.js";
import { gemini } from "./gemini.js";
import { openaiChat } from "./openai-chat.js";
import { OPENAI_PROGRAMMATIC_TOOL, openaiResponses } from "./openai-responses.js";
import type { ProviderAdapter } from "./types.js";

/** A call as a test writes it; `args` goes on the wire in the provider's own way. */
interface WireCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}
/** A formatted result read back: what the model will see. */
interface ReadResult {
  readonly id: string | undefined;
  readonly text: string;
  readonly isError: boolean;
  readonly images: number;
  /** PDFs carried as documents or files, not described. */
  readonly documents: number;
}

interface AdapterCase {
  readonly adapter: ProviderAdapter;
  /** A whole response body carrying these calls (and some text). */
  response(calls: readonly WireCall[]): unknown;
  /** The tool entries inside `formatTools`' output. */
  entries(tools: unknown[]): { name: string; description: string }[];
  /** What of an entry `formatTools` builds once and reuses on every call; the entry itself unless given. */
  cached?(entry: unknown): unknown;
  /** The formatted results read back, in order. */
  read(formatted: unknown): ReadResult[];
  /** What of `formatTools`' entries the provider's API refuses (its published rules for tools), one line each. */
  toolViolations(entries: unknown[]): string[];
  /** What of the formatted results the provider's API refuses (its published request rules), one line each. */
  refusals(formatted: unknown): string[];
  /** Behaviours that do not apply to this provider, with the reason. */
  readonly skip: Readonly<Record<string, string>>;
  /** Provider-native programmatic tool calling, where the provider has it. */
  readonly programmatic?: ProgrammaticCase;
}

/** A call as a test writes it with a `caller` value as the wire carries it (`undefined`: no `caller` field). */
interface WireCallWithCaller extends WireCall {
  readonly caller: unknown;
}

interface ProgrammaticCase {
  /** A whole response with these calls, and an item for each program a `program` caller names. */
  response(calls: readonly WireCallWithCaller[]): unknown;
  /** The wire caller of the model's own call. */
  readonly direct: unknown;
  /** The wire caller of a call the program `id` made. */
  program(id: string): unknown;
  /** The tool entries that let programs call them, with the program's tool added as the request needs. */
  requestTools(entries: unknown[]): unknown[];
  /** What the provider refuses in the request after `response`: its tools, the response echoed, the results. */
  nextRequestViolations(tools: unknown[], response: unknown, results: unknown): string[];
}

/** The program ids the calls' callers name, in order, once each (the key a caller's id goes by differs). */
function programIds(calls: readonly WireCallWithCaller[], key: string): string[] {
  const ids = calls.map((call) => (call.caller as Any)?.[key]).filter((id) => typeof id === "string");
  return [...new Set<string>(ids)];
}

// biome-ignore lint/suspicious/noExplicitAny: reading wire shapes back
type Any = any;

const CASES: readonly AdapterCase[] = [
  {
    adapter: anthropic,
    response: (calls) => ({
      type: "message",
      role: "assistant",
      content: [
        { type: "text", text: "Working." },
        ...calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.args })),
      ],
      stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    }),
    entries: (tools) => tools as Any,
    read: (formatted: Any) => {
      expect(formatted.role).toBe("user");
      return formatted.content.map((block: Any) => ({
        id: block.tool_use_id,
        text: (block.content ?? [])
          .filter((part: Any) => part.type === "text")
          .map((part: Any) => part.text)
          .join("\n"),
        isError: block.is_error === true,
        images: (block.content ?? []).filter((part: Any) => part.type === "image").length,
        documents: (block.content ?? []).filter((part: Any) => part.type === "document").length,
      }));
    },
    toolViolations: (entries: Any) => entries.flatMap(anthropicToolViolations),
    // Anthropic: "text content blocks must be non-empty"; "content cannot be empty if `is_error` is true".
    refusals: (formatted: Any) =>
      formatted.content.flatMap((block: Any) => [
        ...(block.content ?? [])
          .filter((part: Any) => part.type === "text" && part.text === "")
          .map(() => `${block.tool_use_id}: empty text block`),
        ...(block.is_error === true && (block.content ?? []).length === 0
          ? [`${block.tool_use_id}: error without content`]
          : []),
      ]),
    skip: {
      "images are described in words": "Anthropic tool results carry base64 image blocks",
      "an embedded PDF is described in text": "Anthropic tool results carry base64 PDF document blocks",
      "an embedded image blob is described in text": "Anthropic tool results carry base64 image blocks",
    },
    // Shapes: the provider-fixture anthropic-messages.programmatic-tool-use.json and its sources.
    programmatic: {
      response: (calls) => ({
        type: "message",
        role: "assistant",
        content: [
          { type: "text", text: "Working." },
          ...programIds(calls, "tool_id").map((id) => ({
            type: "server_tool_use",
            id,
            name: "code_execution",
            input: { code: "print(await get_weather(location='Lima'))" },
            caller: { type: "direct" },
          })),
          ...calls.map((call) => ({
            type: "tool_use",
            id: call.id,
            name: call.name,
            input: call.args,
            ...(call.caller === undefined ? {} : { caller: call.caller }),
          })),
        ],
        container: { id: "container_1", expires_at: "2026-01-15T14:30:00Z", skills: null },
        stop_reason: "tool_use",
      }),
      direct: { type: "direct" },
      program: (id) => ({ type: "code_execution_20260120", tool_id: id }),
      requestTools: (entries) => [...entries, ANTHROPIC_CODE_EXECUTION_TOOL],
      nextRequestViolations: (tools, response: Any, results) => [
        ...tools.filter((tool: Any) => tool.type === undefined).flatMap((tool: Any) => anthropicToolViolations(tool)),
        ...anthropicRequestViolations({
          model: "claude-test",
          max_tokens: 1024,
          tools,
          messages: [
            { role: "user", content: "Weather in Lima?" },
            { role: "assistant", content: response.content },
            results,
          ],
          container: response.container.id,
        }),
      ],
    },
  },
  {
    adapter: openaiChat,
    response: (calls) => ({
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: calls.length > 0 ? "tool_calls" : "stop",
          message: {
            role: "assistant",
            content: calls.length > 0 ? null : "Done.",
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call) => ({
                    id: call.id,
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.args) },
                  })),
                }
              : {}),
          },
        },
      ],
    }),
    entries: (tools) => (tools as Any[]).map((tool) => tool.function),
    read: (formatted: Any) =>
      formatted.map((message: Any) => {
        expect(message.role).toBe("tool");
        const isError = message.content.startsWith("Error: ");
        return {
          id: message.tool_call_id,
          text: isError ? message.content.slice(7) : message.content,
          isError,
          images: 0,
          documents: 0,
        };
      }),
    toolViolations: (entries: Any) => entries.flatMap(openAIFunctionViolations),
    // Chat Completions: a tool message's content is a string (null is refused) or a non-empty list of text parts.
    refusals: (formatted: Any) =>
      formatted
        .filter((message: Any) => typeof message.content !== "string")
        .map((message: Any) => `${message.tool_call_id}: content is not a string`),
    skip: {
      "images reach the model as images": "Chat Completions tool messages carry text only",
      "an embedded PDF reaches the model as a document": "Chat Completions tool messages carry text only",
      "an embedded image blob reaches the model as an image": "Chat Completions tool messages carry text only",
    },
  },
  {
    adapter: openaiResponses,
    response: (calls) => ({
      object: "response",
      status: "completed",
      output: [
        { type: "reasoning", id: "rs_1", summary: [] },
        ...calls.map((call, index) => ({
          type: "function_call",
          id: `fc_${index}`,
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.args),
          status: "completed",
        })),
      ],
    }),
    entries: (tools) => tools as Any,
    read: (formatted: Any) =>
      formatted.map((item: Any) => {
        expect(item.type).toBe("function_call_output");
        const parts = typeof item.output === "string" ? [{ type: "input_text", text: item.output }] : item.output;
        const text = parts
          .filter((part: Any) => part.type === "input_text")
          .map((part: Any) => part.text)
          .join("\n");
        const isError = text.startsWith("Error:");
        return {
          id: item.call_id,
          text: isError ? text.replace(/^Error: ?/, "") : text,
          isError,
          images: parts.filter((part: Any) => part.type === "input_image").length,
          documents: parts.filter((part: Any) => part.type === "input_file").length,
        };
      }),
    toolViolations: (entries: Any) => entries.flatMap(openAIFunctionViolations),
    // Responses: `output` is a string or a list of input parts.
    refusals: (formatted: Any) =>
      formatted
        .filter(
          (item: Any) => typeof item.output !== "string" && !(Array.isArray(item.output) && item.output.length > 0),
        )
        .map((item: Any) => `${item.call_id}: output is neither a string nor a list of parts`),
    skip: {
      "images are described in words": "Responses function_call_output carries input_image parts",
      "an embedded PDF is described in text": "Responses function_call_output carries input_file parts",
      "an embedded image blob is described in text": "Responses function_call_output carries input_image parts",
    },
    // Shapes: the provider-fixture openai-responses.programmatic-function-call.json and its sources.
    programmatic: {
      response: (calls) => ({
        object: "response",
        status: "completed",
        output: [
          ...programIds(calls, "caller_id").map((id, index) => ({
            type: "program",
            id: `prog_${index}`,
            call_id: id,
            code: 'text(await get_weather({ location: "Lima" }));',
            fingerprint: `fp_${index}`,
          })),
          ...calls.map((call, index) => ({
            type: "function_call",
            id: `fc_${index}`,
            call_id: call.id,
            name: call.name,
            arguments: JSON.stringify(call.args),
            status: "completed",
            ...(call.caller === undefined ? {} : { caller: call.caller }),
          })),
        ],
      }),
      direct: { type: "direct" },
      program: (id) => ({ type: "program", caller_id: id }),
      requestTools: (entries) => [...entries, OPENAI_PROGRAMMATIC_TOOL],
      nextRequestViolations: (tools, response: Any, results: Any) => [
        ...tools.filter((tool: Any) => tool.type === "function").flatMap((tool: Any) => openAIFunctionViolations(tool)),
        ...openAIResponsesInputViolations([
          { role: "user", content: "Weather in Lima?" },
          ...response.output,
          ...results,
        ]),
      ],
    },
  },
  {
    adapter: gemini,
    response: (calls) => ({
      candidates: [
        {
          index: 0,
          finishReason: "STOP",
          content: {
            role: "model",
            parts: [
              { text: "Working." },
              ...calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } })),
            ],
          },
        },
      ],
    }),
    entries: (tools) => (tools.length === 0 ? [] : (tools as Any)[0].functionDeclarations),
    // Declarations are fresh objects (@google/genai rewrites them in place); the converted schema is what is reused.
    cached: (entry: Any) => entry.parameters,
    read: (formatted: Any) => {
      expect(formatted.role).toBe("user");
      return formatted.parts.map(({ functionResponse }: Any) => {
        const isError = "error" in functionResponse.response;
        return {
          id: functionResponse.id,
          text: isError ? functionResponse.response.error : functionResponse.response.output,
          isError,
          images: (functionResponse.parts ?? []).filter((part: Any) => part.inlineData?.mimeType.startsWith("image/"))
            .length,
          documents: (functionResponse.parts ?? []).filter(
            (part: Any) => part.inlineData?.mimeType === "application/pdf",
          ).length,
        };
      });
    },
    toolViolations: (entries: Any) => entries.flatMap(geminiDeclarationViolations),
    // Gemini: `functionResponse.response` is a JSON object (a Struct) and `name` the called function's.
    refusals: (formatted: Any) =>
      formatted.parts
        .filter(({ functionResponse }: Any) => typeof functionResponse.response !== "object" || !functionResponse.name)
        .map(({ functionResponse }: Any) => `${functionResponse.id}: response is not an object or has no name`),
    skip: {
      "images are described in words": "Gemini carries images as inline data in functionResponse.parts",
      "an embedded PDF is described in text": "Gemini carries PDFs as inline data in functionResponse.parts",
      "an embedded image blob is described in text": "Gemini carries images as inline data in functionResponse.parts",
    },
  },
];

const weather = defineTool({
  name: "get_weather",
  description: "Get the weather for a place.",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { location: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
    required: ["location"],
    additionalProperties: false,
  },
  execute: ({ location }) => `Sunny in ${location}`,
});
const fail = defineTool({
  name: "always_fails",
  description: "Fails.",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    throw new Error("the service is down");
  },
});

const PNG = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" } as const;
const WAV: ContentBlock = {
  type: "audio",
  data: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=",
  mimeType: "audio/wav",
};
const TEXT_RESOURCE: ContentBlock = {
  type: "resource",
  resource: { uri: "test://notes", mimeType: "text/plain", text: "body" },
};
const PDF: ContentBlock = {
  type: "resource",
  resource: { uri: "test://docs/report.pdf", mimeType: "application/pdf", blob: "JVBERi0xLjQK" },
};
const PNG_BLOB: ContentBlock = {
  type: "resource",
  resource: { uri: "test://chart.png", mimeType: "image/png", blob: "iVBORw0KGgo=" },
};
const ZIP: ContentBlock = {
  type: "resource",
  resource: { uri: "test://bundle.zip", mimeType: "application/zip", blob: "UEsDBA==" },
};
const LINK: ContentBlock = {
  type: "resource_link",
  uri: "test://big.csv",
  name: "big.csv",
  title: "Big table",
  mimeType: "text/csv",
  description: "too big to embed",
};

function result(id: string, content: ContentBlock[], isError = false): ToolResultBlock {
  return isError
    ? { type: "tool_result", tool_use_id: id, content, is_error: true }
    : { type: "tool_result", tool_use_id: id, content };
}

function each(name: string, run: (c: AdapterCase) => void | Promise<void>) {
  for (const c of CASES) {
    const reason = c.skip[name];
    if (reason === undefined) it(`${c.adapter.name}: ${name}`, () => run(c));
    else it.skip(`${c.adapter.name}: ${name} (skipped: ${reason})`, () => {});
  }
}

/** A behaviour of provider-native programmatic tool calling: skipped where the provider has none. */
function eachProgrammatic(name: string, run: (c: AdapterCase, programmatic: ProgrammaticCase) => void | Promise<void>) {
  for (const c of CASES) {
    const { programmatic } = c;
    if (programmatic !== undefined) it(`${c.adapter.name}: ${name}`, () => run(c, programmatic));
    else it.skip(`${c.adapter.name}: ${name} (skipped: no provider-native programmatic tool calling)`, () => {});
  }
}

describe("every provider adapter", () => {
  each("formatTools lists every tool in order with its name and description", (c) => {
    const entries = c.entries(c.adapter.formatTools([weather, fail.descriptor]));
    expect(entries.map(({ name, description }) => ({ name, description }))).toEqual([
      { name: "get_weather", description: "Get the weather for a place." },
      { name: "always_fails", description: "Fails." },
    ]);
  });

  each("formatTools gives [] for no tools", (c) => {
    expect(c.adapter.formatTools([])).toEqual([]);
  });

  each("formatTools gives the same bytes every time and converts nothing twice", (c) => {
    const cached = c.cached ?? ((entry: unknown) => entry);
    for (const strict of [false, true]) {
      const first = c.adapter.formatTools([weather, fail], { strict });
      const second = c.adapter.formatTools([weather.descriptor, fail.descriptor], { strict });
      expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      const reused = cached(c.entries(first)[0]);
      expect(reused).toBeTypeOf("object");
      expect(cached(c.entries(second)[0])).toBe(reused); // no conversion on the second call
    }
  });

  each("formatTools never sends $schema or changes the tool's own schema", (c) => {
    const bytes = JSON.stringify(c.adapter.formatTools([weather], { strict: true }));
    if (c.adapter !== anthropic) expect(bytes).not.toContain("$schema");
    expect(weather.descriptor.inputSchema.$schema).toBe("http://json-schema.org/draft-07/schema#");
  });

  each("parseToolCalls gives [] for a response without calls and for what is not a response", (c) => {
    expect(c.adapter.parseToolCalls(c.response([]))).toEqual([]);
    for (const junk of [null, undefined, 42, "text", [], {}, { content: "x" }, { choices: [] }, { candidates: [{}] }]) {
      expect(c.adapter.parseToolCalls(junk)).toEqual([]);
    }
  });

  each("parseToolCalls reads every call in order", (c) => {
    const calls = [
      { id: "c1", name: "get_weather", args: { location: "Paris" } },
      { id: "c2", name: "always_fails", args: {} },
      { id: "c3", name: "get_weather", args: { location: "Oslo", unit: "celsius" } },
    ];
    expect(c.adapter.parseToolCalls(c.response(calls))).toEqual(
      calls.map(({ id, name, args }) => ({ id, name, input: args })),
    );
  });

  each("parseToolCalls reads any JSON arguments back unchanged", (c) => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (args) => {
        const normalized = JSON.parse(JSON.stringify(args));
        const [call] = c.adapter.parseToolCalls(c.response([{ id: "c1", name: "t", args: normalized }]));
        expect(call?.input).toEqual(normalized);
      }),
      { numRuns: 100 },
    );
  });

  each("formatToolResults answers every call once, in the calls' order", (c) => {
    const calls = c.adapter.parseToolCalls(
      c.response([
        { id: "a", name: "get_weather", args: {} },
        { id: "b", name: "always_fails", args: {} },
      ]),
    );
    const formatted = c.adapter.formatToolResults(
      [result("b", [{ type: "text", text: "second" }]), result("a", [{ type: "text", text: "first" }])],
      calls,
    );
    expect(c.read(formatted).map(({ text }) => text)).toEqual(["first", "second"]);
  });

  each("formatToolResults answers each call exactly once, whatever results arrive in whatever order", (c) => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 6 }),
        fc.func(fc.boolean()),
        fc.func(fc.integer()),
        (ids, keep, order) => {
          const calls = c.adapter.parseToolCalls(c.response(ids.map((id) => ({ id, name: "get_weather", args: {} }))));
          const results = ids
            .filter((id) => keep(id))
            .sort((a, b) => order(a) - order(b) || a.localeCompare(b))
            .map((id) => result(id, [{ type: "text", text: `result of ${id}` }]));
          const read = c.read(c.adapter.formatToolResults(results, calls));
          expect(read).toHaveLength(ids.length);
          ids.forEach((id, index) => {
            expect(read[index]?.text).toBe(keep(id) ? `result of ${id}` : "No result: the call was not run.");
            expect(read[index]?.isError).toBe(!keep(id));
          });
        },
      ),
      { numRuns: 100 },
    );
  });

  each("formatToolResults gives a call without a result an error result", (c) => {
    const calls = c.adapter.parseToolCalls(
      c.response([
        { id: "a", name: "get_weather", args: {} },
        { id: "b", name: "get_weather", args: {} },
      ]),
    );
    const read = c.read(c.adapter.formatToolResults([result("a", [{ type: "text", text: "ok" }])], calls));
    expect(read.map(({ text, isError }) => ({ text, isError }))).toEqual([
      { text: "ok", isError: false },
      { text: "No result: the call was not run.", isError: true },
    ]);
  });

  each("formatToolResults refuses a result that answers no call", (c) => {
    const calls = c.adapter.parseToolCalls(c.response([{ id: "a", name: "get_weather", args: {} }]));
    const stray = [result("a", []), result("zzz", [{ type: "text", text: "lost" }])];
    expect(() => c.adapter.formatToolResults(stray, calls)).toThrow(ProviderFormatError);
    try {
      c.adapter.formatToolResults(stray, calls);
    } catch (error) {
      expect((error as ProviderFormatError).code).toBe("unmatched-tool-result");
      expect((error as Error).message).toContain('"zzz"');
    }
  });

  each("an error result is marked the way the provider reads it", (c) => {
    const calls = c.adapter.parseToolCalls(c.response([{ id: "a", name: "always_fails", args: {} }]));
    const [read] = c.read(c.adapter.formatToolResults([result("a", [{ type: "text", text: "boom" }], true)], calls));
    expect(read).toMatchObject({ text: "boom", isError: true });
  });

  each("images reach the model as images", (c) => {
    const calls = c.adapter.parseToolCalls(c.response([{ id: "a", name: "get_weather", args: {} }]));
    const [read] = c.read(c.adapter.formatToolResults([result("a", [{ type: "text", text: "chart:" }, PNG])], calls));
    expect(read?.text).toMatch(/^chart:/);
    expect(read?.images).toBe(1);
  });

  each("images are described in words", (c) => {
    const calls = c.adapter.parseToolCalls(c.response([{ id: "a", name: "get_weather", args: {} }]));
    const [read] = c.read(c.adapter.formatToolResults([result("a", [{ type: "text", text: "chart:" }, PNG])], calls));
    expect(read?.text).toMatch(/^chart:\n\[image: image\/png, about 8 bytes;/);
    expect(read?.images).toBe(0);
  });

  /** One result of `content` for one call, read back. */
  function formatOne(c: AdapterCase, content: ContentBlock[], isError = false): ReadResult {
    const calls = c.adapter.parseToolCalls(c.response([{ id: "a", name: "get_weather", args: {} }]));
    const [read] = c.read(c.adapter.formatToolResults([result("a", content, isError)], calls));
    if (read === undefined) throw new Error("no result read back");
    return read;
  }

  each("audio is described in text (no provider takes audio in a tool result)", (c) => {
    const read = formatOne(c, [{ type: "text", text: "recording:" }, WAV]);
    expect(read.text).toMatch(/^recording:\n\[audio: audio\/wav, about 44 bytes; this provider cannot play/);
  });

  each("a text resource becomes its text", (c) => {
    expect(formatOne(c, [{ type: "text", text: "notes:" }, TEXT_RESOURCE]).text).toBe("notes:\nbody");
  });

  each("a resource link is described in text: uri, title, type and description", (c) => {
    expect(formatOne(c, [LINK]).text).toBe('[resource link: test://big.csv "Big table" (text/csv): too big to embed]');
  });

  each("an embedded PDF reaches the model as a document", (c) => {
    const read = formatOne(c, [{ type: "text", text: "report:" }, PDF]);
    expect(read.documents).toBe(1);
    expect(read.text).not.toContain("cannot show");
  });

  each("an embedded PDF is described in text", (c) => {
    const read = formatOne(c, [PDF]);
    expect(read.text).toBe(
      "[resource test://docs/report.pdf (application/pdf), about 9 bytes of binary data; this provider cannot show it to the model]",
    );
  });

  each("an embedded image blob reaches the model as an image", (c) => {
    expect(formatOne(c, [PNG_BLOB]).images).toBe(1);
  });

  each("an embedded image blob is described in text", (c) => {
    expect(formatOne(c, [PNG_BLOB]).text).toContain("[resource test://chart.png (image/png), about 8 bytes");
  });

  each("an embedded blob no provider takes is described in text", (c) => {
    const read = formatOne(c, [ZIP]);
    expect(read.text).toBe(
      "[resource test://bundle.zip (application/zip), about 4 bytes of binary data; this provider cannot show it to the model]",
    );
    expect(read.images + read.documents).toBe(0);
  });

  each("nothing of a mixed error result is dropped, and it is still marked an error", (c) => {
    const read = formatOne(c, [PNG, { type: "text", text: "intro" }, WAV, TEXT_RESOURCE, PDF, LINK], true);
    expect(read.isError).toBe(true);
    for (const piece of ["intro", "[audio: audio/wav", "body", "[resource link: test://big.csv"]) {
      expect(read.text).toContain(piece);
    }
    expect(read.images === 1 || read.text.includes("[image: image/png")).toBe(true);
    expect(read.documents === 1 || read.text.includes("[resource test://docs/report.pdf")).toBe(true);
  });

  each("an empty output is answered in a shape the provider accepts", (c) => {
    const empty = { type: "text", text: "" } as const;
    const outputs: [ContentBlock[], boolean][] = [
      [[empty], false],
      [[empty], true],
      [[], false],
      [[], true],
      [[empty, { type: "text", text: "after" }, empty], false],
      [[empty, PNG], true],
    ];
    const calls = c.adapter.parseToolCalls(
      c.response(outputs.map((_, index) => ({ id: `e${index}`, name: "get_weather", args: {} }))),
    );
    const formatted = c.adapter.formatToolResults(
      outputs.map(([content, isError], index) => result(`e${index}`, content, isError)),
      calls,
    );
    expect(c.refusals(formatted)).toEqual([]);
    const read = c.read(formatted);
    expect(read.map(({ isError }) => isError)).toEqual(outputs.map(([, isError]) => isError));
    expect(read[4]?.text).toContain("after");
  });

  each("an array schema without items goes in a shape the provider accepts, strict or not", (c) => {
    const tags = defineTool({
      name: "tag",
      description: "Tag things.",
      inputSchema: {
        type: "object",
        properties: {
          tags: { type: "array" },
          nested: { type: "object", properties: { ids: { type: ["array", "null"] } } },
          either: { anyOf: [{ type: "string" }, { type: "array" }] },
        },
      },
      execute: () => "ok",
    });
    for (const strict of [false, true]) {
      expect(c.toolViolations(c.entries(c.adapter.formatTools([tags], { strict }))), `strict: ${strict}`).toEqual([]);
    }
    expect(tags.descriptor.inputSchema.properties).toMatchObject({ tags: { type: "array" } });
    expect(JSON.stringify(tags.descriptor.inputSchema)).not.toContain("items");
  });

  each("every tool name goes by a name the provider accepts, and a call by that name reaches the tool", async (c) => {
    const names = ["1st_tool", "_private", "-dash", "plain", `9${"x".repeat(63)}`, `9${"x".repeat(62)}y`];
    const tools = names.map((name) =>
      defineTool({
        name,
        description: `Tool ${name}.`,
        inputSchema: { type: "object", properties: {} },
        execute: () => `ran ${name}`,
      }),
    );
    const entries = c.entries(c.adapter.formatTools(tools));
    expect(c.toolViolations(entries)).toEqual([]);
    const wireNames = entries.map(({ name }) => name);
    expect(new Set(wireNames).size).toBe(names.length);
    const calls = c.adapter.parseToolCalls(
      c.response(wireNames.map((name, index) => ({ id: `n${index}`, name, args: {} }))),
    );
    expect(calls.map(({ name }) => name)).toEqual(names);
    const session = createAgentSession({ registry: createToolRegistry({ custom: tools }) });
    const read = c.read(c.adapter.formatToolResults(await session.dispatchAll(calls), calls));
    expect(read.map(({ text }) => text)).toEqual(names.map((name) => `ran ${name}`));
  });

  each("round trip through a real session: parse, dispatchAll, formatToolResults", async (c) => {
    const session = createAgentSession({ registry: createToolRegistry({ custom: [weather, fail] }) });
    const calls = c.adapter.parseToolCalls(
      c.response([
        { id: "w1", name: "get_weather", args: { location: "Lima" } },
        { id: "f1", name: "always_fails", args: {} },
        { id: "n1", name: "no_such_tool", args: {} },
        { id: "v1", name: "get_weather", args: { unit: "kelvin" } },
      ]),
    );
    const read = c.read(c.adapter.formatToolResults(await session.dispatchAll(calls), calls));
    expect(read.map(({ isError }) => isError)).toEqual([false, true, true, true]);
    expect(read[0]?.text).toBe("Sunny in Lima");
    expect(read[1]?.text).toContain("the service is down");
    expect(read[2]?.text).toContain("Tool no_such_tool not found");
    expect(read[3]?.text).toContain("location");
  });

  eachProgrammatic("a call a program made carries the program as its caller, the model's own call direct", (c, p) => {
    const calls = c.adapter.parseToolCalls(
      p.response([
        { id: "d1", name: "get_weather", args: { location: "Lima" }, caller: p.direct },
        { id: "p1", name: "get_weather", args: { location: "Quito" }, caller: p.program("prog_a") },
        { id: "p2", name: "always_fails", args: {}, caller: p.program("prog_a") },
      ]),
    );
    expect(calls).toEqual([
      { id: "d1", name: "get_weather", input: { location: "Lima" }, caller: { type: "direct" } },
      { id: "p1", name: "get_weather", input: { location: "Quito" }, caller: { type: "program", id: "prog_a" } },
      { id: "p2", name: "always_fails", input: {}, caller: { type: "program", id: "prog_a" } },
    ]);
  });

  eachProgrammatic("a call without a caller carries none", (c, p) => {
    const [call] = c.adapter.parseToolCalls(
      p.response([{ id: "d1", name: "get_weather", args: {}, caller: undefined }]),
    );
    expect(call).toEqual({ id: "d1", name: "get_weather", input: {} });
    expect(call !== undefined && "caller" in call).toBe(false);
  });

  eachProgrammatic("a malformed caller is ignored: the call is read without one, nothing throws", (c, p) => {
    const hostile: unknown[] = [
      null,
      "direct",
      ["direct"],
      42,
      {},
      { type: "program" },
      { type: "program", caller_id: 7 },
      { type: "program", caller_id: "" },
      { type: "code_execution_20260120" },
      { type: "code_execution_20260120", tool_id: { id: "x" } },
      { type: "code_execution_20260120", tool_id: "" },
      { type: "server", tool_id: "srv_1", caller_id: "srv_1" },
      { type: "DIRECT" },
      JSON.parse('{"__proto__": {"type": "direct"}}'),
      Object.create({ type: "direct" }),
    ];
    for (const caller of hostile) {
      const [call] = c.adapter.parseToolCalls(p.response([{ id: "h1", name: "get_weather", args: {}, caller }]));
      expect(call).toEqual({ id: "h1", name: "get_weather", input: {} });
    }
    fc.assert(
      fc.property(fc.anything(), (caller) => {
        const [call] = c.adapter.parseToolCalls(p.response([{ id: "h1", name: "get_weather", args: {}, caller }]));
        expect(call?.id).toBe("h1");
        const read = call?.caller;
        if (read === undefined) return;
        if (read.type === "direct") expect(read).toEqual({ type: "direct" });
        else expect(read).toEqual({ type: "program", id: expect.stringMatching(/./) });
      }),
    );
  });

  eachProgrammatic(
    "formatTools with programmaticToolCalling lets programs call every tool, as well as the model",
    (c, p) => {
      const plain = c.adapter.formatTools([weather, fail]) as Any[];
      const entries = c.adapter.formatTools([weather, fail], { programmaticToolCalling: true }) as Any[];
      expect(plain.map((entry) => entry.allowed_callers)).toEqual([undefined, undefined]);
      for (const entry of entries) expect(entry.allowed_callers).toContain("direct");
      expect(entries.map((entry) => entry.allowed_callers.length)).toEqual([2, 2]);
      expect(c.adapter.formatTools([weather, fail], { programmaticToolCalling: true })).toEqual(entries);
      expect(c.adapter.formatTools([weather, fail], { programmaticToolCalling: true })[0]).toBe(entries[0]);
      expect(p.nextRequestViolations(p.requestTools(entries), p.response([]), [])).toEqual([]);
    },
  );

  eachProgrammatic(
    "a program's calls dispatch like any other and their results go back in a request the provider accepts",
    async (c, p) => {
      const session = createAgentSession({ registry: createToolRegistry({ custom: [weather, fail] }) });
      const response = p.response([
        { id: "p1", name: "get_weather", args: { location: "Lima" }, caller: p.program("prog_a") },
        { id: "p2", name: "always_fails", args: {}, caller: p.program("prog_a") },
        { id: "p3", name: "get_weather", args: { location: "Quito" }, caller: p.program("prog_b") },
      ]);
      const calls = c.adapter.parseToolCalls(response);
      const formatted = c.adapter.formatToolResults(await session.dispatchAll(calls), calls);
      const read = c.read(formatted);
      expect(read.map(({ id, isError }) => ({ id, isError }))).toEqual([
        { id: "p1", isError: false },
        { id: "p2", isError: true },
        { id: "p3", isError: false },
      ]);
      expect(read[0]?.text).toBe("Sunny in Lima");
      const tools = p.requestTools(c.adapter.formatTools([weather, fail], { programmaticToolCalling: true }));
      expect(p.nextRequestViolations(tools, response, formatted)).toEqual([]);
    },
  );
});
