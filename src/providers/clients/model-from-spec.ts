// A model client from a one-line spec, as a CLI flag gives it: scripted:FILE, anthropic:MODEL, openai:MODEL, gemini:MODEL.
import { ModelError } from "../errors.js";
import { createAnthropicModel } from "./anthropic-model.js";
import { createGeminiModel } from "./gemini-model.js";
import { createOpenAIModel } from "./openai-model.js";
import { createScriptedModel } from "./scripted-model.js";
import type { ModelClient } from "./types.js";

/**
 * What a spec may add: the server to talk to, a key, whether to stream, strict function calling (OpenAI), and
 * provider-native tool search (`anthropic:` and `openai-responses:`; the other forms ignore it).
 */
export interface ModelSpecOptions {
  readonly baseURL?: string;
  readonly apiKey?: string;
  readonly stream?: boolean;
  readonly strict?: boolean;
  readonly nativeToolSearch?: boolean;
}

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
 * with `baseURL`), `openai-responses:MODEL` or `gemini:MODEL`. Throws `ModelError` (`invalid-model-spec`) naming the forms when the
 * spec is not one of them.
 */
export function createModelFromSpec(spec: string, options: ModelSpecOptions = {}): ModelClient {
  const colon = typeof spec === "string" ? spec.indexOf(":") : -1;
  const kind = colon > 0 ? spec.slice(0, colon) : "";
  const rest = colon > 0 ? spec.slice(colon + 1).trim() : "";
  const common = {
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.stream === undefined ? {} : { stream: options.stream }),
  };
  const native = options.nativeToolSearch === undefined ? {} : { nativeToolSearch: options.nativeToolSearch };
  if (rest !== "") {
    switch (kind) {
      case "scripted":
        return createScriptedModel(rest);
      case "anthropic":
        return createAnthropicModel({ model: rest, ...common, ...native });
      case "gemini":
        return createGeminiModel({ model: rest, ...common });
      case "openai":
      case "openai-responses":
        return createOpenAIModel({
          model: rest,
          api: kind === "openai" ? "chat" : "responses",
          ...common,
          ...(options.strict === undefined ? {} : { strict: options.strict }),
          ...(kind === "openai" ? {} : native),
        });
    }
  }
  throw new ModelError(
    "invalid-model-spec",
    String(spec),
    `Unknown model ${JSON.stringify(spec)}: expected one of ${MODEL_SPEC_FORMS.join(", ")}`,
  );
}
