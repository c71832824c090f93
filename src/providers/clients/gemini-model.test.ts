// The Gemini client over real fetch against a loopback server answering like generateContent (what the shared suite
// does not cover).
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain } from "../../../test/support/agent-harness.js";
import {
  type FakeProviderServer,
  geminiStreamChunks,
  startFakeProvider,
} from "../../../test/support/fake-provider-server.js";
import { readProviderFixture } from "../../../test/support/provider-fixtures.js";
import { defineTool } from "../../core/register/define-tool.js";
import { runAgent } from "../../loop/run-agent.js";
import { ModelError } from "../errors.js";
import { gemini } from "../gemini.js";
import { createGeminiModel, readGeminiResponse, toGeminiContents } from "./gemini-model.js";
import type { ModelRequest } from "./types.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const GENERATE = "/v1beta/models/gemini-test:generateContent";
const STREAM = "/v1beta/models/gemini-test:streamGenerateContent";

async function serve(replies: Parameters<typeof startFakeProvider>[0]): Promise<FakeProviderServer> {
  const server = await startFakeProvider(replies);
  cleanups.push(server.close);
  return server;
}

function textReply(text: string, extra: Record<string, unknown> = {}) {
  return {
    candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts: [{ text, ...extra }] } }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 5, totalTokenCount: 45 },
  };
}

const hi: ModelRequest = { systemPrompt: "", messages: [{ role: "user", text: "hi" }], tools: [] };

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Sets environment variables for one test (undefined deletes), putting them back afterwards. */
function withEnv(values: Record<string, string | undefined>): void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (entries: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  cleanups.push(async () => apply(saved));
}

