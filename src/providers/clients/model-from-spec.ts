// A model client from a one-line spec, as a CLI flag gives it: scripted:FILE, anthropic:MODEL, openai:MODEL,
// gemini:MODEL.
import { ModelError } from "../errors.js";
import { createAnthropicModel } from "./anthropic-model.js";
import { checkOneOf } from "./check-model-options.js";
import { createGeminiModel } from "./gemini-model.js";
import { createOpenAIModel } from "./openai-model.js";
import { createScriptedModel } from "./scripted-model.js";
import type { ModelClient, ModelGenerationOptions } from "./types.js";

/**
 * What a spec may add: the server to talk to, a key, whether to stream, strict function calling (OpenAI),
 * provider-native tool search (`anthropic:` and `openai-responses:`; the other forms ignore it), the generation
 * options every provider client takes, and a reasoning level. A scripted model ignores all but the spec.
 */
export interface ModelSpecOptions extends ModelGenerationOptions {
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly stream?: boolean;
  readonly strict?: boolean;
  readonly nativeToolSearch?: boolean;
  /**
   * How hard the model thinks, each provider its own way: OpenAI's reasoning effort as is; Anthropic a thinking
   * budget of 1024, 4096 or 16384 tokens with `max_tokens` 4096 above it; Gemini a `thinkingBudget` of 1024, 8192
   * or 24576 tokens.
   */
  readonly reasoning?: "low" | "medium" | "high";
}

const REASONING_LEVELS = ["low", "medium", "high"] as const;
const ANTHROPIC_THINKING_BUDGETS = { low: 1024, medium: 4096, high: 16_384 } as const;
const GEMINI_THINKING_BUDGETS = { low: 1024, medium: 8192, high: 24_576 } as const;

/** The spec forms `createModelFromSpec` understands. */
const MODEL_SPEC_FORMS = [
  "scripted:FILE",
  "anthropic:MODEL",
  "openai:MODEL",
  "openai-responses:MODEL",
  "gemini:MODEL",
] as const;

/**
 * A model client from `scripted:FILE`, `anthropic:MODEL`, `openai:MODEL` (Chat Completions, any compatible server
 * with `baseURL`), `openai-responses:MODEL` or `gemini:MODEL`. Throws `ModelError` (`invalid-model-spec`) naming the
 * forms when the spec is not one of them, and (`invalid-model-options`) for an option the provider would refuse.
 */
export function createModelFromSpec(spec: string, options: ModelSpecOptions = {}): ModelClient {
  const colon = typeof spec === "string" ? spec.indexOf(":") : -1;
  const kind = colon > 0 ? spec.slice(0, colon) : "";
  const rest = colon > 0 ? spec.slice(colon + 1).trim() : "";
  const { reasoning } = options;
  if (reasoning !== undefined) checkOneOf(String(spec), "reasoning", reasoning, REASONING_LEVELS);
  const common = {
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.stream === undefined ? {} : { stream: options.stream }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
    ...(options.stopSequences === undefined ? {} : { stopSequences: options.stopSequences }),
    ...(options.extraBody === undefined ? {} : { extraBody: options.extraBody }),
  };
  const native = options.nativeToolSearch === undefined ? {} : { nativeToolSearch: options.nativeToolSearch };
  if (rest !== "") {
    switch (kind) {
      case "scripted":
        return createScriptedModel(rest);
      case "anthropic": {
        const budget = reasoning === undefined ? undefined : ANTHROPIC_THINKING_BUDGETS[reasoning];
        const thinking = budget === undefined ? {} : { thinkingBudget: budget, maxTokens: budget + 4096 };
        return createAnthropicModel({ model: rest, ...common, ...native, ...thinking });
      }
      case "gemini":
        return createGeminiModel({
          model: rest,
          ...common,
          ...(reasoning === undefined ? {} : { thinkingBudget: GEMINI_THINKING_BUDGETS[reasoning] }),
        });
      case "openai":
      case "openai-responses":
        return createOpenAIModel({
          model: rest,
          api: kind === "openai" ? "chat" : "responses",
          ...common,
          ...(options.strict === undefined ? {} : { strict: options.strict }),
          ...(kind === "openai" ? {} : native),
          ...(reasoning === undefined ? {} : { reasoningEffort: reasoning }),
        });
    }
  }
  throw new ModelError(
    "invalid-model-spec",
    String(spec),
    `Unknown model ${JSON.stringify(spec)}: expected one of ${MODEL_SPEC_FORMS.join(", ")}`,
  );
}
