// The plugin host over real plugin modules in a temp folder: loading, failures, enable/disable, conflicts, hooks.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../core/register/registry.js";
import { createAgentSession } from "../create-agent-session.js";
import { definePlugin } from "./define-plugin.js";
import { createPluginHost } from "./plugin-host.js";

let dir: string;

/** A plugin module whose tools echo their name and the plugin's options. */
function pluginSource(id: string, toolNames: string[], extra = ""): string {
  return `export default {
  id: ${JSON.stringify(id)},
  tools: (ctx) => ${JSON.stringify(toolNames)}.map((name) => ctx.defineTool({
    name,
    description: "tool " + name + " of " + ctx.pluginId,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    execute: (input) => ctx.pluginId + ":" + name + ":" + JSON.stringify(ctx.options) + ":" + (input.text ?? ""),
  })),
  ${extra}
};
`;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-plugins-"));
  await mkdir(join(dir, "plugins"));
  const files: Record<string, string> = {
    "plugins/notes.mjs": pluginSource("notes", ["notes_add", "notes_list"]),
    "plugins/todo.mjs": pluginSource("todo", ["todo_add", "notes_list"]),
    "plugins/throws.mjs": 'throw new Error("boom at import");\n',
    "plugins/factory-throws.mjs":
      'export default { id: "fragile", tools: () => { throw new Error("no database"); } };\n',
    "plugins/empty.mjs": "export const nothing = 1;\n",
    "plugins/stuck-import.mjs": "await new Promise(() => {});\nexport default { id: 'never' };\n",
    "plugins/stuck-tools.mjs": "export default { id: 'stuck', tools: () => new Promise(() => {}) };\n",
    "plugins/named.mjs": pluginSource("named", ["named_tool"]).replace("export default", "export const plugin ="),
    "plugins/hooks.mjs": `export default {
  id: "audit",
  beforeToolCall: (e) => ({ input: { ...e.input, text: (e.input.text ?? "") + "+audit" } }),
  afterToolCall: (e) => ({ content: [{ type: "text", text: e.result.content[0].text + " [audited]" }] }),
};
`,
    "plugins/guard.mjs": `export default {
  id: "guard",
  beforeToolCall: (e) => (e.input.text === "secret" ? { block: true, reason: "guard says no" } : undefined),
};
`,
  };
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = { toolCallId: "c", signal: new AbortController().signal, onUpdate() {} };

describe("createPluginHost: loading", () => {
  it("loads plugin modules by path relative to baseDir, and by absolute path, with their options", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [
        { module: "./plugins/notes.mjs", options: { limit: 3 } },
        { module: join(dir, "plugins", "named.mjs") },
      ],
    });
    expect(host.problems).toEqual([]);
    expect(host.plugins).toEqual([
      { id: "notes", module: "./plugins/notes.mjs", enabled: true, toolNames: ["notes_add", "notes_list"] },
      { id: "named", module: join(dir, "plugins", "named.mjs"), enabled: true, toolNames: ["named_tool"] },
    ]);
    expect(host.tools.map((t) => t.descriptor.name)).toEqual(["notes_add", "notes_list", "named_tool"]);
    expect(host.tools[0]?.descriptor.owner).toEqual({ kind: "plugin", pluginId: "notes" });
    expect(await host.tools[0]?.execute({ text: "hi" }, call)).toBe('notes:notes_add:{"limit":3}:hi');
  });

  it("reports each plugin that fails to load, with its module and why, and loads the rest", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [
        { id: "broken", module: "./plugins/throws.mjs" },
        { module: "./plugins/missing.mjs" },
        { module: "./plugins/empty.mjs" },
        { module: "./plugins/factory-throws.mjs" },
        { module: "./plugins/notes.mjs" },
      ],
    });
    expect(host.plugins.map((p) => p.id)).toEqual(["notes"]);
    expect(host.problems).toEqual([
      {
        kind: "load-failed",
        pluginId: "broken",
        module: "./plugins/throws.mjs",
        message: "Cannot load plugin module ./plugins/throws.mjs: boom at import",
      },
      {
        kind: "load-failed",
        module: "./plugins/missing.mjs",
        message: expect.stringMatching(/^Cannot load plugin module \.\/plugins\/missing\.mjs: .*missing\.mjs/),
      },
      {
        kind: "load-failed",
        module: "./plugins/empty.mjs",
        message: expect.stringMatching(/exports no plugin: expected a default export/),
      },
      {
        kind: "load-failed",
        pluginId: "fragile",
        module: "./plugins/factory-throws.mjs",
        message: "Plugin fragile failed while creating its tools: no database",
      },
    ]);
  });

  it("reports a module whose top-level await never settles, and a tools promise that never settles, after the load timeout; loads the rest", async () => {
    const started = performance.now();
    const host = await createPluginHost({
      baseDir: dir,
      loadTimeoutMs: 300,
      plugins: [
        { module: "./plugins/stuck-import.mjs" },
        // A busy machine can take more than 300 ms to load even a plain module: the module whose tools function never
        // settles must load before its limit for that function's limit to be the one reached, so it gets 2 s.
        { id: "stuck", module: "./plugins/stuck-tools.mjs", loadTimeoutMs: 2_000 },
        { module: "./plugins/notes.mjs", loadTimeoutMs: 60_000 },
      ],
    });
    // The stuck ones end at their limit, not never (a generous bound: the clock runs on under load).
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(host.plugins.map((p) => p.id)).toEqual(["notes"]);
    expect(host.problems).toEqual([
      {
        kind: "load-failed",
        module: "./plugins/stuck-import.mjs",
        message:
          "Cannot load plugin module ./plugins/stuck-import.mjs: its module did not finish loading within 300 ms (a top-level await that never settles?)",
      },
      {
        kind: "load-failed",
        pluginId: "stuck",
        module: "./plugins/stuck-tools.mjs",
        message: "Plugin stuck failed while creating its tools: its tools function did not settle within 2000 ms",
      },
    ]);
  });

  it("refuses a FIFO or a device as a module without opening it (that would block a thread for good)", async () => {
    execFileSync("mkfifo", [join(dir, "plugins", "pipe.mjs")]);
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [{ module: "./plugins/pipe.mjs" }, { module: "/dev/null" }, { module: "./plugins" }],
    });
    expect(host.problems.map((p) => p.message)).toEqual([
      "Cannot load plugin module ./plugins/pipe.mjs: it is a FIFO (named pipe), not a regular file",
      "Cannot load plugin module /dev/null: it is a device, not a regular file",
      "Cannot load plugin module ./plugins: it is a folder, not a module file",
    ]);
  });

  it("an entry's loadTimeoutMs wins over the host's, and a bad one fails only that entry", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      loadTimeoutMs: 60_000,
      plugins: [
        { plugin: { id: "slow", tools: () => new Promise(() => {}) }, loadTimeoutMs: 100 },
        { plugin: { id: "bad" }, loadTimeoutMs: -1 },
        { plugin: { id: "fine" } },
      ],
    });
    expect(host.plugins.map((p) => p.id)).toEqual(["fine"]);
    expect(host.problems.map((p) => p.message)).toEqual([
      "Plugin slow failed while creating its tools: its tools function did not settle within 100 ms",
      "loadTimeoutMs must be a positive number of milliseconds up to 2147483647, got -1",
    ]);
  });

  it("refuses a module whose plugin id differs from the config's, and a repeated id", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [
        { module: "./plugins/notes.mjs" },
        { id: "memo", module: "./plugins/notes.mjs" },
        { module: "./plugins/notes.mjs" },
      ],
    });
    expect(host.plugins.map((p) => p.id)).toEqual(["notes"]);
    expect(host.problems.map((p) => p.message)).toEqual([
      'Plugin module ./plugins/notes.mjs defines plugin "notes", but the config names it "memo"',
      'Duplicate plugin id "notes": already loaded from ./plugins/notes.mjs',
    ]);
  });

  it("takes plugins defined in process too", async () => {
    const host = await createPluginHost({
      plugins: [{ plugin: { id: "inline" } }, { plugin: definePlugin({ id: "x" }) }],
    });
    expect(host.plugins.map((p) => p.id)).toEqual(["inline", "x"]);
    expect(host.problems).toEqual([]);
  });
});

