// measureToolDefinitions: what a request's tool definitions weigh in each provider's format, through the adapters.
import { estimateToolTokens } from "../core/defer/estimate-tool-tokens.js";
import type { AgentTool } from "../core/types.js";
import { anthropic } from "../providers/anthropic.js";
import { gemini } from "../providers/gemini.js";
import { openaiChat } from "../providers/openai-chat.js";
import { openaiResponses } from "../providers/openai-responses.js";
import type { ProviderAdapter } from "../providers/types.js";
import type { DefinitionMeasure, DefinitionSize, MeasuredProvider } from "./types.js";

const ADAPTERS: readonly [MeasuredProvider, ProviderAdapter][] = [
  ["anthropic", anthropic],
  ["openai-chat", openaiChat],
  ["openai-responses", openaiResponses],
  ["gemini", gemini],
];

const CHARACTERS_PER_TOKEN = 4;

/** A session hands out the same frozen `modelTools` array until it changes: measured once per array. */
const measured = new WeakMap<readonly AgentTool[], DefinitionMeasure>();

/**
 * The tools as each provider adapter's `formatTools` writes them (default options, as the model clients send them
 * without strict mode or native tool search): the UTF-8 bytes of that JSON and its estimated tokens, and the sum of
 * `estimateToolTokens` over the tools.
 */
export function measureToolDefinitions(tools: readonly AgentTool[]): DefinitionMeasure {
  const known = measured.get(tools);
  if (known !== undefined) return known;
  const providers = {} as Record<MeasuredProvider, DefinitionSize>;
  for (const [name, adapter] of ADAPTERS) {
    const json = JSON.stringify(adapter.formatTools(tools));
    providers[name] = {
      bytes: Buffer.byteLength(json, "utf8"),
      estimatedTokens: Math.ceil(json.length / CHARACTERS_PER_TOKEN),
    };
  }
  let estimatedTokens = 0;
  for (const tool of tools) estimatedTokens += estimateToolTokens(tool);
  const measure: DefinitionMeasure = {
    tools: tools.length,
    names: tools.map((tool) => tool.descriptor.name),
    estimatedTokens,
    providers,
  };
  if (Object.isFrozen(tools)) measured.set(tools, measure);
  return measure;
}
