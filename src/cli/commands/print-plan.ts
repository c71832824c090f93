// `toolwire plan`: the visible tools, the hidden ones with their diagnostics, and everything removed, with why.
import { TOOL_SEARCH_DEFINITION } from "../../core/defer/create-tool-search-tool.js";
import { describeDeferral } from "../../core/defer/describe-deferral.js";
import { estimateToolTokens } from "../../core/defer/estimate-tool-tokens.js";
import { applyToolPolicy } from "../../core/filter/policy.js";
import { flowFactWords } from "../../core/flow/describe-tool-flow.js";
import { isNear } from "../../core/is-near.js";
import { ownerLabel } from "../../core/register/owner-label.js";
import type { SessionFlow } from "../../core/types.js";
import { listNonStrictTools } from "../../providers/list-non-strict-tools.js";
import { formatTable, type Output, paint } from "../output.js";
import type { Runtime } from "../runtime.js";

function firstLine(text: string, max = 70): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * What each principal of `serve.auth.tokens` may call over `toolwire serve --http`: the visible tools narrowed by
 * its token's policy layers. Other principals (OAuth, TOOLWIRE_SERVE_TOKEN) see every visible tool.
 */
function principalTools(runtime: Runtime): { principal: string; tools: string[]; removed: string[] }[] {
  const visible = [...runtime.registry.tools.values()].map((tool) => tool.descriptor);
  return (runtime.loaded.config.serve?.auth?.tokens ?? []).map((entry) => {
    const { kept, removed } = applyToolPolicy(visible, entry.policy ?? []);
    return { principal: entry.principal, tools: kept.map((d) => d.name), removed: removed.map((r) => r.name) };
  });
}

/** A tool name one slip away from a policy pattern that matched nothing (plain names only, not globs or groups). */
function nearName(runtime: Runtime, pattern: string): string | undefined {
  if (/[*:?]/.test(pattern)) return undefined;
  const names = [
    ...runtime.registry.tools.keys(),
    ...runtime.registry.hidden.map((entry) => entry.descriptor.name),
    ...runtime.registry.lastReport.excluded.map((entry) => entry.name),
  ];
  return names.find((name) => isNear(name, pattern));
}

/**
 * The estimated tokens (`estimateToolTokens`) of the definitions sent up front (the tools not deferred nor code-only,
 * and `tool_search` when some are deferred), of the deferred ones, and of the code-only ones (never sent), over the
 * registry's visible tools.
 */
export function toolTokens(runtime: Runtime): { upFront: number; deferred: number; codeOnly: number } {
  const { registry } = runtime;
  let upFront = registry.deferred.size > 0 ? estimateToolTokens(TOOL_SEARCH_DEFINITION) : 0;
  let deferred = 0;
  let codeOnly = 0;
  for (const [name, tool] of registry.tools) {
    if (registry.codeOnly.has(name)) codeOnly += estimateToolTokens(tool);
    else if (registry.deferred.has(name)) deferred += estimateToolTokens(tool);
    else upFront += estimateToolTokens(tool);
  }
  return { upFront, deferred, codeOnly };
}

/** Each remote executor of the config (docs/workers.md): its id, where it runs, and the visible tools it runs. */
function executorTools(runtime: Runtime): { id: string; where: string | null; tools: string[] }[] {
  const tools = [...runtime.registry.tools.values()];
  return runtime.executors.map((executor) => ({
    id: executor.id,
    where: executor.where ?? null,
    tools: tools.filter((tool) => tool.runsOn === executor.id).map((tool) => tool.descriptor.name),
  }));
}

/** The session's flow rules (docs/security.md). */
function flowRules(runtime: Runtime): SessionFlow {
  return runtime.session.flow;
}

/** Whether flow rules are on, and what a guarded call meets while the session is tainted. */
function flowSummary(flow: SessionFlow): string {
  if (!flow.enabled) return "flow rules: off (the taint is tracked; set flow in the config to turn them on)";
  return flow.whenTainted === "block"
    ? "flow rules: on: once an untrusted result is in the session, guarded calls are refused"
    : "flow rules: on: once an untrusted result is in the session, guarded calls need a person's approval";
}

