// A model client for the Gemini API (generateContent) over plain fetch: no SDK to install.
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { ModelError } from "../errors.js";
import { gemini, isMadeUpId } from "../gemini.js";
import { fromGeminiName, toGeminiName } from "../gemini-names.js";
import {
  checkGenerationOptions,
  checkInteger,
  checkOneOf,
  invalidOption,
  toolChoiceFor,
} from "./check-model-options.js";
import { mapTranscript } from "./map-transcript.js";
import { mergeExtraBody } from "./merge-extra-body.js";
import { postToModelApi } from "./post-to-model-api.js";
import { readServerSentEvents } from "./read-server-sent-events.js";
import { count } from "./sdk-support.js";
import type {
  ModelClient,
  ModelConnectionOptions,
  ModelGenerationOptions,
  ModelRequest,
  ModelStopReason,
  ModelToolChoice,
  ModelTurn,
  ModelUsage,
  TranscriptMessage,
} from "./types.js";

/** Gemini 3's thinking levels (which ones a model takes depends on the model). */
const THINKING_LEVELS = ["minimal", "low", "medium", "high"] as const;

/**
 * Options of `createGeminiModel`. `temperature` (0 to 2) and `stopSequences` (at most 5) go in `generationConfig`;
 * `toolChoice` is sent as `toolConfig.functionCallingConfig` (`required` as mode `ANY`, `{ tool }` as `ANY` with
 * that one name in `allowedFunctionNames`).
 */
export interface GeminiModelOptions extends ModelConnectionOptions, ModelGenerationOptions {
  /** e.g. `gemini-2.5-flash` (a leading `models/` is dropped). */
  readonly model: string;
  /** `generationConfig.maxOutputTokens`. Default: the model's. */
  readonly maxTokens?: number;
  /**
   * Stream the reply (`streamGenerateContent`), calling `onTextDelta` and `onToolCallDelta` as parts arrive. Default
   * false.
   */
  readonly stream?: boolean;
  /**
   * `generationConfig.thinkingConfig.thinkingBudget` (Gemini 2.5): tokens to think, 0 for none, -1 for the model to
   * decide. Not with `thinkingLevel`.
   */
  readonly thinkingBudget?: number;
  /** `generationConfig.thinkingConfig.thinkingLevel` (Gemini 3), sent upper-case. Not with `thinkingBudget`. */
  readonly thinkingLevel?: (typeof THINKING_LEVELS)[number];
}

/** Where the Gemini API lives when no `baseURL` is given. */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";
const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RETRIES = 2;

/**
 * A `ModelClient` for the Gemini API (`POST {baseURL}/v1beta/models/{model}:generateContent`, or
 * `:streamGenerateContent?alt=sse` with `stream: true`) over `fetch`. The key goes in the `x-goog-api-key` header:
 * `apiKey`, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`; with a `baseURL` and no key anywhere none is sent (a
 * proxy or a local server), without either the first turn fails. The model's content is echoed back exactly as
 * sent, thought signatures included (Gemini 3 requires them). Defaults: `timeoutMs` 10 minutes, `maxRetries` 2.
 */
