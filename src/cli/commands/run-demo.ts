// `toolwire demo` (what `npm start` runs): a scripted agent fixes a bug in a temporary copy of a sample workspace.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createScriptedModel } from "../../providers/clients/scripted-model.js";
import { type Output, paint } from "../output.js";
import { openRuntime } from "../runtime.js";
import { printPlan } from "./print-plan.js";
import { runAgentInTerminal } from "./run-agent-in-terminal.js";

/** The sample workspace and the canned turns, shipped in the package's examples folder. */
const DEMO_WORKSPACE = fileURLToPath(new URL("../../../examples/demo-workspace", import.meta.url));
const DEMO_SCRIPT = fileURLToPath(new URL("../../../examples/demo-script.json", import.meta.url));
export const DEMO_PROMPT =
  "The tests of this shop fail (`node test.js`). Find the bug, fix it, and show that the tests pass.";

/** Copies the sample workspace to a temporary folder; the caller removes it. */
export async function copyDemoWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "toolwire-demo-"));
  await cp(DEMO_WORKSPACE, dir, { recursive: true });
  return dir;
}

/** Runs the demo; returns the exit code of the run. */
export async function runDemo(
  output: Output,
  options: { json: boolean; keep: boolean; signal: AbortSignal },
): Promise<number> {
  const workspace = await copyDemoWorkspace();
  const runtime = await openRuntime({
    cwd: workspace,
    env: {},
    systemPrompt: "You are a careful coding agent. Work in the workspace with the tools you have.",
    // The demo makes edit wait for a person's yes, shows the question, and answers it itself.
    approvals: { require: ["edit"] },
    approver: (request) => {
      if (!options.json) {
        output.line(`${paint(output, "yellow", "approve?")} ${request.toolName} ${JSON.stringify(request.input)}`);
        output.line(`         ${paint(output, "dim", request.inputDigest)}`);
        output.line(`         ${paint(output, "dim", "the demo answers y (toolwire run asks you on a terminal)")}`);
      }
      return { approve: true };
    },
  });
  try {
    if (!options.json) {
      output.line(paint(output, "bold", "toolwire demo"));
      output.line(`A scripted model fixes a bug in a copy of examples/demo-workspace at ${workspace}`);
      output.line(`using the real built-in tools. The prompt: ${paint(output, "cyan", DEMO_PROMPT)}\n`);
    }
    const code = await runAgentInTerminal(runtime, createScriptedModel(DEMO_SCRIPT), output, {
      prompt: DEMO_PROMPT,
      json: options.json,
      signal: options.signal,
    });
    if (!options.json) {
      output.line(paint(output, "bold", "\nThe plan behind this session (toolwire plan):"));
      printPlan(runtime, output);
      output.line(
        `\nNext: ${paint(output, "cyan", "toolwire plan")} in a folder with a toolwire.config.json, ${paint(output, "cyan", "toolwire run --model openai:MODEL --base-url URL")} for a real model.`,
      );
      if (options.keep) output.line(`The workspace is kept at ${workspace}`);
    }
    return code;
  } finally {
    await runtime.close();
    if (!options.keep) await rm(workspace, { recursive: true, force: true });
  }
}