/** The plan as data, for `--json`. */
export function planAsJson(runtime: Runtime) {
  const report = runtime.registry.lastReport;
  const flow = flowRules(runtime);
  return {
    config: runtime.fromFile ? runtime.loaded.file : null,
    /** How the config wrote `mcpServers`: `"list"`, `"object"` (keyed by server id), or null without any. */
    mcpServersForm: runtime.loaded.mcpServersForm ?? null,
    workspace: runtime.built.workspaceRoot,
    visible: [...runtime.registry.tools.values()].map((tool) => ({
      name: tool.descriptor.name,
      owner: tool.descriptor.owner,
      description: tool.descriptor.description,
      flow: flow.describeTool(tool.descriptor),
      ...(tool.runsOn === undefined ? {} : { runsOn: tool.runsOn }),
    })),
    flow: { enabled: flow.enabled, whenTainted: flow.whenTainted },
    executors: executorTools(runtime),
    hidden: runtime.registry.hidden.map((entry) => ({ name: entry.descriptor.name, diagnostics: entry.diagnostics })),
    excluded: report.excluded,
    overrides: report.overrides,
    deferred: report.deferred,
    codeOnly: report.codeOnly,
    toolTokens: toolTokens(runtime),
    openaiNonStrict: listNonStrictTools(runtime.registry.tools.values()),
    unknownPatterns: report.unknownPatterns,
    problems: runtime.problems,
    sandbox: runtime.sandbox,
    principals: principalTools(runtime),
  };
}

