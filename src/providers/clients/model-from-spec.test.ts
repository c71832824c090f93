// Model specs as a CLI gives them: each form builds its client, anything else is a precise error.
import { afterEach, describe, expect, it } from "vitest";
import { createNoteWorkspace, drain } from "../../../test/support/agent-harness.js";
import { type FakeProviderServer, startFakeProvider } from "../../../test/support/fake-provider-server.js";
import { defineTool } from "../../core/register/define-tool.js";
import { runAgent } from "../../loop/run-agent.js";
import { ModelError } from "../errors.js";
import { createModelFromSpec } from "./model-from-spec.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A short final reply of each API, as the fake server gives it. */
const anthropicReply = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-test",
  content: [{ type: "text", text: "hi" }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
};
const chatReply = { choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "hi" } }] };

describe("createModelFromSpec", () => {
  it("names each client after its spec", () => {
    expect(createModelFromSpec("scripted:turns.json").name).toBe("scripted:turns.json");
    expect(createModelFromSpec("anthropic:claude-test").name).toBe("anthropic:claude-test");
    expect(createModelFromSpec("openai:llama3.1", { baseURL: "http://127.0.0.1:1/v1" }).name).toBe("openai:llama3.1");
    expect(createModelFromSpec("openai-responses:gpt-test").name).toBe("openai-responses:gpt-test");
  });

  it("talks to the server given as baseURL", async () => {
    const server: FakeProviderServer = await startFakeProvider({
      "/v1/chat/completions": [{ json: chatReply }],
    });
    const workspace = await createNoteWorkspace();
    cleanups.push(server.close, workspace.cleanup);
    const model = createModelFromSpec("openai:qwen", { baseURL: `${server.url}/v1`, apiKey: "k" });
    const { done } = await drain(runAgent({ session: workspace.session, model, prompt: "hello" }));
    expect(done.reason).toBe("completed");
    expect(server.requests[0]?.body.model).toBe("qwen");
  });

  it("passes nativeToolSearch on to the Anthropic client, which then sends deferred tools with defer_loading", async () => {
    const server = await startFakeProvider({ "/v1/messages": [{ json: anthropicReply }] });
    cleanups.push(server.close);
    const lookup = defineTool({
      name: "lookup",
      description: "Look a word up.",
      inputSchema: { type: "object" },
      execute: () => "ok",
    });
    const model = createModelFromSpec("anthropic:claude-test", {
      baseURL: server.url,
      apiKey: "k",
      nativeToolSearch: true,
    });
    await model.complete({
      systemPrompt: "",
      messages: [{ role: "user", text: "hi" }],
      tools: [],
      deferredTools: [lookup],
    });
    expect(server.requests[0]?.body.tools).toEqual([expect.objectContaining({ name: "lookup", defer_loading: true })]);
  });

  it("refuses an unknown or incomplete spec with invalid-model-spec", () => {
    for (const spec of ["gpt-4", "anthropic:", "mistral:large", ":x", ""]) {
      let caught: unknown;
      try {
        createModelFromSpec(spec);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ModelError);
      expect(caught).toMatchObject({
        code: "invalid-model-spec",
        message: `Unknown model ${JSON.stringify(spec)}: expected one of scripted:FILE, anthropic:MODEL, openai:MODEL, openai-responses:MODEL, gemini:MODEL`,
      });
    }
  });

  it("maps reasoning to each provider's own option and passes the generation options on", async () => {
    const responsesReply = {
      id: "resp_1",
      object: "response",
      status: "completed",
      output: [{ type: "message", id: "m", role: "assistant", content: [{ type: "output_text", text: "hi" }] }],
    };
    const geminiReply = { candidates: [{ content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" }] };
    const server = await startFakeProvider({
      "/v1/messages": [{ json: anthropicReply }],
      "/v1/chat/completions": [{ json: chatReply }],
      "/v1/responses": [{ json: responsesReply }],
      "/v1beta/models/gemini-test:generateContent": [{ json: geminiReply }],
    });
    cleanups.push(server.close);
    const hi = { systemPrompt: "", messages: [{ role: "user" as const, text: "hi" }], tools: [] };
    const common = { apiKey: "k", reasoning: "medium", stopSequences: ["END"] } as const;
    await createModelFromSpec("anthropic:claude-test", { ...common, baseURL: server.url }).complete(hi);
    const openai = { ...common, baseURL: `${server.url}/v1`, temperature: 0.3 };
    await createModelFromSpec("openai:gpt-test", openai).complete(hi);
    await createModelFromSpec("openai-responses:gpt-test", { ...openai, stopSequences: undefined }).complete(hi);
    await createModelFromSpec("gemini:gemini-test", { ...common, baseURL: server.url, temperature: 0.3 }).complete(hi);
    const [anthropic, chat, responses, gemini] = server.requests.map((request) => request.body);
    expect(anthropic).toMatchObject({
      max_tokens: 8192,
      thinking: { type: "enabled", budget_tokens: 4096 },
      stop_sequences: ["END"],
    });
    expect(chat).toMatchObject({ reasoning_effort: "medium", temperature: 0.3, stop: ["END"] });
    expect(responses).toMatchObject({ reasoning: { effort: "medium" }, temperature: 0.3 });
    expect(gemini.generationConfig).toEqual({
      temperature: 0.3,
      stopSequences: ["END"],
      thinkingConfig: { thinkingBudget: 8192 },
    });
  });

  it("refuses a reasoning level it does not know with invalid-model-options", () => {
    const create = () => createModelFromSpec("openai:gpt-test", { reasoning: "max" as "high" });
    expect(create).toThrow(expect.objectContaining({ code: "invalid-model-options" }));
    expect(create).toThrow('reasoning must be one of low, medium, high, got "max"');
  });
});