export function createGeminiModel(options: GeminiModelOptions): ModelClient {
  const model = options.model.replace(/^models\//, "");
  const name = `gemini:${model}`;
  checkGenerationOptions(name, options, { maxTemperature: 2, maxStopSequences: 5 });
  if (options.thinkingBudget !== undefined) checkInteger(name, "thinkingBudget", options.thinkingBudget, -1);
  if (options.thinkingLevel !== undefined) checkOneOf(name, "thinkingLevel", options.thinkingLevel, THINKING_LEVELS);
  if (options.thinkingBudget !== undefined && options.thinkingLevel !== undefined) {
    throw invalidOption(name, "thinkingBudget and thinkingLevel cannot go together (Gemini refuses both)");
  }
  const base = (options.baseURL ?? GEMINI_BASE_URL).replace(/\/+$/, "");
  const streamed = options.stream === true;
  const url = `${base}/v1beta/models/${encodeURIComponent(model)}:${streamed ? "streamGenerateContent?alt=sse" : "generateContent"}`;
  return {
    name,
    async complete(request) {
      const { signal } = request;
      try {
        const apiKey = options.apiKey ?? process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
        if (apiKey === undefined && options.baseURL === undefined) {
          throw new ModelError(
            "request-failed",
            name,
            `Model ${name} needs an API key: pass apiKey, or set GEMINI_API_KEY (or GOOGLE_API_KEY)`,
          );
        }
        const turn = await postToModelApi(
          {
            model: name,
            url,
            body: geminiRequestBody(request, options, name),
            headers: {
              "content-type": "application/json",
              ...(apiKey === undefined ? {} : { "x-goog-api-key": apiKey }),
              ...options.headers,
            },
            timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
            ...(signal === undefined ? {} : { signal }),
          },
          async (response) =>
            readGeminiResponse(
              streamed ? await readStream(response, request, name) : await readBody(response, name),
              name,
            ),
        );
        if (!streamed && turn.text !== "") request.onTextDelta?.(turn.text);
        return turn;
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        if (error instanceof ModelError) throw error;
        throw new ModelError("request-failed", name, `Model ${name} request failed: ${describeThrown(error)}`, {
          cause: error,
        });
      }
    },
  };
}

/**
 * A generateContent request body: the system prompt, the transcript as contents, the tools, the tool choice as
 * `toolConfig`, the generation options that are set as `generationConfig`, then `extraBody`.
 */
function geminiRequestBody(request: ModelRequest, options: GeminiModelOptions, name: string): Record<string, unknown> {
  const tools = gemini.formatTools(request.tools);
  const choice = toolChoiceFor(name, options.toolChoice, request.tools);
  const thinking = {
    ...(options.thinkingBudget === undefined ? {} : { thinkingBudget: options.thinkingBudget }),
    ...(options.thinkingLevel === undefined ? {} : { thinkingLevel: options.thinkingLevel.toUpperCase() }),
  };
  const config = {
    ...(options.maxTokens === undefined ? {} : { maxOutputTokens: options.maxTokens }),
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.stopSequences === undefined ? {} : { stopSequences: [...options.stopSequences] }),
    ...(Object.keys(thinking).length === 0 ? {} : { thinkingConfig: thinking }),
  };
  const body = {
    ...(request.systemPrompt === "" ? {} : { systemInstruction: { parts: [{ text: request.systemPrompt }] } }),
    ...(tools.length === 0 ? {} : { tools }),
    ...(choice === undefined ? {} : { toolConfig: { functionCallingConfig: functionCallingConfig(choice) } }),
    contents: toGeminiContents(request.messages),
    ...(Object.keys(config).length === 0 ? {} : { generationConfig: config }),
  };
  return mergeExtraBody(body, options.extraBody);
}

/** A tool choice as Gemini's `functionCallingConfig`, the named tool under the name Gemini knows it by. */
function functionCallingConfig(choice: ModelToolChoice): Record<string, unknown> {
  if (typeof choice === "object") return { mode: "ANY", allowedFunctionNames: [toGeminiName(choice.tool)] };
  return { mode: choice === "required" ? "ANY" : choice.toUpperCase() };
}

/**
 * The transcript as Gemini contents: user text as a `user` content, the model's content echoed as sent (else built
 * from its text and calls), each turn's results as one `user` content of functionResponse parts.
 */
export function toGeminiContents(messages: readonly TranscriptMessage[]): unknown[] {
  return mapTranscript(messages, {
    user: (text) => [{ role: "user", parts: [{ text }] }],
    assistant: (message) => {
      const raw = message.providerMessage;
      if (raw?.provider === "gemini" && isRecord(raw.value) && Array.isArray(raw.value.parts)) {
        // Gemini refuses a content without parts (a reply blocked before any was written): leave it out.
        return raw.value.parts.length === 0 ? [] : [raw.value];
      }
      const parts: unknown[] = message.text === "" ? [] : [{ text: message.text }];
      for (const call of message.toolCalls) {
        const args = isRecord(call.input) ? call.input : {};
        const name = toGeminiName(call.name);
        parts.push({
          functionCall: isMadeUpId(call.id) ? { name, args } : { id: call.id, name, args },
        });
      }
      return parts.length === 0 ? [] : [{ role: "model", parts }];
    },
    results: (results, calls) => [gemini.formatToolResults(results, calls)],
  });
}

