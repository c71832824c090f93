// The checks of a model client's options, so that a value the provider would refuse fails when the client is created.
import { isRecord } from "../../core/json.js";
import type { AgentTool, ToolDescriptor } from "../../core/types.js";
import { ModelError } from "../errors.js";
import { descriptorOf } from "../shared.js";
import type { ModelGenerationOptions, ModelToolChoice } from "./types.js";

/** What one provider's API takes of the shared options. */
interface GenerationLimits {
  /** The highest temperature (the lowest is 0). */
  readonly maxTemperature: number;
  /** The most stop sequences; 0 when the API takes none. */
  readonly maxStopSequences: number;
}

/** A `ModelError` (`invalid-model-options`) about an option of this client. */
export function invalidOption(model: string, message: string): ModelError {
  return new ModelError("invalid-model-options", model, `Model ${model}: ${message}`);
}

/**
 * A value as the message shows it: numbers as they are, short text quoted; longer text only by its length, since it
 * may be a key pasted into the wrong option.
 */
function shown(value: unknown): string {
  if (typeof value === "string")
    return value.length <= 20 ? JSON.stringify(value) : `text of ${value.length} characters`;
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "a list" : "an object";
  return String(value);
}

/** Throws unless `value` is an integer from `min` to `max` (inclusive). */
export function checkInteger(model: string, option: string, value: unknown, min: number, max = Infinity): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
    throw invalidOption(model, `${option} must be an integer ${range}, got ${shown(value)}`);
  }
}

/** Throws unless `value` is one of `allowed`. */
export function checkOneOf(model: string, option: string, value: unknown, allowed: readonly string[]): void {
  if (typeof value !== "string" || !allowed.includes(value)) {
    throw invalidOption(model, `${option} must be one of ${allowed.join(", ")}, got ${shown(value)}`);
  }
}

/**
 * Checks `maxTokens` and the shared options against one provider's limits: a positive integer `maxTokens`, a finite
 * temperature from 0 to `maxTemperature`, a known `toolChoice`, non-empty stop sequences within the API's count, and
 * an `extraBody` that is an object without `stream` (the `stream` option decides how the reply is read).
 */
export function checkGenerationOptions(
  model: string,
  options: ModelGenerationOptions & { readonly maxTokens?: number },
  limits: GenerationLimits,
): void {
  if (options.maxTokens !== undefined) checkInteger(model, "maxTokens", options.maxTokens, 1);
  const { temperature, toolChoice, stopSequences, extraBody } = options;
  if (
    temperature !== undefined &&
    (typeof temperature !== "number" ||
      !Number.isFinite(temperature) ||
      temperature < 0 ||
      temperature > limits.maxTemperature)
  ) {
    throw invalidOption(
      model,
      `temperature must be a number from 0 to ${limits.maxTemperature}, got ${shown(temperature)}`,
    );
  }
  if (toolChoice !== undefined && !isToolChoice(toolChoice)) {
    throw invalidOption(
      model,
      `toolChoice must be "auto", "none", "required" or { tool: "<name>" }, got ${shown(toolChoice)}`,
    );
  }
  if (stopSequences !== undefined) {
    if (limits.maxStopSequences === 0) {
      throw invalidOption(
        model,
        'stopSequences cannot be sent: the Responses API has none. Use api: "chat" (Chat Completions) for them.',
      );
    }
    if (!Array.isArray(stopSequences) || stopSequences.some((stop) => typeof stop !== "string" || stop === "")) {
      throw invalidOption(model, "stopSequences must be a list of non-empty strings");
    }
    if (stopSequences.length > limits.maxStopSequences) {
      throw invalidOption(
        model,
        `stopSequences takes at most ${limits.maxStopSequences} sequences here, got ${stopSequences.length}`,
      );
    }
  }
  if (extraBody !== undefined) {
    if (!isRecord(extraBody)) throw invalidOption(model, `extraBody must be an object, got ${shown(extraBody)}`);
    if ("stream" in extraBody) throw invalidOption(model, "extraBody.stream is not allowed: use the stream option");
  }
}

function isToolChoice(value: unknown): value is ModelToolChoice {
  if (value === "auto" || value === "none" || value === "required") return true;
  return isRecord(value) && typeof value.tool === "string" && value.tool !== "";
}

/**
 * The tool choice to send with this turn's tools: none without tools (the APIs refuse a choice without them), and
 * a `ModelError` (`invalid-model-options`) when it names a tool the turn does not have.
 */
export function toolChoiceFor(
  model: string,
  choice: ModelToolChoice | undefined,
  tools: readonly (AgentTool | ToolDescriptor)[],
): ModelToolChoice | undefined {
  if (choice === undefined || tools.length === 0) return undefined;
  if (typeof choice === "object" && !tools.some((tool) => descriptorOf(tool).name === choice.tool)) {
    const names = tools.map((tool) => descriptorOf(tool).name);
    const listed =
      names.length > 20 ? `${names.slice(0, 20).join(", ")} and ${names.length - 20} more` : names.join(", ");
    throw invalidOption(
      model,
      `toolChoice names the tool ${choice.tool}, which is not among this turn's tools (${listed})`,
    );
  }
  return choice;
}