describe("createPluginHost: enable and disable", () => {
  it("hides a disabled plugin's tools with plugin-disabled, and shows them when enabled", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [{ module: "./plugins/notes.mjs", enabled: false }],
    });
    const registry = createToolRegistry({
      extensions: [host],
      availability: { enabledPluginIds: host.enabledPluginIds },
    });
    expect([...registry.tools.keys()]).toEqual([]);
    expect(registry.hidden.map((h) => [h.descriptor.name, h.diagnostics.map((d) => d.reason)])).toEqual([
      ["notes_add", ["plugin-disabled"]],
      ["notes_list", ["plugin-disabled"]],
    ]);
    expect(registry.explain("notes_add")).toBe(
      "notes_add is hidden: its availability check failed.\n- Plugin is not enabled: notes (plugin-disabled)",
    );

    const reports: string[][] = [];
    registry.onRefresh((report) => reports.push(report.added));
    host.enable("notes");
    expect([...registry.tools.keys()]).toEqual(["notes_add", "notes_list"]);
    expect(reports).toEqual([["notes_add", "notes_list"]]);
    host.enable("notes"); // no change, no refresh
    expect(reports).toHaveLength(1);
    host.disable("notes");
    expect([...registry.tools.keys()]).toEqual([]);
    expect(host.isEnabled("notes")).toBe(false);
  });

  it("throws unknown-plugin for an id that is not loaded, naming the loaded ones", async () => {
    const host = await createPluginHost({ baseDir: dir, plugins: [{ module: "./plugins/notes.mjs" }] });
    expect(() => host.enable("nope")).toThrow(
      expect.objectContaining({ code: "unknown-plugin", message: 'No plugin "nope" is loaded. Loaded plugins: notes' }),
    );
  });
});

