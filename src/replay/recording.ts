// A run's recording: JSON lines, a header, then each model request with its response and each tool call with its result.
import { readFile } from "node:fs/promises";
import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import type { ToolCallErrorCode, ToolResultBlock } from "../core/types.js";
import type { ModelTurn, TranscriptMessage } from "../providers/clients/types.js";
import { ReplayError } from "./replay-error.js";

/** The recording format this version writes and reads. */
export const RECORDING_FORMAT = 1;

/** A message of a recorded request: the transcript's, without the provider's own copy of an assistant message. */
export type RecordedMessage =
  | { readonly role: "user"; readonly text: string }
  | {
      readonly role: "assistant";
      readonly text: string;
      readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
    }
  | { readonly role: "tool"; readonly results: readonly ToolResultBlock[] };

/**
 * One line of a recording: the `header` first, then in run order each `model` turn (the request as the model client
 * got it, tools by name, and the response) and each `tool` call of that turn with its result block.
 */
export type RunRecord =
  | { readonly kind: "header"; readonly format: number; readonly recordedAt: string; readonly model: string }
  | {
      readonly kind: "model";
      readonly turn: number;
      readonly request: {
        readonly systemPrompt: string;
        readonly tools: readonly string[];
        readonly messages: readonly RecordedMessage[];
      };
      readonly response: ModelTurn;
    }
  | {
      readonly kind: "tool";
      readonly turn: number;
      readonly call: { readonly id: string; readonly name: string; readonly input: unknown };
      readonly result: ToolResultBlock;
      readonly errorCode?: ToolCallErrorCode;
    };

/** A transcript as a recording keeps it (and a replay compares it): no provider messages, results as blocks. */
export function toRecordedMessages(messages: readonly TranscriptMessage[]): RecordedMessage[] {
  return messages.map((message) => {
    if (message.role === "user") return { role: "user", text: message.text };
    if (message.role === "tool") {
      return {
        role: "tool",
        results: message.results.map((block) => ({
          type: "tool_result",
          tool_use_id: block.tool_use_id,
          content: block.content,
          ...(block.is_error === true ? { is_error: true } : {}),
        })),
      };
    }
    return {
      role: "assistant",
      text: message.text,
      toolCalls: message.toolCalls.map(({ id, name, input }) => ({ id, name, input })),
    };
  });
}

/** The recording as JSON lines (a trailing newline included). */
export function formatRecording(records: readonly RunRecord[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join("");
}

/**
 * Parses JSON lines into records, checking each line's shape (blank lines skipped). Throws `ReplayError`
 * `invalid-recording` naming the first bad line.
 */
export function parseRecording(text: string, name = "the recording"): RunRecord[] {
  const records: RunRecord[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const fail = (why: string): never => {
      throw new ReplayError("invalid-recording", `${name}, line ${index + 1}: ${why}`);
    };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      return fail(`not JSON (${describeThrown(error)})`);
    }
    if (!isRecord(value)) return fail("expected an object");
    if (records.length === 0 && value.kind !== "header") fail('expected the header first ({ "kind": "header", ... })');
    if (value.kind === "header") {
      if (value.format !== RECORDING_FORMAT) fail(`format ${String(value.format)} is not ${RECORDING_FORMAT}`);
    } else if (value.kind === "model") {
      const { request, response } = value;
      if (!Number.isInteger(value.turn)) fail("a model record needs a turn number");
      if (!isRecord(request) || !Array.isArray(request.messages)) fail("a model record needs request.messages");
      if (!isRecord(response) || !Array.isArray(response.toolCalls) || typeof response.text !== "string") {
        fail("a model record needs a response { text, toolCalls, stopReason }");
      }
    } else if (value.kind === "tool") {
      const { call, result } = value;
      if (!Number.isInteger(value.turn)) fail("a tool record needs a turn number");
      if (!isRecord(call) || typeof call.id !== "string" || typeof call.name !== "string") {
        fail("a tool record needs a call { id, name, input }");
      }
      if (!isRecord(result) || !Array.isArray(result.content)) fail("a tool record needs a result block");
    } else {
      fail(`unknown kind ${JSON.stringify(value.kind)}`);
    }
    records.push(value as RunRecord);
  }
  if (records.length === 0) throw new ReplayError("invalid-recording", `${name} is empty`);
  return records;
}

/** Reads and parses a recording file. Throws `ReplayError` `invalid-recording` when it cannot be read or parsed. */
export async function readRecording(file: string): Promise<RunRecord[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ReplayError("invalid-recording", `Cannot read the recording ${file}: ${describeThrown(error)}`);
  }
  return parseRecording(text, file);
}
