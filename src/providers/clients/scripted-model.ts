// A model that replays canned turns from JSON, checking optional expectations: the default model, no network.
import { readFile } from "node:fs/promises";
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { contentBlockAsText } from "../../core/tool-result.js";
import { ModelError } from "../errors.js";
import type { ToolCall } from "../types.js";
import type { ModelClient, ModelRequest, ModelStopReason, ModelTurn, ModelUsage } from "./types.js";
import { waitUnlessAborted } from "./wait-unless-aborted.js";

/** What a scripted turn may check about the request it answers. */
export interface ScriptedExpectation {
  /** The results of the previous turn's calls, in order and as many: each `isError`, and text `contains`/`equals`. */
  readonly toolResults?: readonly {
    readonly id?: string;
    readonly isError?: boolean;
    readonly contains?: string;
    readonly equals?: string;
  }[];
  /** Names of tools that must be offered to the model this turn. */
  readonly tools?: readonly string[];
  /** Text the system prompt must contain. */
  readonly systemPromptContains?: string;
}

/** One canned assistant turn. */
export interface ScriptedTurn {
  readonly text?: string;
  /** `id` defaults to `scripted-<turn>-<index>`; `input` (any JSON, default `{}`) goes to dispatch as it is. */
  readonly toolCalls?: readonly { readonly id?: string; readonly name: string; readonly input?: unknown }[];
  readonly usage?: ModelUsage;
  /** Default `tool_use` when there are calls, else `end`. */
  readonly stopReason?: ModelStopReason;
  /** Wait this long before answering (the signal still aborts the wait): a slow model, for tests. */
  readonly delayMs?: number;
  readonly expect?: ScriptedExpectation;
}

/** A script file's content: `{ "turns": [...] }`, or the array of turns itself. */
export type ScriptedScript = { readonly turns: readonly ScriptedTurn[] } | readonly ScriptedTurn[];

const STOP_REASONS: readonly ModelStopReason[] = ["end", "tool_use", "max_tokens", "refusal", "other"];

/**
 * A `ModelClient` replaying canned turns, one per `complete`, from turns given in code or a JSON file (read on the
 * first turn). Fails with `ModelError`: `script-unreadable`, `invalid-script` (naming the bad path),
 * `script-exhausted`, `expectation-failed`. Use `loadScriptedModel` to read and check a file up front.
 */
export function createScriptedModel(source: ScriptedScript | string): ModelClient {
  const name = typeof source === "string" ? `scripted:${source}` : "scripted";
  let turns: Promise<readonly ScriptedTurn[]> | undefined;
  const getTurns = () => {
    turns ??= typeof source === "string" ? readScript(source, name) : Promise.resolve(checkScript(source, name));
    return turns;
  };
  let next = 0;
  return {
    name,
    async complete(request) {
      const script = await getTurns();
      const index = next++;
      const turn = script[index];
      if (turn === undefined) {
        throw new ModelError(
          "script-exhausted",
          name,
          `Scripted model ${name} has ${script.length} turns and was asked for turn ${index + 1}`,
        );
      }
      if (turn.expect !== undefined) checkExpectation(turn.expect, request, index, name);
      await waitUnlessAborted(turn.delayMs ?? 0, request.signal);
      const result = toModelTurn(turn, index);
      if (result.text !== "") request.onTextDelta?.(result.text);
      return result;
    },
  };
}

/** Reads and checks a script file, then returns its model. Rejects with `script-unreadable` or `invalid-script`. */
export async function loadScriptedModel(file: string): Promise<ModelClient> {
  const turns = await readScript(file, `scripted:${file}`);
  return createScriptedModel({ turns });
}

async function readScript(file: string, name: string): Promise<readonly ScriptedTurn[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ModelError("script-unreadable", name, `Cannot read the script ${file}: ${describeThrown(error)}`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ModelError("script-unreadable", name, `The script ${file} is not JSON: ${describeThrown(error)}`, {
      cause: error,
    });
  }
  return checkScript(parsed, name);
}

/** The script's turns after checking every field; throws `invalid-script` naming the first bad path. */
function checkScript(script: unknown, name: string): readonly ScriptedTurn[] {
  const fail = (path: string, expected: string): never => {
    throw new ModelError("invalid-script", name, `Invalid script ${name}: ${path}: expected ${expected}`);
  };
  const turns = Array.isArray(script) ? script : isRecord(script) ? script.turns : undefined;
  if (!Array.isArray(turns)) fail("turns", 'an array of turns (or a file { "turns": [...] })');
  const list = turns as unknown[];
  for (const [t, turn] of list.entries()) {
    const at = `turns[${t}]`;
    if (!isRecord(turn)) return fail(at, "an object");
    if (turn.text !== undefined && typeof turn.text !== "string") fail(`${at}.text`, "a string");
    if (turn.toolCalls !== undefined) {
      if (!Array.isArray(turn.toolCalls)) fail(`${at}.toolCalls`, "an array");
      for (const [c, call] of (turn.toolCalls as unknown[]).entries()) {
        if (!isRecord(call)) return fail(`${at}.toolCalls[${c}]`, "an object { name, input?, id? }");
        if (typeof call.name !== "string") fail(`${at}.toolCalls[${c}].name`, "a string");
        if (call.id !== undefined && typeof call.id !== "string") fail(`${at}.toolCalls[${c}].id`, "a string");
      }
    }
    if (turn.stopReason !== undefined && !STOP_REASONS.includes(turn.stopReason as ModelStopReason)) {
      fail(`${at}.stopReason`, `one of ${STOP_REASONS.join(", ")}`);
    }
    if (turn.delayMs !== undefined && !(typeof turn.delayMs === "number" && turn.delayMs >= 0)) {
      fail(`${at}.delayMs`, "a number >= 0");
    }
    if (turn.usage !== undefined) {
      const usage = turn.usage;
      if (!isRecord(usage) || typeof usage.inputTokens !== "number" || typeof usage.outputTokens !== "number") {
        fail(`${at}.usage`, "{ inputTokens: number, outputTokens: number }");
      }
    }
    if (turn.expect !== undefined) checkExpectationShape(turn.expect, `${at}.expect`, fail);
  }
  return list as ScriptedTurn[];
}