const STOP_REASONS: Readonly<Record<string, ModelStopReason>> = {
  STOP: "end",
  MAX_TOKENS: "max_tokens",
  SAFETY: "refusal",
  RECITATION: "refusal",
  BLOCKLIST: "refusal",
  PROHIBITED_CONTENT: "refusal",
  SPII: "refusal",
  IMAGE_SAFETY: "refusal",
  IMAGE_PROHIBITED_CONTENT: "refusal",
  IMAGE_RECITATION: "refusal",
};

/**
 * A generateContent response body as a model turn: the first candidate's text (thought summaries left out), its
 * function calls, `usageMetadata` as usage (thinking tokens counted as output), `finishReason` as the stop reason;
 * a prompt blocked before any candidate is a `refusal` naming `promptFeedback.blockReason`. Throws `ModelError`
 * (`invalid-response`) when the body is not a response.
 */
export function readGeminiResponse(response: unknown, model: string): ModelTurn {
  if (!isRecord(response)) {
    throw new ModelError("invalid-response", model, `Model ${model} answered with something that is not a response`);
  }
  const usage = readUsage(response.usageMetadata);
  const candidate = Array.isArray(response.candidates) ? response.candidates[0] : undefined;
  if (!isRecord(candidate)) {
    const blocked = isRecord(response.promptFeedback) ? response.promptFeedback.blockReason : undefined;
    if (typeof blocked !== "string") {
      throw new ModelError("invalid-response", model, `Model ${model} answered with no candidates`);
    }
    return {
      text: "",
      toolCalls: [],
      stopReason: "refusal",
      rawStopReason: blocked,
      ...(usage === undefined ? {} : { usage }),
    };
  }
  const content = isRecord(candidate.content) ? candidate.content : undefined;
  const parts = content !== undefined && Array.isArray(content.parts) ? content.parts : [];
  const text = parts
    .filter(
      (part): part is { text: string } => isRecord(part) && typeof part.text === "string" && part.thought !== true,
    )
    .map((part) => part.text)
    .join("");
  const toolCalls = gemini.parseToolCalls(response);
  const rawStopReason = typeof candidate.finishReason === "string" ? candidate.finishReason : undefined;
  return {
    text,
    toolCalls,
    stopReason: toolCalls.length > 0 ? "tool_use" : (rawStopReason && STOP_REASONS[rawStopReason]) || "other",
    ...(rawStopReason === undefined ? {} : { rawStopReason }),
    ...(usage === undefined ? {} : { usage }),
    providerMessage: { provider: "gemini", value: { role: content?.role ?? "model", parts } },
  };
}

function readUsage(metadata: unknown): ModelUsage | undefined {
  if (!isRecord(metadata)) return undefined;
  return {
    inputTokens: count(metadata, "promptTokenCount"),
    outputTokens: count(metadata, "candidatesTokenCount") + count(metadata, "thoughtsTokenCount"),
    cacheReadTokens: count(metadata, "cachedContentTokenCount"),
  };
}

async function readBody(response: Response, model: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ModelError(
      "invalid-response",
      model,
      `Model ${model} answered with something that is not JSON: ${describeThrown(error)}`,
      { cause: error },
    );
  }
}

/**
 * A streamed reply read to its end, as the one response a non-streamed request would have got: the chunks' parts
 * in order, pieces of plain text joined (so the echoed content is the same either way), the last finish reason and
 * usage. Text and function calls are reported as they arrive.
 */
