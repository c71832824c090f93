// Each adapter driven by hand with its official SDK, against a loopback fake provider, without a single cast.
// The type test (test/types/provider-adapters-sdk.test-d.ts) proves the shapes fit; this proves the SDKs send them.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeProviderServer, startFakeProvider } from "../../test/support/fake-provider-server.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import { createAgentSession } from "../create-agent-session.js";
import { anthropic } from "./anthropic.js";
import { gemini } from "./gemini.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";

const chart = defineTool({
  name: "chart",
  description: "Draw a chart of a series.",
  inputSchema: { type: "object", properties: { series: { type: "string" } }, required: ["series"] },
  execute: ({ series }) => ({
    content: [
      { type: "text", text: `chart of ${series}` },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ],
  }),
});

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function session() {
  return createAgentSession({ registry: createToolRegistry({ custom: [chart] }) });
}

describe("the adapters with the official SDKs", () => {
  it("anthropic: tools, the model's calls and the results go through @anthropic-ai/sdk as formatted", async () => {
    const toolUse = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [{ type: "tool_use", id: "toolu_1", name: "chart", input: { series: "sales" } }],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
    const done = { ...toolUse, id: "msg_2", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn" };
    server = await startFakeProvider({ "/v1/messages": [{ json: toolUse }, { json: done }] });
    const client = new Anthropic({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
    const agent = session();
    const tools = anthropic.formatTools(agent.activeTools.values());
    const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: "Chart the sales." }];

    const message = await client.messages.create({ model: "claude-test", max_tokens: 256, tools, messages });
    const calls = anthropic.parseToolCalls(message);
    const results = anthropic.formatToolResults(await agent.dispatchAll(calls), calls);
    messages.push({ role: "assistant", content: message.content }, results);
    await client.messages.create({ model: "claude-test", max_tokens: 256, tools, messages });

    expect(calls).toEqual([{ id: "toolu_1", name: "chart", input: { series: "sales" } }]);
    const [first, second] = server.requests;
    expect(first?.body.tools).toEqual(JSON.parse(JSON.stringify(tools)));
    expect(second?.body.messages[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: [
            { type: "text", text: "chart of sales" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
          ],
        },
      ],
    });
  });

  it("openaiChat: tools, the model's calls and the results go through openai's Chat Completions as formatted", async () => {
    const completion = (message: object, finish_reason: string) => ({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 0,
      model: "gpt-test",
      choices: [{ index: 0, finish_reason, logprobs: null, message: { role: "assistant", refusal: null, ...message } }],
    });
    const call = { id: "call_1", type: "function", function: { name: "chart", arguments: '{"series":"sales"}' } };
    server = await startFakeProvider({
      "/chat/completions": [
        { json: completion({ content: null, tool_calls: [call] }, "tool_calls") },
        { json: completion({ content: "Done." }, "stop") },
      ],
    });
    const client = new OpenAI({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
    const agent = session();
    const tools = openaiChat.formatTools(agent.activeTools.values(), { strict: true });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "Chart it." }];

    const reply = await client.chat.completions.create({ model: "gpt-test", tools, messages });
    const calls = openaiChat.parseToolCalls(reply);
    const assistant = reply.choices[0]?.message;
    if (assistant === undefined) throw new Error("no choice");
    messages.push(assistant, ...openaiChat.formatToolResults(await agent.dispatchAll(calls), calls));
    await client.chat.completions.create({ model: "gpt-test", tools, messages });

    expect(calls).toEqual([{ id: "call_1", name: "chart", input: { series: "sales" } }]);
    const [first, second] = server.requests;
    expect(first?.body.tools).toEqual(JSON.parse(JSON.stringify(tools)));
    expect(second?.body.messages[2]).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "chart of sales\n[image: image/png, about 8 bytes; this provider cannot show tool images to the model]",
    });
  });

  it("openaiResponses: tools, the model's calls and the results go through openai's Responses API as formatted", async () => {
    const response = (output: object[]) => ({
      id: "resp_1",
      object: "response",
      created_at: 0,
      status: "completed",
      model: "gpt-test",
      output,
    });
    const call = {
      type: "function_call",
      id: "fc_1",
      call_id: "call_1",
      name: "chart",
      arguments: '{"series":"sales"}',
      status: "completed",
    };
    const text = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [] };
    server = await startFakeProvider({ "/responses": [{ json: response([call]) }, { json: response([text]) }] });
    const client = new OpenAI({ apiKey: "test-key", baseURL: server.url, maxRetries: 0 });
    const agent = session();
    const tools = openaiResponses.formatTools(agent.activeTools.values());
    const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: "Chart it." }];

    const reply = await client.responses.create({ model: "gpt-test", tools, input });
    const calls = openaiResponses.parseToolCalls(reply);
    input.push(...reply.output, ...openaiResponses.formatToolResults(await agent.dispatchAll(calls), calls));
    await client.responses.create({ model: "gpt-test", tools, input });

    expect(calls).toEqual([{ id: "call_1", name: "chart", input: { series: "sales" } }]);
    const [first, second] = server.requests;
    expect(first?.body.tools).toEqual(JSON.parse(JSON.stringify(tools)));
    expect(second?.body.input[2]).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: [
        { type: "input_text", text: "chart of sales" },
        { type: "input_image", image_url: "data:image/png;base64,iVBORw0KGgo=", detail: "auto" },
      ],
    });
  });

  it("gemini: tools, the model's calls and the results go through @google/genai as formatted", async () => {
    const generated = (parts: object[]) => ({
      candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts } }],
    });
    const path = "/v1beta/models/gemini-test:generateContent";
    server = await startFakeProvider({
      [path]: [
        { json: generated([{ functionCall: { name: "chart", args: { series: "sales" } } }]) },
        { json: generated([{ text: "Done." }]) },
      ],
    });
    const client = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: server.url } });
    const agent = session();
    const tools = gemini.formatTools(agent.activeTools.values());
    const sent = JSON.parse(JSON.stringify(tools));

    const reply = await client.models.generateContent({
      model: "gemini-test",
      contents: "Chart the sales.",
      config: { tools },
    });
    const calls = gemini.parseToolCalls(reply);
    const candidate = reply.candidates?.[0]?.content;
    if (candidate === undefined) throw new Error("no candidate");
    const results = gemini.formatToolResults(await agent.dispatchAll(calls), calls);
    await client.models.generateContent({
      model: "gemini-test",
      contents: [{ role: "user", parts: [{ text: "Chart the sales." }] }, candidate, results],
      config: { tools: gemini.formatTools(agent.activeTools.values()) },
    });

    expect(calls).toMatchObject([{ name: "chart", input: { series: "sales" } }]);
    const [first, second] = server.requests;
    // The SDK upper-cases the schema's type names on the way out (the API reads both); the rest is as formatted.
    expect(first?.body.tools[0].functionDeclarations[0]).toEqual({
      name: "chart",
      description: "Draw a chart of a series.",
      parameters: { type: "OBJECT", properties: { series: { type: "STRING" } }, required: ["series"] },
    });
    expect(second?.body.tools).toEqual(first?.body.tools);
    expect(JSON.stringify(gemini.formatTools(agent.activeTools.values()))).toBe(JSON.stringify(sent));
    expect(second?.body.contents[2]).toEqual({
      role: "user",
      parts: [
        {
          functionResponse: {
            name: "chart",
            response: { output: "chart of sales\n[image/png: attached as image-1]" },
            parts: [{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=", displayName: "image-1" } }],
          },
        },
      ],
    });
  });
});
