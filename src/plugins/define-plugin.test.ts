// definePlugin: plugin tools are bound to their plugin (owner, executor, availability); bad plugins fail with a code.
import { describe, expect, it } from "vitest";
import { evaluateToolAvailability } from "../core/filter/availability.js";
import { defineTool } from "../core/register/define-tool.js";
import { definePlugin, type PluginContext, PluginError } from "./define-plugin.js";

const context: PluginContext = { pluginId: "notes", options: { limit: 3 }, workspaceRoot: "/w", defineTool };
const echo = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}) =>
  defineTool({ name, description: name, inputSchema: { type: "object" }, execute: () => `ran ${name}`, ...extra });

describe("definePlugin", () => {
  it("owns its tools: plugin owner, plugin executor, plugin-enabled availability", async () => {
    const [tool] = await definePlugin({ id: "notes", tools: [echo("notes_add")] }).createTools(context);
    expect(tool?.descriptor).toMatchObject({
      name: "notes_add",
      owner: { kind: "plugin", pluginId: "notes" },
      executor: { kind: "plugin", pluginId: "notes", toolName: "notes_add" },
      availability: { kind: "plugin-enabled", pluginId: "notes" },
    });
    expect(await tool?.execute({}, { toolCallId: "1", signal: new AbortController().signal, onUpdate() {} })).toBe(
      "ran notes_add",
    );
  });

  it("combines a tool's own availability with allOf, so both must hold", async () => {
    const own = { kind: "env", name: "NOTES_TOKEN" } as const;
    const [tool] = await definePlugin({ id: "notes", tools: [echo("notes_sync", { availability: own })] }).createTools(
      context,
    );
    const descriptor = tool?.descriptor;
    expect(descriptor?.availability).toEqual({ allOf: [{ kind: "plugin-enabled", pluginId: "notes" }, own] });
    if (descriptor === undefined) throw new Error("no tool");
    expect(
      evaluateToolAvailability({ descriptor, context: { enabledPluginIds: new Set(["notes"]), env: {} } }).map(
        (d) => d.reason,
      ),
    ).toEqual(["env-missing"]);
    expect(
      evaluateToolAvailability({ descriptor, context: { enabledPluginIds: new Set(), env: { NOTES_TOKEN: "x" } } }).map(
        (d) => d.reason,
      ),
    ).toEqual(["plugin-disabled"]);
  });

  it("calls a tool factory with the context (id, options, workspace root, defineTool)", async () => {
    const seen: PluginContext[] = [];
    const plugin = definePlugin({
      id: "notes",
      tools: async (ctx) => {
        seen.push(ctx);
        return [ctx.defineTool({ name: "n", description: "d", inputSchema: { type: "object" }, execute: () => "x" })];
      },
    });
    const tools = await plugin.createTools(context);
    expect(seen).toEqual([context]);
    expect(tools.map((t) => t.descriptor.owner)).toEqual([{ kind: "plugin", pluginId: "notes" }]);
  });

  it("keeps a channel tool's channel owner and gives it the plugin's id", async () => {
    const [tool] = await definePlugin({
      id: "chat",
      tools: [echo("slack_send", { owner: { kind: "channel", channelId: "slack" } })],
    }).createTools(context);
    expect(tool?.descriptor.owner).toEqual({ kind: "channel", channelId: "slack", pluginId: "chat" });
    expect(tool?.descriptor.executor).toEqual({ kind: "channel", channelId: "slack", actionId: "slack_send" });
  });

  it("keeps executionMode and timeoutMs", async () => {
    const [tool] = await definePlugin({
      id: "p",
      tools: [echo("t", { executionMode: "sequential", timeoutMs: 5 })],
    }).createTools(context);
    expect(tool).toMatchObject({ executionMode: "sequential", timeoutMs: 5 });
  });

  it.each([
    [{ id: "bad id" }, /^Invalid plugin id "bad id"/],
    [{ id: "" }, /^Invalid plugin id ""/],
    [{ id: "p", beforeToolCall: "nope" }, /^Plugin p: beforeToolCall must be a function/],
    [{ id: "p", tools: "read" }, /^Plugin p: tools must be a list/],
  ])("rejects %j with invalid-plugin", (definition, message) => {
    const thrown = (() => {
      try {
        definePlugin(definition as never);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(PluginError);
    expect(thrown).toMatchObject({ code: "invalid-plugin" });
    expect((thrown as Error).message).toMatch(message);
  });

  it.each([
    [
      "a tool owned by another plugin",
      [echo("t", { owner: { kind: "plugin", pluginId: "other" } })],
      /owned by plugin other/,
    ],
    ["a tool owned by an MCP server", [echo("t", { owner: { kind: "mcp", serverId: "fs" } })], /owned by mcp/],
    ["something that is not a tool", [{ name: "t" }], /tool 0 is not a tool/],
    [
      "a tool with a bad name",
      [
        {
          descriptor: { name: "a b", description: "", inputSchema: { type: "object" }, owner: { kind: "core" } },
          execute: async () => "",
        },
      ],
      /Invalid tool name "a b"/,
    ],
  ])("fails createTools on %s", async (_, tools, message) => {
    const plugin = definePlugin({ id: "p", tools: tools as never });
    await expect(plugin.createTools(context)).rejects.toMatchObject({ code: "invalid-plugin", pluginId: "p", message });
  });
});
