// Reads the provider wire fixtures (copied from the shared fixtures, each with its `_source`) for tests.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding the provider fixtures. */
export const PROVIDER_FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "providers");

/** Every provider fixture's file name. */
export function providerFixtureNames(): string[] {
  return readdirSync(PROVIDER_FIXTURES_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort();
}

/** One fixture, parsed. Typed loosely: tests read the wire shapes field by field. */
// biome-ignore lint/suspicious/noExplicitAny: fixtures are untyped wire captures
export function readProviderFixture(name: string): any {
  return JSON.parse(readFileSync(join(PROVIDER_FIXTURES_DIR, name), "utf8"));
}

/** One tool call a scripted model turn makes, as the wire carries it (`arguments` is JSON text). */
export interface ScriptedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/**
 * A scripted OpenAI Chat Completions tool round, from the captured tool-call completion: the model's turn that makes
 * `call`, then its turn that answers `answer` and stops. `model` replaces the captured model name in both.
 */
// biome-ignore lint/suspicious/noExplicitAny: fixtures are untyped wire captures
export function openAIChatToolRound(options: { call: ScriptedToolCall; answer: string; model?: string }): [any, any] {
  const completion = readProviderFixture("openai-chat.tool-calls-response.json").response;
  const { id, name, arguments: input } = options.call;
  const call = structuredClone(completion);
  call.choices[0].message.tool_calls = [{ id, type: "function", function: { name, arguments: input } }];
  const answer = structuredClone(completion);
  answer.id = "chatcmpl-2";
  answer.choices[0].finish_reason = "stop";
  answer.choices[0].message = { role: "assistant", content: options.answer, refusal: null };
  if (options.model !== undefined) for (const turn of [call, answer]) turn.model = options.model;
  return [call, answer];
}