/** Prints the plan as tables; sections with nothing in them are left out. */
export function printPlan(runtime: Runtime, output: Output): void {
  const report = runtime.registry.lastReport;
  const heading = (text: string) => output.line(`\n${paint(output, "bold", text)}`);
  output.line(
    `${paint(output, "dim", "config:")} ${runtime.fromFile ? runtime.loaded.file : "none (defaults: built-ins on)"}   ${paint(output, "dim", "workspace:")} ${runtime.built.workspaceRoot}`,
  );
  const form = runtime.loaded.mcpServersForm;
  if (form !== undefined) {
    output.line(
      `${paint(output, "dim", "mcpServers:")} ${form === "object" ? "object form (each key is the server's id)" : "list form"}`,
    );
  }
  heading(`Visible (${runtime.registry.tools.size})`);
  // A RUNS ON column only when some tool runs on a remote executor (docs/workers.md): "here" is the session's process.
  const remote = runtime.executors.length > 0;
  const flow = flowRules(runtime);
  if (runtime.registry.tools.size === 0) output.line(paint(output, "dim", "none: the model gets no tools"));
  else
    output.line(
      formatTable(
        remote ? ["TOOL", "OWNER", "FLOW", "RUNS ON", "DESCRIPTION"] : ["TOOL", "OWNER", "FLOW", "DESCRIPTION"],
        [...runtime.registry.tools.values()].map((tool) => [
          paint(output, "green", tool.descriptor.name),
          ownerLabel(tool.descriptor.owner),
          flowFactWords(flow.describeTool(tool.descriptor)),
          ...(remote ? [tool.runsOn === undefined ? "here" : paint(output, "cyan", tool.runsOn)] : []),
          firstLine(tool.descriptor.description),
        ]),
        output,
      ),
    );
  if (runtime.registry.tools.size > 0) output.line(paint(output, "dim", flowSummary(flow)));
  if (remote) {
    heading("Executors (toolwire worker --executor <id> runs their calls)");
    output.line(
      formatTable(
        ["EXECUTOR", "WHERE", "TOOLS"],
        executorTools(runtime).map((entry) => [
          entry.id,
          entry.where ?? "",
          entry.tools.length === 0 ? "none" : entry.tools.join(", "),
        ]),
        output,
      ),
    );
  }
  if (report.deferred.length > 0) {
    const tokens = toolTokens(runtime);
    heading(`Deferred (${report.deferred.length}): the model finds these through tool_search`);
    output.line(
      formatTable(
        ["TOOL", "TOKENS", "WHY"],
        report.deferred.map((entry) => [
          paint(output, "cyan", entry.name),
          String(entry.tokens),
          describeDeferral(entry),
        ]),
        output,
      ),
    );
    output.line(
      paint(
        output,
        "dim",
        `estimated tokens: ${tokens.upFront} sent up front (tool_search included), ${tokens.deferred} deferred`,
      ),
    );
  }
  if (report.codeOnly.length > 0) {
    heading(`Code only (${report.codeOnly.length}): reachable only through code (codeMode), never sent to the model`);
    output.line(
      formatTable(
        ["TOOL", "TOKENS", "WHY"],
        report.codeOnly.map((entry) => {
          const tool = runtime.registry.tools.get(entry.name);
          return [
            paint(output, "cyan", entry.name),
            tool === undefined ? "" : String(estimateToolTokens(tool)),
            `matches the codeOnly pattern "${entry.pattern}"`,
          ];
        }),
        output,
      ),
    );
  }
  const nonStrict = listNonStrictTools(runtime.registry.tools.values());
  if (nonStrict.length > 0) {
    heading(`Not strict for OpenAI (${nonStrict.length}): with strict on, these go without it`);
    output.line(
      formatTable(
        ["TOOL", "WHY"],
        nonStrict.map(({ name, reasons }) => [
          paint(output, "yellow", name),
          reasons.length > 1 ? `${reasons[0]} (and ${reasons.length - 1} more)` : (reasons[0] ?? ""),
        ]),
        output,
      ),
    );
  }
  if (runtime.registry.hidden.length > 0) {
    heading(`Hidden by availability (${runtime.registry.hidden.length})`);
    output.line(
      formatTable(
        ["TOOL", "REASON", "WHY"],
        runtime.registry.hidden.flatMap((entry) =>
          entry.diagnostics.map((diagnostic, index) => [
            index === 0 ? paint(output, "yellow", entry.descriptor.name) : "",
            diagnostic.reason,
            diagnostic.message,
          ]),
        ),
        output,
      ),
    );
  }
  if (runtime.sandbox.length > 0) {
    heading("Sandbox");
    output.line(
      formatTable(
        ["FOR", "SANDBOX"],
        runtime.sandbox.map((entry) => [entry.subject, entry.state]),
        output,
      ),
    );
  }
  const principals = principalTools(runtime);
  if (principals.length > 0) {
    heading("Per principal (toolwire serve --http)");
    output.line(
      formatTable(
        ["PRINCIPAL", "TOOLS"],
        principals.map((entry) => [entry.principal, entry.tools.length === 0 ? "none" : entry.tools.join(", ")]),
        output,
      ),
    );
  }
  if (report.excluded.length > 0) {
    heading(`Removed (${report.excluded.length})`);
    output.line(
      formatTable(
        ["TOOL", "SOURCE", "WHY"],
        report.excluded.map((entry) => [
          paint(output, "red", entry.name),
          entry.source,
          entry.reason === "policy"
            ? `policy layer "${entry.layer}": ${entry.pattern === null || entry.pattern === undefined ? "not in its allow list" : `denied by "${entry.pattern}"`}`
            : entry.reason === "builtins-disabled"
              ? "built-in tools are disabled"
              : "not in allowedTools",
        ]),
        output,
      ),
    );
  }
  if (report.overrides.length > 0) {
    heading("Overrides");
    for (const override of report.overrides) {
      output.line(
        override.kept === override.dropped
          ? `${override.name}: two ${override.kept} tools share the name; the first was kept`
          : `${override.name}: the ${override.kept} tool replaces the ${override.dropped} tool`,
      );
    }
  }
  if (report.unknownPatterns.length > 0) {
    heading("Policy patterns that match no tool");
    for (const entry of report.unknownPatterns) {
      const near = nearName(runtime, entry.pattern);
      output.line(`layer "${entry.layer}": ${entry.pattern}${near === undefined ? "" : ` (did you mean ${near}?)`}`);
    }
  }
  if (runtime.problems.length > 0) {
    heading(`Problems (${runtime.problems.length})`);
    output.line(
      formatTable(
        ["AREA", "WHAT", "WHY"],
        runtime.problems.map((problem) => [problem.area, paint(output, "red", problem.subject), problem.message]),
        output,
      ),
    );
  }
}

/**
 * For `plan --strict`, after the plan is out: names on stderr each part of the config that failed to load and
 * returns whether there was any (the command then exits 1).
 */
export function reportStrictFailures(runtime: Runtime, output: Output): boolean {
  const { problems } = runtime;
  if (problems.length === 0) return false;
  output.error(
    `toolwire: plan --strict: ${problems.length} part${problems.length === 1 ? "" : "s"} of the config failed:`,
  );
  for (const problem of problems) output.error(`- ${problem.area} ${problem.subject}: ${problem.message}`);
  return true;
}
