// `toolwire call <tool> [json]`: one tool call through the session, as a model would make it.
import { contentBlockAsText } from "../../core/tool-result.js";
import type { ToolResultBlock } from "../../core/types.js";
import { EXIT_FAILED, EXIT_OK } from "../exit-codes.js";
import { roundMs, versioned } from "../json-output.js";
import { type Output, paint } from "../output.js";
import type { Runtime } from "../runtime.js";
import { cutEchoes, longPieces } from "./cut-echoes.js";

/** Prints a result's blocks: text as is, other blocks as a line saying what they are. */
function printResultContent(result: ToolResultBlock, output: Output): void {
  for (const block of result.content) output.line(contentBlockAsText(block));
}

/**
 * Runs the call; the exit code says whether the result is an error. An error result that repeats a
 * tool name, input or input string longer than 200 characters shows it cut (see `cutEchoes`).
 */
export async function runCall(
  runtime: Runtime,
  output: Output,
  options: { tool: string; input: string | undefined; json: boolean; signal: AbortSignal },
): Promise<number> {
  const outcome = await output.progress(
    `running ${options.tool}`,
    runtime.session.dispatchDetailed(
      { id: "cli-call", name: options.tool, input: options.input ?? {} },
      { signal: options.signal },
    ),
  );
  const dispatched = outcome.block;
  const result = dispatched.is_error === true ? cutErrorEchoes(dispatched, options.tool, options.input) : dispatched;
  if (options.json) {
    output.line(
      JSON.stringify(
        versioned({
          ...result,
          durationMs: roundMs(outcome.durationMs),
          errorCode: outcome.errorCode,
          details: outcome.result.details,
        }),
        null,
        2,
      ),
    );
  } else {
    printResultContent(result, output);
    if (result.is_error === true) {
      output.error(paint(output, "red", `error${outcome.errorCode === undefined ? "" : ` (${outcome.errorCode})`}`));
    }
    // Not found, but the registry knows it: say where it went (removed by a layer, hidden by availability).
    const why = outcome.errorCode === "tool-not-found" ? whyNotActive(runtime, options.tool) : undefined;
    if (why !== undefined) output.error(why);
  }
  return result.is_error === true ? EXIT_FAILED : EXIT_OK;
}

/** The registry's explanation of a tool that exists but is not active, or undefined for an unknown name. */
function whyNotActive(runtime: Runtime, tool: string): string | undefined {
  const { registry } = runtime;
  const known =
    registry.hidden.some((entry) => entry.descriptor.name === tool) ||
    registry.lastReport.excluded.some((entry) => entry.name === tool);
  return known ? registry.explain(tool) : undefined;
}

function cutErrorEchoes(result: ToolResultBlock, tool: string, input: string | undefined): ToolResultBlock {
  const pieces = longPieces(tool, input);
  if (pieces.length === 0) return result;
  return {
    ...result,
    content: result.content.map((block) =>
      block.type === "text" ? { ...block, text: cutEchoes(block.text, pieces) } : block,
    ),
  };
}