describe("createGeminiModel", () => {
  it("sends the key, system instruction, tools and contents; echoes the model's content with its signature", async () => {
    // The fixture's two calls have no id (the Developer API often sends none) and one thought signature.
    const { response } = readProviderFixture("gemini.function-call-response.json");
    for (const part of response.candidates[0].content.parts) {
      part.functionCall = { name: "read_note", args: { path: "note.txt" } };
    }
    const server = await serve({ [GENERATE]: [{ json: response }, { json: textReply("Ship v1 on Friday.") }] });
    const { session, cleanup } = await createNoteWorkspace();
    cleanups.push(cleanup);
    const model = createGeminiModel({ apiKey: "test-key", model: "gemini-test", baseURL: server.url, maxRetries: 0 });
    const { done } = await drain(runAgent({ session, model, prompt: "What does my note say?" }));
    expect(done).toMatchObject({ reason: "completed", turns: 2, usage: { inputTokens: 69, outputTokens: 20 } });

    const [first, second] = server.requests;
    expect(first?.headers["x-goog-api-key"]).toBe("test-key");
    expect(first?.headers["content-type"]).toBe("application/json");
    expect(first?.body).toEqual({
      systemInstruction: { parts: [{ text: session.baseSystemPrompt }] },
      tools: gemini.formatTools([...session.activeTools.values()]),
      contents: [{ role: "user", parts: [{ text: "What does my note say?" }] }],
    });
    expect(second?.body.contents.slice(1)).toEqual([
      response.candidates[0].content,
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read_note", response: { output: "ship v1 on Friday\n" } } },
          { functionResponse: { name: "read_note", response: { output: "ship v1 on Friday\n" } } },
        ],
      },
    ]);
  });

  it("takes the key from GEMINI_API_KEY, else GOOGLE_API_KEY", async () => {
    const server = await serve({ [GENERATE]: [{ json: textReply("a") }, { json: textReply("b") }] });
    withEnv({ GEMINI_API_KEY: "gemini-key", GOOGLE_API_KEY: "google-key" });
    await createGeminiModel({ model: "gemini-test", baseURL: server.url }).complete(hi);
    withEnv({ GEMINI_API_KEY: undefined });
    await createGeminiModel({ model: "gemini-test", baseURL: server.url }).complete(hi);
    expect(server.requests.map((request) => request.headers["x-goog-api-key"])).toEqual(["gemini-key", "google-key"]);
  });

  it("without a key or a base URL, fails before any request, saying where the key goes", async () => {
    withEnv({ GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined });
    const error = await rejection(createGeminiModel({ model: "gemini-2.5-flash" }).complete(hi));
    expect(error).toMatchObject({
      code: "request-failed",
      model: "gemini:gemini-2.5-flash",
      message: "Model gemini:gemini-2.5-flash needs an API key: pass apiKey, or set GEMINI_API_KEY (or GOOGLE_API_KEY)",
    });
  });

  it("drops a models/ prefix, sends maxTokens as maxOutputTokens and the given headers", async () => {
    const server = await serve({ [GENERATE]: [{ json: textReply("ok") }] });
    const model = createGeminiModel({
      model: "models/gemini-test",
      apiKey: "k",
      baseURL: `${server.url}/`,
      maxTokens: 256,
      headers: { "x-team": "tools" },
    });
    expect(model.name).toBe("gemini:gemini-test");
    await model.complete(hi);
    expect(server.requests[0]?.path).toBe(GENERATE);
    expect(server.requests[0]?.body.generationConfig).toEqual({ maxOutputTokens: 256 });
    expect(server.requests[0]?.headers["x-team"]).toBe("tools");
  });

  it("waits the delay a 429's RetryInfo asks for before it tries again", async () => {
    const quota = {
      error: {
        code: 429,
        message: "Resource has been exhausted (e.g. check quota).",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.3s" }],
      },
    };
    const server = await serve({ [GENERATE]: [{ status: 429, json: quota }, { json: textReply("ok") }] });
    const started = performance.now();
    const turn = await createGeminiModel({ model: "gemini-test", apiKey: "k", baseURL: server.url }).complete(hi);
    expect(turn.text).toBe("ok");
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(server.requests).toHaveLength(2);
  });

  it("times out each attempt after timeoutMs, retries it, then fails naming the timeout", async () => {
    const server = await serve({ [GENERATE]: [{ hang: true }, { hang: true }] });
    const model = createGeminiModel({
      model: "gemini-test",
      apiKey: "k",
      baseURL: server.url,
      timeoutMs: 100,
      maxRetries: 1,
    });
    const error = await rejection(model.complete(hi));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: "request-failed" });
    expect((error as Error).message).toContain("timed out after 100 ms");
    expect(server.requests).toHaveLength(2);
  });

  it("a stream that carries an error is request-failed with the error's code as status", async () => {
    const error = { error: { code: 500, message: "An internal error has occurred.", status: "INTERNAL" } };
    const server = await serve({ [STREAM]: [{ sse: [{ data: error }] }] });
    const model = createGeminiModel({ model: "gemini-test", apiKey: "k", baseURL: server.url, stream: true });
    expect(await rejection(model.complete(hi))).toMatchObject({
      code: "request-failed",
      status: 500,
      message: "Model gemini:gemini-test failed while it answered: An internal error has occurred.",
    });
  });

  it("a stream that ends before a finish reason is invalid-response", async () => {
    const chunks = geminiStreamChunks(textReply("cut short")).slice(0, 1);
    const server = await serve({ [STREAM]: [{ sse: chunks }] });
    const model = createGeminiModel({ model: "gemini-test", apiKey: "k", baseURL: server.url, stream: true });
    expect(await rejection(model.complete(hi))).toMatchObject({ code: "invalid-response" });
  });

  it("a streamed text reply's signature, sent on its last piece, is echoed on the text as a whole reply has it", async () => {
    const whole = textReply("All done here.", { thoughtSignature: "c2ln" });
    const server = await serve({ [STREAM]: [{ sse: geminiStreamChunks(whole) }] });
    const model = createGeminiModel({ model: "gemini-test", apiKey: "k", baseURL: server.url, stream: true });
    const turn = await model.complete(hi);
    expect(turn.providerMessage?.value).toEqual(whole.candidates[0]?.content);
  });
});

describe("readGeminiResponse", () => {
  it("maps finish reasons, and leaves thought summaries out of the text", () => {
    const reply = (finishReason: string, parts: unknown[] = [{ text: "x" }]) => ({
      candidates: [{ finishReason, content: { role: "model", parts } }],
    });
    expect(readGeminiResponse(reply("MAX_TOKENS"), "m")).toMatchObject({ stopReason: "max_tokens" });
    expect(readGeminiResponse(reply("MALFORMED_FUNCTION_CALL"), "m")).toMatchObject({
      stopReason: "other",
      rawStopReason: "MALFORMED_FUNCTION_CALL",
    });
    const thinking = readGeminiResponse(reply("STOP", [{ text: "Hmm.", thought: true }, { text: "Yes." }]), "m");
    expect(thinking).toMatchObject({ text: "Yes.", stopReason: "end" });
    // Blocked output has no content at all.
    const blocked = readGeminiResponse({ candidates: [{ finishReason: "SAFETY" }] }, "m");
    expect(blocked).toMatchObject({ text: "", toolCalls: [], stopReason: "refusal", rawStopReason: "SAFETY" });
  });

  it("reads a prompt blocked before any candidate as a refusal naming the block reason", () => {
    const turn = readGeminiResponse({ promptFeedback: { blockReason: "PROHIBITED_CONTENT" } }, "m");
    expect(turn).toEqual({ text: "", toolCalls: [], stopReason: "refusal", rawStopReason: "PROHIBITED_CONTENT" });
  });

  it("refuses a body without candidates as invalid-response", () => {
    for (const body of [null, [], { candidates: [] }, { candidates: "x" }]) {
      expect(() => readGeminiResponse(body, "m")).toThrow(expect.objectContaining({ code: "invalid-response" }));
    }
  });
});

