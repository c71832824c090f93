// `toolwire run`: the agent loop in a terminal: model text, each tool call with its result and timing, the outcome.

import type { AgentSession } from "../../core/dispatch/session.js";
import { contentBlockAsText } from "../../core/tool-result.js";
import type { ToolExecutionEndEvent, ToolResultBlock } from "../../core/types.js";
import type { RunJournal } from "../../journal/run-journal.js";
import { runAgent } from "../../loop/run-agent.js";
import type { AgentEvent } from "../../loop/types.js";
import type { ModelClient } from "../../providers/clients/types.js";
import { EXIT_FAILED, EXIT_OK } from "../exit-codes.js";
import { roundMs } from "../json-output.js";
import { type Output, paint } from "../output.js";
import type { Runtime } from "../runtime.js";
import { createStreamedTextPrinter } from "./streamed-text-printer.js";

const SHOWN_LINES = 8;

function preview(result: ToolResultBlock): string[] {
  const text = result.content.map(contentBlockAsText).join("\n").trimEnd();
  const lines = text === "" ? ["(no output)"] : text.split("\n");
  if (lines.length <= SHOWN_LINES) return lines;
  return [...lines.slice(0, SHOWN_LINES), `… ${lines.length - SHOWN_LINES} more lines`];
}

function compactJson(value: unknown, max = 100): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Streams one run to the terminal (or as JSON lines) and returns the exit code: 0 when the run completed. With
 * `streamText`, the model's text is printed as its deltas arrive (no spinner while a text is being printed).
 */
export async function runAgentInTerminal(
  runtime: Runtime,
  model: ModelClient,
  output: Output,
  options: {
    prompt: string;
    maxTurns?: number;
    json: boolean;
    signal: AbortSignal;
    streamText?: boolean;
    toolsInSystemPrompt?: boolean;
    /** The session the run dispatches through; default `runtime.session` (a recorder's or a replay's wraps it). */
    session?: AgentSession;
    /** With `runId`: the run is journaled there, and resumes when its journal has entries (docs/durable-runs.md). */
    journal?: RunJournal;
    runId?: string;
    /** Hears every event of the run as it comes (the inspector's `record`). */
    onEvent?: (event: AgentEvent) => void;
  },
): Promise<number> {
  let finished: Extract<AgentEvent, { type: "done" }> | undefined;
  const events = runAgent({
    session: options.session ?? runtime.session,
    model,
    prompt: options.prompt,
    signal: options.signal,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    ...(options.toolsInSystemPrompt === true ? { toolsInSystemPrompt: true } : {}),
    ...(options.journal === undefined ? {} : { journal: options.journal, runId: options.runId }),
  });
  const text = options.streamText === true && !options.json ? createStreamedTextPrinter(output) : undefined;
  // The calls a program made (code mode), shown under its result: printed as they ended, they would cut the spinner.
  const nested = new Map<string, string[]>();
  const stopNested = options.json
    ? () => undefined
    : runtime.session.on("tool_execution_end", (end) => {
        if (end.parentToolCallId === undefined) return;
        const lines = nested.get(end.parentToolCallId) ?? [];
        if (lines.length === 0) nested.set(end.parentToolCallId, lines);
        lines.push(nestedLine(end, output));
      });
  let waitingFor = "waiting for the model";
  let streamed = false; // some of this turn's text was printed as it came
  while (true) {
    // A spinner would draw over the text line being printed.
    const next = text?.open === true ? await events.next() : await output.progress(waitingFor, events.next());
    if (next.done === true) break;
    const event = next.value;
    options.onEvent?.(event);
    if (event.type === "turn_start") streamed = false;
    if (event.type === "tool_call") waitingFor = "running tools";
    else if (event.type === "turn_end") waitingFor = "waiting for the model";
    else if (event.type === "model_tool_call_delta" && event.name !== undefined) {
      waitingFor = `the model is writing a call to ${event.name}`;
    }
    if (options.json) {
      output.line(JSON.stringify(eventAsJson(event)));
    } else if (text !== undefined && event.type === "model_text_delta") {
      text.write(event.text);
      streamed ||= text.open;
    } else if (text !== undefined && event.type === "model_text") {
      text.end();
      if (!streamed) printEvent(event, output); // a client that sent no deltas
    } else {
      text?.end();
      if (event.type === "tool_result") {
        for (const line of nested.get(event.call.id) ?? []) output.line(line);
        nested.delete(event.call.id);
      }
      printEvent(event, output);
    }
    if (event.type === "done") finished = event;
  }
  stopNested();
  return finished?.reason === "completed" ? EXIT_OK : EXIT_FAILED;
}

/** One call a program made: `  ↳ ✓ name 1.2 ms`, and its error code when it failed. */
function nestedLine(end: ToolExecutionEndEvent, output: Output): string {
  const mark = end.isError ? paint(output, "red", "✗") : paint(output, "green", "✓");
  const failed = end.errorCode === undefined ? "" : ` ${end.errorCode}`;
  return `  ↳ ${mark} ${end.toolName} ${paint(output, "dim", `${end.durationMs.toFixed(1)} ms${failed}`)}`;
}

/** An error as JSON: `message` and `name` are not own enumerable properties, so `JSON.stringify` would drop them. */
function errorAsJson(error: Error): Record<string, unknown> {
  return { ...error, name: error.name, message: error.message };
}

/** One event as a JSON line: the transcript left out of `done` (it repeats the run), errors with their message. */
function eventAsJson(event: AgentEvent): unknown {
  if (event.type === "error") return { ...event, error: errorAsJson(event.error) };
  if (event.type === "tool_result" && event.durationMs !== undefined)
    return { ...event, durationMs: roundMs(event.durationMs) };
  if (event.type === "done")
    return {
      ...event,
      transcript: undefined,
      ...(event.error === undefined ? {} : { error: errorAsJson(event.error) }),
    };
  return event;
}

function printEvent(event: AgentEvent, output: Output): void {
  switch (event.type) {
    case "turn_start":
      output.line(paint(output, "dim", `── turn ${event.turn}`));
      break;
    case "model_text":
      output.line(`${paint(output, "cyan", "model")}  ${event.text.trim().replaceAll("\n", "\n       ")}`);
      break;
    case "tool_call":
      output.line(
        `${paint(output, "bold", "call")}   ${event.call.name} ${paint(output, "dim", compactJson(event.call.input))}`,
      );
      break;
    case "tool_result": {
      const failed = event.result.is_error === true;
      const ms = event.durationMs;
      const mark = failed ? paint(output, "red", "✗") : paint(output, "green", "✓");
      output.line(
        `${mark}      ${event.call.name} ${paint(output, "dim", ms === undefined ? "" : `${ms.toFixed(1)} ms`)}`,
      );
      for (const line of preview(event.result)) output.line(`         ${paint(output, "dim", "│")} ${line}`);
      break;
    }
    case "error":
      output.line(paint(output, "red", `error  ${event.error.message}`));
      break;
    case "done": {
      const tokens =
        event.usage.inputTokens + event.usage.outputTokens > 0
          ? `, ${event.usage.inputTokens} input and ${event.usage.outputTokens} output tokens`
          : "";
      const summary = `${event.reason} after ${event.turns} turn${event.turns === 1 ? "" : "s"}${tokens}`;
      output.line(paint(output, event.reason === "completed" ? "green" : "red", `\n■ ${summary}`));
      break;
    }
    default:
      break;
  }
}
