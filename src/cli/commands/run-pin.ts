// `toolwire pin`: the pins kept in toolwire.pins.json and the changes waiting, one change's diff, and accepting.
import { ToolPinError } from "../../core/errors.js";
import type { ToolDefinitionChange } from "../../core/types.js";
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "../exit-codes.js";
import { versioned } from "../json-output.js";
import { formatTable, type Output, paint } from "../output.js";
import type { Runtime } from "../runtime.js";
import { diffDefinitions } from "./diff-definitions.js";

/** What `toolwire pin` was asked: list (none set), `diff` a tool, `accept` one, or `acceptAll`. */
export interface PinOptions {
  readonly diff?: string;
  readonly accept?: string;
  readonly acceptAll?: boolean;
  readonly json: boolean;
}

/** Where a kept pin stands: its tool is listed as pinned, listed changed (hidden until accepted), or not listed now. */
type PinStatus = "pinned" | "changed" | "not-listed";

/**
 * Runs `toolwire pin`; returns the exit code. Without `"pins": true` it says pins are not kept and how to keep them
 * (exit 0 for the list, 1 for a diff or an accept). Throws `ToolPinError` `definition-not-pending` for a diff or an
 * accept of a tool that is not hidden with `definition-changed`.
 */
export function runPin(runtime: Runtime, output: Output, options: PinOptions): number {
  const asked = [options.diff !== undefined, options.accept !== undefined, options.acceptAll === true];
  if (asked.filter(Boolean).length > 1) {
    throw new CliError(EXIT_USAGE, "pin takes one of --diff <tool>, --accept <tool> and --accept-all");
  }
  const print = (value: object, text: () => string) =>
    output.line(options.json ? JSON.stringify(versioned(value), null, 2) : text());
  if (runtime.pins === undefined) {
    const message = `Pins are not kept: each session pins MCP tools' definitions in memory only. Add "pins": true to ${runtime.loaded.file} to keep them in toolwire.pins.json beside it.`;
    print({ kept: false, message }, () => message);
    return asked.some(Boolean) ? EXIT_FAILED : EXIT_OK;
  }
  const { registry, session } = runtime;
  const file = runtime.pins.file;
  if (options.diff !== undefined) {
    const change = pendingChange(registry.definitionChanges, options.diff);
    const diff = diffDefinitions(change.pinned.definition, change.current.definition);
    print({ ...changeAsJson(change), diff: diff.join("\n") }, () =>
      [
        `${change.name} (tool ${change.toolName} of MCP server ${change.serverId}) changed: ${change.changed.join(", ")}`,
        `pinned ${change.pinned.fingerprint}, listed now ${change.current.fingerprint}`,
        ...diff.map((line) => colorDiffLine(output, line)),
      ].join("\n"),
    );
    return EXIT_OK;
  }
  if (options.accept !== undefined || options.acceptAll === true) {
    const names =
      options.accept !== undefined ? [options.accept] : registry.definitionChanges.map((change) => change.name);
    const accepted = names.map((name) => session.acceptToolDefinition(name));
    print({ file, accepted: accepted.map(changeAsJson) }, () =>
      accepted.length === 0
        ? "Nothing to accept: no tool is hidden with definition-changed."
        : accepted
            .map(
              (change) =>
                `Accepted ${change.name} (${change.changed.join(", ")}): pinned ${change.current.fingerprint} in ${file}`,
            )
            .join("\n"),
    );
    return EXIT_OK;
  }
  const changes = registry.definitionChanges;
  const listed = listedNames(runtime);
  const pins = runtime.pins.entries().map(({ serverId, toolName, pin }) => {
    const key = `${serverId}\u0000${toolName}`;
    const changed = changes.some((change) => change.serverId === serverId && change.toolName === toolName);
    const status: PinStatus = changed ? "changed" : listed.has(key) ? "pinned" : "not-listed";
    const name = listed.get(key);
    return { serverId, toolName, ...(name === undefined ? {} : { name }), status, fingerprint: pin.fingerprint };
  });
  const problems = runtime.problems.filter((problem) => problem.area === "mcp");
  print({ kept: true, file, pins, pending: changes.map(changeAsJson), problems }, () => {
    const lines = [`Pins in ${file} (${pins.length})`];
    if (pins.length > 0) {
      lines.push(
        formatTable(
          ["SERVER", "TOOL", "NAME", "STATUS", "FINGERPRINT"],
          pins.map((pin) => [
            pin.serverId,
            pin.toolName,
            pin.name ?? "",
            pin.status === "changed" ? paint(output, "yellow", pin.status) : pin.status,
            `${pin.fingerprint.slice(0, 19)}…`,
          ]),
          output,
        ),
      );
    }
    if (changes.length > 0) {
      lines.push("", `Changed since pinned, hidden until accepted (${changes.length})`);
      for (const change of changes) {
        lines.push(
          `  ${change.name}: ${change.changed.join(", ")} (toolwire pin --diff ${change.name}, --accept ${change.name})`,
        );
      }
    }
    for (const problem of problems) {
      lines.push(`MCP server ${problem.subject} could not be listed, so its pins were not checked: ${problem.message}`);
    }
    return lines.join("\n");
  });
  return EXIT_OK;
}

/** The change waiting for `name`; `ToolPinError` `definition-not-pending` when there is none. */
function pendingChange(changes: readonly ToolDefinitionChange[], name: string): ToolDefinitionChange {
  const change = changes.find((entry) => entry.name === name);
  if (change !== undefined) return change;
  const pending = changes.length === 0 ? "none" : changes.map((entry) => entry.name).join(", ");
  throw new ToolPinError(
    "definition-not-pending",
    `Tool ${JSON.stringify(name)} has no changed definition (it is not hidden with definition-changed). Pending: ${pending}.`,
    name,
  );
}

function changeAsJson(change: ToolDefinitionChange) {
  return {
    name: change.name,
    serverId: change.serverId,
    toolName: change.toolName,
    changed: change.changed,
    pinned: change.pinned,
    current: change.current,
  };
}

/** The registry names of the MCP tools listed now (visible or hidden), by server id and the server's tool name. */
function listedNames(runtime: Runtime): Map<string, string> {
  const names = new Map<string, string>();
  const descriptors = [
    ...[...runtime.registry.tools.values()].map((tool) => tool.descriptor),
    ...runtime.registry.hidden.map((entry) => entry.descriptor),
  ];
  for (const descriptor of descriptors) {
    const executor = descriptor.executor;
    if (executor?.kind === "mcp") names.set(`${executor.serverId}\u0000${executor.toolName}`, descriptor.name);
  }
  return names;
}

function colorDiffLine(output: Output, line: string): string {
  if (line.startsWith("---") || line.startsWith("+++")) return paint(output, "bold", line);
  if (line.startsWith("-")) return paint(output, "red", line);
  if (line.startsWith("+")) return paint(output, "green", line);
  return line;
}