function checkExpectationShape(expect: unknown, at: string, fail: (path: string, expected: string) => never): void {
  if (!isRecord(expect)) fail(at, "an object");
  const { toolResults, tools, systemPromptContains } = expect as Record<string, unknown>;
  if (toolResults !== undefined) {
    if (!Array.isArray(toolResults)) fail(`${at}.toolResults`, "an array");
    for (const [r, entry] of (toolResults as unknown[]).entries()) {
      const path = `${at}.toolResults[${r}]`;
      if (!isRecord(entry)) fail(path, "an object { id?, isError?, contains?, equals? }");
      if (entry.id !== undefined && typeof entry.id !== "string") fail(`${path}.id`, "a string");
      if (entry.isError !== undefined && typeof entry.isError !== "boolean") fail(`${path}.isError`, "a boolean");
      if (entry.contains !== undefined && typeof entry.contains !== "string") fail(`${path}.contains`, "a string");
      if (entry.equals !== undefined && typeof entry.equals !== "string") fail(`${path}.equals`, "a string");
    }
  }
  if (tools !== undefined && !(Array.isArray(tools) && tools.every((tool) => typeof tool === "string"))) {
    fail(`${at}.tools`, "an array of tool names");
  }
  if (systemPromptContains !== undefined && typeof systemPromptContains !== "string") {
    fail(`${at}.systemPromptContains`, "a string");
  }
}

function checkExpectation(expect: ScriptedExpectation, request: ModelRequest, index: number, name: string): void {
  const problems: string[] = [];
  if (expect.toolResults !== undefined) {
    const last = request.messages.at(-1);
    const results = last?.role === "tool" ? last.results : [];
    if (results.length !== expect.toolResults.length) {
      problems.push(`expected ${expect.toolResults.length} tool results, got ${results.length}`);
    }
    expect.toolResults.forEach((wanted, r) => {
      const result = results[r];
      if (result === undefined) return;
      const text = result.content.map(contentBlockAsText);
      const joined = text.join("\n");
      const isError = result.is_error === true;
      if (wanted.id !== undefined && result.tool_use_id !== wanted.id) {
        problems.push(`result ${r}: expected id ${wanted.id}, got ${result.tool_use_id}`);
      }
      if (wanted.isError !== undefined && wanted.isError !== isError) {
        problems.push(`result ${r}: expected isError ${wanted.isError}, got ${isError} (${JSON.stringify(joined)})`);
      }
      if (wanted.contains !== undefined && !joined.includes(wanted.contains)) {
        problems.push(
          `result ${r}: expected text containing ${JSON.stringify(wanted.contains)}, got ${JSON.stringify(joined)}`,
        );
      }
      if (wanted.equals !== undefined && joined !== wanted.equals) {
        problems.push(`result ${r}: expected text ${JSON.stringify(wanted.equals)}, got ${JSON.stringify(joined)}`);
      }
    });
  }
  if (expect.tools !== undefined) {
    const offered = new Set(request.tools.map((tool) => ("descriptor" in tool ? tool.descriptor.name : tool.name)));
    const missing = expect.tools.filter((tool) => !offered.has(tool));
    if (missing.length > 0) {
      problems.push(`tools not offered: ${missing.join(", ")} (offered: ${[...offered].join(", ") || "none"})`);
    }
  }
  if (expect.systemPromptContains !== undefined && !request.systemPrompt.includes(expect.systemPromptContains)) {
    problems.push(`system prompt does not contain ${JSON.stringify(expect.systemPromptContains)}`);
  }
  if (problems.length > 0) {
    throw new ModelError(
      "expectation-failed",
      name,
      `Scripted model ${name}, turn ${index + 1}: ${problems.join("; ")}`,
    );
  }
}

function toModelTurn(turn: ScriptedTurn, index: number): ModelTurn {
  const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((call, c) => ({
    id: call.id ?? `scripted-${index + 1}-${c + 1}`,
    name: call.name,
    input: call.input ?? {},
  }));
  return {
    text: turn.text ?? "",
    toolCalls,
    stopReason: turn.stopReason ?? (toolCalls.length > 0 ? "tool_use" : "end"),
    ...(turn.usage === undefined ? {} : { usage: turn.usage }),
  };
}
