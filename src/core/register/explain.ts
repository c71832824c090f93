// explain(name): why a tool is in the registry's Map or not, in words a person can act on.
import { formatToolExecutorRef } from "../filter/descriptor.js";
import type {
  AgentTool,
  HiddenToolPlanEntry,
  RegistryReport,
  ToolCodeOnly,
  ToolDeferral,
  ToolDefinitionChange,
  ToolOwnerRef,
  ToolSource,
} from "../types.js";

/** What the latest refresh decided, kept for `explain`. */
export interface RegistrySnapshot {
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly hidden: readonly HiddenToolPlanEntry[];
  /** Each name's winning tool and its source. */
  readonly winners: ReadonlyMap<string, { readonly source: ToolSource }>;
  readonly overrides: RegistryReport["overrides"];
  readonly excluded: RegistryReport["excluded"];
  readonly deferred: ReadonlyMap<string, ToolDeferral>;
  readonly codeOnly: ReadonlyMap<string, ToolCodeOnly>;
  /** The MCP tools hidden because their listed definition no longer matches its pin. */
  readonly definitionChanges: readonly ToolDefinitionChange[];
}

const SOURCE_WORDS: Record<ToolSource, string> = { builtin: "built-in", extension: "extension", custom: "custom" };

function describeOwner(owner: ToolOwnerRef): string {
  switch (owner.kind) {
    case "core":
      return "core";
    case "plugin":
      return `plugin ${owner.pluginId}`;
    case "channel":
      return `channel ${owner.channelId}${owner.pluginId === undefined ? "" : ` (plugin ${owner.pluginId})`}`;
    case "mcp":
      return `MCP server ${owner.serverId}`;
  }
}

/** Why a tool is deferred, and what that means for the model, in one sentence. */
function describeDeferral(name: string, deferral: ToolDeferral): string {
  const why =
    deferral.reason === "marked"
      ? "its definition says defer: true"
      : deferral.reason === "pattern"
        ? `it matches the defer pattern "${deferral.pattern}"`
        : `the tools sent up front came to ${deferral.sentTokens} estimated tokens, over deferBudgetTokens ${deferral.budgetTokens}, and MCP and plugin tools are deferred largest first`;
  return `${name} is deferred (${deferral.tokens} estimated tokens): ${why}. The model finds it through tool_search instead of getting its definition up front; a call by name runs it either way.`;
}

/** Explains one name against a snapshot. */
export function explainTool(snapshot: RegistrySnapshot, name: string): string {
  const lines: string[] = [];
  const tool = snapshot.tools.get(name);
  const source = snapshot.winners.get(name)?.source;
  const hidden = snapshot.hidden.find((entry) => entry.descriptor.name === name);
  if (tool !== undefined && source !== undefined) {
    const { descriptor } = tool;
    const executor =
      descriptor.executor === undefined ? "" : `, executor ${formatToolExecutorRef(descriptor.executor)}`;
    lines.push(
      `${name} is available: ${SOURCE_WORDS[source]} tool owned by ${describeOwner(descriptor.owner)}${executor}.`,
    );
    if (tool.runsOn !== undefined) {
      lines.push(`${name} runs on remote executor ${tool.runsOn}: hooks, policy and approvals stay in this process.`);
    }
    const deferral = snapshot.deferred.get(name);
    if (deferral !== undefined) lines.push(describeDeferral(name, deferral));
    const codeOnly = snapshot.codeOnly.get(name);
    if (codeOnly !== undefined) {
      lines.push(
        `${name} is reachable only through code (codeOnly pattern "${codeOnly.pattern}"): it is not sent to the model, listed in the system prompt or found by tool_search; a program (code mode) calls it, and a call by name runs it.`,
      );
    }
  } else if (hidden !== undefined) {
    const changed = snapshot.definitionChanges.some((change) => change.name === name);
    lines.push(
      changed
        ? `${name} is hidden: its definition changed since it was pinned.`
        : `${name} is hidden: its availability check failed.`,
    );
    for (const diagnostic of hidden.diagnostics) lines.push(`- ${diagnostic.message} (${diagnostic.reason})`);
    if (changed) {
      lines.push(
        `Review the change with toolwire pin --diff ${name}; accept it with toolwire pin --accept ${name} (or session.acceptToolDefinition in a program).`,
      );
    }
  }
  for (const exclusion of snapshot.excluded) {
    if (exclusion.name !== name) continue;
    const what = `${name} (${SOURCE_WORDS[exclusion.source]})`;
    switch (exclusion.reason) {
      case "builtins-disabled":
        lines.push(`${what} is excluded: built-in tools are disabled (disableBuiltInTools).`);
        break;
      case "not-in-allowlist":
        lines.push(`${what} is excluded: it is not in allowedToolNames.`);
        break;
      case "policy":
        lines.push(
          exclusion.pattern === null || exclusion.pattern === undefined
            ? `${what} is removed by policy layer "${exclusion.layer}": the layer's allow list does not match it.`
            : `${what} is removed by policy layer "${exclusion.layer}": deny pattern "${exclusion.pattern}".`,
        );
        break;
    }
  }
  for (const override of snapshot.overrides) {
    if (override.name !== name) continue;
    const from = (owner: ToolOwnerRef | undefined) => (owner === undefined ? "" : ` (from ${describeOwner(owner)})`);
    lines.push(
      override.kept === override.dropped
        ? `A second ${SOURCE_WORDS[override.kept]} tool named ${name}${from(override.droppedOwner)} was ignored: the one${override.keptOwner === undefined ? "" : ` from ${describeOwner(override.keptOwner)}`} came first, and within one source the first one wins.`
        : `The ${SOURCE_WORDS[override.kept]} tool${from(override.keptOwner)} overrides a ${SOURCE_WORDS[override.dropped]} tool of the same name${from(override.droppedOwner)}, which was dropped.`,
    );
  }
  if (lines.length > 0) return lines.join("\n");
  const known = [...snapshot.tools.keys()];
  const lower = name.toLowerCase();
  const similar = known.find((candidate) => candidate.toLowerCase() === lower);
  return [
    `No tool named ${JSON.stringify(name)} is registered.`,
    similar === undefined ? undefined : `Did you mean ${similar}? (names are case-sensitive)`,
    `Available tools: ${known.length === 0 ? "none" : known.join(", ")}.`,
  ]
    .filter((line) => line !== undefined)
    .join("\n");
}
