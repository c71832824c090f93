// `toolwire explain <tool>`: why a tool is available or not, in words and (with --json) as data.
import { describeToolFlow } from "../../core/flow/describe-tool-flow.js";
import { EXIT_FAILED, EXIT_OK } from "../exit-codes.js";
import { versioned } from "../json-output.js";
import type { Output } from "../output.js";
import type { Runtime } from "../runtime.js";

/** Where a tool stands: in the model's tools, hidden by availability, removed by the gates or policy, or unknown. */
type ToolStatus = "visible" | "hidden" | "removed" | "unknown";

/**
 * The explanation as data, for `--json`: the status, the registry's sentence, and the facts behind it (`deferred`:
 * why the model finds the tool through tool_search, for a deferred one; `codeOnly`: the pattern that keeps it for
 * programs only; `runsOn`: the remote executor that runs it; `flow`: its trust, effects and whether flow rules guard it).
 */
function explainAsJson(runtime: Runtime, tool: string) {
  const { registry } = runtime;
  const visible = registry.tools.get(tool);
  const hidden = registry.hidden.find((entry) => entry.descriptor.name === tool);
  const removed = registry.lastReport.excluded.filter((entry) => entry.name === tool);
  const deferred = registry.deferred.get(tool);
  const codeOnly = registry.codeOnly.get(tool);
  const owner = (visible ?? hidden)?.descriptor.owner;
  const subject =
    tool === "bash" && owner?.kind === "core" ? "bash" : owner?.kind === "mcp" ? `mcp:${owner.serverId}` : "";
  const sandbox = runtime.sandbox.find((entry) => entry.subject === subject)?.state;
  const descriptor = (visible ?? hidden)?.descriptor;
  const flowRules = runtime.session.flow;
  const flow = descriptor === undefined ? undefined : flowRules.describeTool(descriptor);
  const lines = [registry.explain(tool)];
  if (flow !== undefined) lines.push(describeToolFlow(tool, flow, flowRules));
  if (sandbox !== undefined) lines.push(`sandbox: ${sandbox}`);
  const status: ToolStatus =
    visible !== undefined ? "visible" : hidden !== undefined ? "hidden" : removed.length > 0 ? "removed" : "unknown";
  return {
    tool,
    available: visible !== undefined,
    status,
    explanation: lines.join("\n"),
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(flow === undefined ? {} : { flow }),
    ...(visible === undefined ? {} : { owner: visible.descriptor.owner }),
    ...(visible?.runsOn === undefined ? {} : { runsOn: visible.runsOn }),
    ...(deferred === undefined ? {} : { deferred }),
    ...(codeOnly === undefined ? {} : { codeOnly }),
    ...(hidden === undefined ? {} : { diagnostics: hidden.diagnostics }),
    ...(removed.length === 0 ? {} : { removed }),
  };
}

/** Prints why `tool` is or is not available; the exit code is 0 only when the model gets it. */
export function runExplain(runtime: Runtime, output: Output, options: { tool: string; json: boolean }): number {
  const facts = explainAsJson(runtime, options.tool);
  output.line(options.json ? JSON.stringify(versioned(facts), null, 2) : facts.explanation);
  return facts.available ? EXIT_OK : EXIT_FAILED;
}