describe("toGeminiContents", () => {
  it("leaves out a model reply with no parts (Gemini refuses an empty content)", () => {
    const blocked = readGeminiResponse({ candidates: [{ finishReason: "SAFETY" }] }, "m");
    const contents = toGeminiContents([
      { role: "user", text: "one" },
      { role: "assistant", text: "", toolCalls: [], providerMessage: blocked.providerMessage },
      { role: "user", text: "two" },
    ]);
    expect(contents).toEqual([
      { role: "user", parts: [{ text: "one" }] },
      { role: "user", parts: [{ text: "two" }] },
    ]);
  });

  it("writes another client's assistant turn as text and function calls, echoing only ids the model gave", () => {
    const contents = toGeminiContents([
      { role: "user", text: "go" },
      {
        role: "assistant",
        text: "On it.",
        toolCalls: [
          { id: "call_1", name: "read_note", input: { path: "a" } },
          { id: "toolwire-gemini-abcd1234-1", name: "read_note", input: "not an object" },
        ],
      },
    ]);
    expect(contents[1]).toEqual({
      role: "model",
      parts: [
        { text: "On it." },
        { functionCall: { id: "call_1", name: "read_note", args: { path: "a" } } },
        { functionCall: { name: "read_note", args: {} } },
      ],
    });
  });
});

describe("createGeminiModel, thinking", () => {
  it("sends thinkingBudget, or thinkingLevel upper-case, in generationConfig.thinkingConfig", async () => {
    const server = await serve({ [GENERATE]: [{ json: textReply("a") }, { json: textReply("b") }] });
    const common = { apiKey: "test-key", model: "gemini-test", baseURL: server.url };
    await createGeminiModel({ ...common, thinkingBudget: 0, maxTokens: 100 }).complete(hi);
    await createGeminiModel({ ...common, thinkingLevel: "low" }).complete(hi);
    const [budget, level] = server.requests.map((request) => request.body);
    expect(budget.generationConfig).toEqual({ maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 0 } });
    expect(level.generationConfig).toEqual({ thinkingConfig: { thinkingLevel: "LOW" } });
  });

  it("maps a named tool choice to the name Gemini knows the tool by", async () => {
    const server = await serve({ [GENERATE]: [{ json: textReply("ok") }] });
    const model = createGeminiModel({
      apiKey: "test-key",
      model: "gemini-test",
      baseURL: server.url,
      toolChoice: { tool: "2fa_code" },
    });
    const tool = defineTool({
      name: "2fa_code",
      description: "A code.",
      inputSchema: { type: "object" },
      execute: () => "1",
    });
    await model.complete({ ...hi, tools: [tool] });
    const body = server.requests[0]?.body;
    expect(body.toolConfig.functionCallingConfig).toEqual({ mode: "ANY", allowedFunctionNames: ["_2fa_code"] });
    expect(body.tools[0].functionDeclarations[0].name).toBe("_2fa_code");
  });

  it.each([
    [{ thinkingBudget: -2 }, "thinkingBudget must be an integer at least -1, got -2"],
    [{ thinkingLevel: "max" }, "thinkingLevel must be one of minimal, low, medium, high"],
    [{ thinkingBudget: 1024, thinkingLevel: "low" }, "thinkingBudget and thinkingLevel cannot go together"],
    [{ stopSequences: ["1", "2", "3", "4", "5", "6"] }, "at most 5 sequences"],
  ])("refuses %o when the client is created", (options, message) => {
    const create = () => createGeminiModel({ apiKey: "test-key", model: "gemini-test", ...(options as object) });
    expect(create).toThrow(ModelError);
    expect(create).toThrow(message);
  });
});
