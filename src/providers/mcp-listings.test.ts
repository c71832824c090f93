// Real MCP servers' tools, formatted for every provider: nothing a provider's published rules refuse, strict or not.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  anthropicToolViolations,
  geminiDeclarationViolations,
  openAIFunctionViolations,
} from "../../test/support/provider-request-rules.js";
import { defineTool } from "../core/register/define-tool.js";
import type { JsonObject } from "../core/types.js";
import { anthropic } from "./anthropic.js";
import { gemini } from "./gemini.js";
import { listNonStrictTools } from "./list-non-strict-tools.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";

const LISTINGS = new URL("../../test/fixtures/mcp-listings/", import.meta.url);
const files = [
  new URL("../../test/fixtures/mcp/mcp-tools-list.everything.json", import.meta.url),
  ...readdirSync(LISTINGS)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => new URL(name, LISTINGS)),
];

interface Listing {
  readonly server: string;
  readonly tools: ReturnType<typeof defineTool>[];
}

const listings: Listing[] = files.map((file) => {
  const capture = JSON.parse(readFileSync(file, "utf8")) as {
    _source: string;
    result: { tools: { name: string; description?: string; inputSchema: JsonObject }[] };
  };
  const tools = capture.result.tools.map((tool) =>
    defineTool({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      execute: () => "",
    }),
  );
  return { server: capture._source.split(" ")[0] as string, tools };
});

describe("real MCP servers' tools", () => {
  it("are many: at least 150 tools of 10 servers", () => {
    expect(listings.length).toBeGreaterThanOrEqual(10);
    expect(listings.reduce((sum, { tools }) => sum + tools.length, 0)).toBeGreaterThanOrEqual(150);
  });

  for (const { server, tools } of listings) {
    describe(server, () => {
      it("format for Anthropic without a shape it refuses", () => {
        expect(anthropic.formatTools(tools).flatMap(anthropicToolViolations)).toEqual([]);
      });

      it("format for OpenAI Chat and Responses, strict and not, without a shape they refuse", () => {
        for (const strict of [false, true]) {
          const chat = openaiChat.formatTools(tools, { strict }).map((tool) => tool.function);
          expect(chat.flatMap(openAIFunctionViolations), `chat, strict: ${strict}`).toEqual([]);
          const responses = openaiResponses.formatTools(tools, { strict });
          expect(responses.flatMap(openAIFunctionViolations), `responses, strict: ${strict}`).toEqual([]);
        }
      });

      it("go strict unless listNonStrictTools gives a reason", () => {
        const nonStrict = new Set(listNonStrictTools(tools).map(({ name }) => name));
        const formatted = openaiResponses.formatTools(tools, { strict: true });
        expect(formatted.filter((tool) => !tool.strict).map((tool) => tool.name)).toEqual([...nonStrict]);
        for (const { reasons } of listNonStrictTools(tools)) expect(reasons.length).toBeGreaterThan(0);
      });

      it("format for Gemini without a shape it refuses", () => {
        const [declarations] = gemini.formatTools(tools);
        expect((declarations?.functionDeclarations ?? []).flatMap(geminiDeclarationViolations)).toEqual([]);
      });
    });
  }
});
