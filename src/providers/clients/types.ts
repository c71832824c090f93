// The model client contract: one assistant turn from a system prompt, a transcript and tools.
import type { AgentTool, ToolDescriptor, ToolResultBlock } from "../../core/types.js";
import type { ToolCall } from "../types.js";

/** The assistant's message as its provider sent it, kept so the next request can echo it exactly. */
export interface ProviderMessage {
  /** Which client wrote it (`anthropic`, `openai-chat`, `openai-responses`, `gemini`); other clients ignore it. */
  readonly provider: string;
  readonly value: unknown;
  /**
   * Anthropic: the id of the code execution container the reply ran in (its `container.id`), sent back as the next
   * request's `container` (the API requires it while a program waits for tool results).
   */
  readonly container?: string;
}

/** One message of a provider-neutral transcript. */
export type TranscriptMessage =
  | { readonly role: "user"; readonly text: string }
  | {
      readonly role: "assistant";
      readonly text: string;
      readonly toolCalls: readonly ToolCall[];
      readonly providerMessage?: ProviderMessage;
    }
  | { readonly role: "tool"; readonly results: readonly ToolResultBlock[] };

/** Tokens a turn used, as the provider counted them. */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Input tokens read from the provider's prompt cache, when it says. */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache, when it says. */
  readonly cacheWriteTokens?: number;
}

/**
 * Why the model ended its turn: `end` (it is done), `tool_use` (it called tools), `max_tokens` (cut off),
 * `refusal`, or `other` (see `rawStopReason`).
 */
export type ModelStopReason = "end" | "tool_use" | "max_tokens" | "refusal" | "other";

/**
 * A piece of a tool call as a streaming client reads it, before the turn is complete. The first delta of a call
 * carries its `name` (and its `id` when the provider sends one); later ones carry only more argument text. The
 * `argumentsDelta`s of one `index`, joined, are the call's arguments as JSON text as the model wrote them, which
 * may not be valid JSON until the last piece (Gemini sends each call whole: one delta with all of it). The turn's
 * `toolCalls` remain what to act on: deltas are for showing progress.
 */
export interface ToolCallDelta {
  /** The call's place among the turn's tool calls, from 0: `toolCalls[index]` of the finished turn. */
  readonly index: number;
  /** The provider's id of the call, on the delta that announces it (absent when the provider gives none). */
  readonly id?: string;
  /** The tool's name, on the delta that announces the call. */
  readonly name?: string;
  /** More of the arguments text; `""` on a delta that only announces the call. */
  readonly argumentsDelta: string;
}

/** What a model client gets for one turn. */
export interface ModelRequest {
  readonly systemPrompt: string;
  readonly messages: readonly TranscriptMessage[];
  readonly tools: readonly (AgentTool | ToolDescriptor)[];
  /**
   * Every deferred tool the model may find, found yet or not, in a stable order (`runAgent` gives the session's
   * deferred active tools, in active order). A client with provider-native tool search turned on sends these with
   * `defer_loading: true`, and sends `tools` without them (a found tool stays where it is, among the deferred ones,
   * so the request's tools are the same bytes every turn); every other client ignores it and sends `tools`.
   */
  readonly deferredTools?: readonly (AgentTool | ToolDescriptor)[];
  readonly signal?: AbortSignal;
  /** Called with each piece of text as it streams in (clients that do not stream call it once with the whole text). */
  readonly onTextDelta?: (text: string) => void;
  /**
   * Called with each piece of a tool call as it streams in, in the order the pieces arrive (interleaved with
   * `onTextDelta` as the model writes). Only streaming clients call it: a client that does not stream gives the
   * calls whole in the turn's `toolCalls` and never calls this.
   */
  readonly onToolCallDelta?: (delta: ToolCallDelta) => void;
}

/** One assistant turn. */
export interface ModelTurn {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage?: ModelUsage;
  readonly stopReason: ModelStopReason;
  /** The provider's own stop reason, as sent. */
  readonly rawStopReason?: string;
  readonly providerMessage?: ProviderMessage;
}

/**
 * A model behind any provider. `complete` runs one turn; it rejects with `ModelError` (a code and the HTTP status
 * when there was one) and, when the signal aborts, with the signal's reason or an `AbortError`.
 */
export interface ModelClient {
  /** For diagnostics, e.g. `anthropic:claude-sonnet-4-5`, `scripted:turns.json`. */
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelTurn>;
}

/** How a provider client reaches its server. Every field is optional; an absent one keeps the SDK's default. */
export interface ModelConnectionOptions {
  /** Default: the provider's environment variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, `GEMINI_API_KEY`). */
  readonly apiKey?: string;
  /** Default: the provider's own API. */
  readonly baseURL?: string;
  /** Retries of failed requests (429, 5xx, connection errors). Default: the SDK's (2). */
  readonly maxRetries?: number;
  /** Per request. Default: the SDK's. */
  readonly timeoutMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Which tools the model may call: `auto` (it decides), `none` (no tool), `required` (at least one; Anthropic's and
 * Gemini's `any`), or `{ tool }` (that one tool). A request without tools sends none of it.
 */
export type ModelToolChoice = "auto" | "none" | "required" | { readonly tool: string };

/**
 * What every provider client takes with the same meaning; each maps it to its own API (docs/providers.md, "Model
 * clients"). Every field is optional; an absent one is not sent, so the provider's default holds. A bad value throws
 * `ModelError` (`invalid-model-options`) when the client is created.
 */
export interface ModelGenerationOptions {
  /** Sampling temperature: Anthropic 0 to 1, OpenAI and Gemini 0 to 2. */
  readonly temperature?: number;
  /**
   * Which tools the model may call; a `{ tool }` the turn does not have fails that turn with `invalid-model-options`.
   */
  readonly toolChoice?: ModelToolChoice;
  /** Text that ends the reply where the model writes it (OpenAI Chat at most 4, Gemini 5; not the Responses API). */
  readonly stopSequences?: readonly string[];
  /**
   * Anything else the provider's request takes, merged into the request body last: objects key by key (so
   * `{ generationConfig: { topK: 40 } }` keeps the temperature), anything else replaced.
   */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}