async function readStream(response: Response, request: ModelRequest, model: string): Promise<unknown> {
  if (response.body === null) throw new ModelError("invalid-response", model, `Model ${model} sent no stream`);
  const parts: Record<string, unknown>[] = [];
  let role: unknown;
  let finishReason: unknown;
  let usageMetadata: unknown;
  let promptFeedback: unknown;
  let calls = 0;
  let chunks = 0;
  for await (const event of readServerSentEvents(response.body)) {
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch (error) {
      throw new ModelError(
        "invalid-response",
        model,
        `Model ${model} streamed an event that is not JSON: ${describeThrown(error)}`,
        { cause: error },
      );
    }
    if (!isRecord(chunk))
      throw new ModelError("invalid-response", model, `Model ${model} streamed an event that is not a response`);
    if (isRecord(chunk.error)) {
      const { message, code } = chunk.error;
      throw new ModelError(
        "request-failed",
        model,
        `Model ${model} failed while it answered: ${typeof message === "string" ? message : "no reason given"}`,
        typeof code === "number" ? { status: code } : undefined,
      );
    }
    chunks++;
    usageMetadata = chunk.usageMetadata ?? usageMetadata;
    promptFeedback = chunk.promptFeedback ?? promptFeedback;
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    if (!isRecord(candidate)) continue;
    finishReason = candidate.finishReason ?? finishReason;
    const content = isRecord(candidate.content) ? candidate.content : undefined;
    role = content?.role ?? role;
    for (const part of content !== undefined && Array.isArray(content.parts) ? content.parts : []) {
      if (!isRecord(part)) continue;
      if (typeof part.text === "string" && part.thought !== true && part.text !== "") request.onTextDelta?.(part.text);
      if (isRecord(part.functionCall)) {
        const call = part.functionCall;
        request.onToolCallDelta?.({
          index: calls++,
          ...(typeof call.id === "string" && call.id !== "" ? { id: call.id } : {}),
          ...(typeof call.name === "string" ? { name: fromGeminiName(call.name) } : {}),
          argumentsDelta: JSON.stringify(call.args ?? {}),
        });
      }
      appendPart(parts, part);
    }
  }
  const blocked = isRecord(promptFeedback) && promptFeedback.blockReason !== undefined;
  if (chunks === 0 || (finishReason === undefined && !blocked)) {
    throw new ModelError("invalid-response", model, `Model ${model} ended its stream before the reply was complete`);
  }
  if (parts.length === 0 && finishReason === undefined) return { promptFeedback, usageMetadata };
  return {
    candidates: [
      { content: { role: role ?? "model", parts }, ...(finishReason === undefined ? {} : { finishReason }) },
    ],
    ...(usageMetadata === undefined ? {} : { usageMetadata }),
    ...(promptFeedback === undefined ? {} : { promptFeedback }),
  };
}

/** Plain text: a part with `text` and nothing but a `thought` flag and a `thoughtSignature` besides. */
function isPlainText(part: Record<string, unknown>): boolean {
  return (
    typeof part.text === "string" &&
    Object.keys(part).every((key) => key === "text" || key === "thought" || key === "thoughtSignature")
  );
}

/**
 * Adds a streamed part: a piece of plain text continues the plain text before it (same `thought` flag, no signature
 * yet), taking the signature it may carry, which Gemini sends on the last piece; an empty piece without a signature
 * is dropped; anything else is a part of its own.
 */
function appendPart(parts: Record<string, unknown>[], part: Record<string, unknown>): void {
  // An empty piece that carries nothing (the final chunk often has one) would not be in a whole reply.
  if (isPlainText(part) && part.text === "" && part.thoughtSignature === undefined) return;
  const last = parts.at(-1);
  if (
    last !== undefined &&
    isPlainText(last) &&
    isPlainText(part) &&
    last.thoughtSignature === undefined &&
    last.thought === part.thought
  ) {
    last.text = `${last.text as string}${part.text as string}`;
    if (part.thoughtSignature !== undefined) last.thoughtSignature = part.thoughtSignature;
    return;
  }
  parts.push({ ...part });
}