describe("createPluginHost: name conflicts", () => {
  it("keeps the first plugin's tool, and says which was dropped and why", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [{ module: "./plugins/notes.mjs" }, { module: "./plugins/todo.mjs" }],
    });
    expect(
      host.tools.map(
        (t) => `${t.descriptor.owner.kind === "plugin" ? t.descriptor.owner.pluginId : ""}:${t.descriptor.name}`,
      ),
    ).toEqual(["notes:notes_add", "notes:notes_list", "todo:todo_add"]);
    expect(host.problems).toEqual([
      {
        kind: "name-conflict",
        toolName: "notes_list",
        kept: "notes",
        dropped: "todo",
        message:
          "Tool name conflict on notes_list: kept the tool of plugin notes, dropped the one of plugin todo (plugin notes comes before plugin todo in the plugin list)",
      },
    ]);
  });

  it("prefers an enabled plugin's tool over a disabled one's, and re-resolves on enable", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [{ module: "./plugins/notes.mjs", enabled: false }, { module: "./plugins/todo.mjs" }],
    });
    const owner = () => host.tools.find((t) => t.descriptor.name === "notes_list")?.descriptor.owner;
    expect(owner()).toEqual({ kind: "plugin", pluginId: "todo" });
    expect(host.problems).toEqual([
      expect.objectContaining({
        kept: "todo",
        dropped: "notes",
        message: expect.stringContaining("(plugin todo is enabled and plugin notes is not)"),
      }),
    ]);
    host.enable("notes");
    expect(owner()).toEqual({ kind: "plugin", pluginId: "notes" });
    expect(host.problems).toEqual([expect.objectContaining({ kept: "notes", dropped: "todo" })]);
  });

  it("reports a plugin that defines a name twice", async () => {
    const host = await createPluginHost({
      plugins: [
        {
          plugin: {
            id: "twice",
            tools: (ctx) =>
              [1, 2].map((n) =>
                ctx.defineTool({
                  name: "dup",
                  description: `v${n}`,
                  inputSchema: { type: "object" },
                  execute: () => "",
                }),
              ),
          },
        },
      ],
    });
    expect(host.tools.map((t) => t.descriptor.description)).toEqual(["v1"]);
    expect(host.problems).toEqual([
      expect.objectContaining({ kind: "name-conflict", kept: "twice", dropped: "twice", toolName: "dup" }),
    ]);
  });
});

describe("createPluginHost: hooks", () => {
  it("joins the session's chains in plugin order, and a disabled plugin's hooks do nothing", async () => {
    const host = await createPluginHost({
      baseDir: dir,
      plugins: [
        { module: "./plugins/notes.mjs" },
        { module: "./plugins/hooks.mjs" },
        { module: "./plugins/guard.mjs" },
      ],
    });
    expect(host.beforeToolCall).toHaveLength(2);
    expect(host.afterToolCall).toHaveLength(1);
    const registry = createToolRegistry({
      extensions: [host],
      availability: { enabledPluginIds: host.enabledPluginIds },
    });
    const session = createAgentSession({
      registry,
      beforeToolCall: [...host.beforeToolCall],
      afterToolCall: [...host.afterToolCall],
    });
    const text = async (input: object) => {
      const result = await session.dispatch({ id: "1", name: "notes_add", input });
      return { text: result.content.map((c) => (c.type === "text" ? c.text : "")).join(""), error: result.is_error };
    };
    expect(await text({ text: "a" })).toEqual({ text: "notes:notes_add:{}:a+audit [audited]", error: undefined });
    host.disable("audit");
    expect(await text({ text: "a" })).toEqual({ text: "notes:notes_add:{}:a", error: undefined });
    expect(await text({ text: "secret" })).toEqual({ text: "Tool call blocked: guard says no", error: true });
    host.disable("guard");
    expect((await text({ text: "secret" })).error).toBeUndefined();
  });
});
