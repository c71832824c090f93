// The committed example config, run from a temp copy: three layers, three plugins (one disabled, one broken), skills
// (one malformed). Every tool that is not in the plan says why, and so does every plugin or skill that did not load.
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFromConfig } from "../../src/config/apply-config.js";
import { loadConfig } from "../../src/config/load-config.js";
import { resolveSkillDispatchTools } from "../../src/core/filter/resolve-skill-dispatch-tools.js";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { ToolRegistry } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";

const examples = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "examples");
// Stand-ins with the built-ins' names (the real ones live in the built-ins area); the plan only needs their descriptors.
const BUILTIN_NAMES = ["read", "write", "edit", "ls", "grep", "find", "bash"];
const builtins = BUILTIN_NAMES.map((name) =>
  defineTool({ name, description: `built-in ${name}`, inputSchema: { type: "object" }, execute: () => name }),
);

let dir: string;
let built: Awaited<ReturnType<typeof buildFromConfig>>;
let registry: ToolRegistry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-example-"));
  await cp(examples, dir, { recursive: true });
  built = await buildFromConfig(await loadConfig(join(dir, "toolwire.config.json")), { builtins, env: {} });
  registry = createToolRegistry(built.registryOptions);
});
afterAll(async () => {
  registry?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the example config", () => {
  it("plans the tools the three layers and availability leave", () => {
    expect([...registry.tools.keys()]).toEqual(["find", "grep", "ls", "notes_add", "notes_list", "read"]);
  });

  it("says why every tool that is not in the plan is missing", () => {
    const everyTool = [...BUILTIN_NAMES, ...built.pluginHost.plugins.flatMap((plugin) => plugin.toolNames)];
    expect(everyTool.sort()).toEqual(
      [
        "bash",
        "clock_now",
        "edit",
        "find",
        "grep",
        "ls",
        "notes_add",
        "notes_list",
        "notes_sync",
        "read",
        "write",
      ].sort(),
    );
    const report = registry.lastReport;
    for (const name of everyTool) {
      if (registry.tools.has(name)) continue;
      const excluded = report.excluded.filter((entry) => entry.name === name);
      const hidden = report.hidden.filter((entry) => entry.descriptor.name === name);
      expect(excluded.length + hidden.length, `${name} has a reason`).toBe(1);
      for (const entry of excluded) expect(entry.reason === "policy" ? entry.layer : entry.reason).toBeTruthy();
      for (const entry of hidden) expect(entry.diagnostics.length).toBeGreaterThan(0);
      expect(registry.explain(name)).not.toMatch(/^No tool named/);
    }
    expect(report.excluded).toEqual([
      { name: "bash", source: "builtin", reason: "policy", layer: "global", pattern: "group:runtime" },
      { name: "write", source: "builtin", reason: "policy", layer: "agent", pattern: "write" },
      { name: "edit", source: "builtin", reason: "policy", layer: "agent", pattern: "edit" },
    ]);
    expect(report.hidden.map((entry) => [entry.descriptor.name, entry.diagnostics])).toEqual([
      [
        "clock_now",
        [
          {
            reason: "plugin-disabled",
            signal: { kind: "plugin-enabled", pluginId: "clock" },
            message: "Plugin is not enabled: clock",
          },
        ],
      ],
      [
        "notes_sync",
        [
          {
            reason: "env-missing",
            signal: { kind: "env", name: "NOTES_TOKEN" },
            message: "Missing environment value: NOTES_TOKEN",
          },
        ],
      ],
    ]);
    expect(report.unknownPatterns).toEqual([{ layer: "team", pattern: "mcp:docs" }]);
    expect(registry.explain("bash")).toBe(
      'bash (built-in) is removed by policy layer "global": deny pattern "group:runtime".',
    );
    expect(registry.explain("clock_now")).toBe(
      "clock_now is hidden: its availability check failed.\n- Plugin is not enabled: clock (plugin-disabled)",
    );
  });

  it("reports the plugin that throws while loading and the malformed skill, and loads the rest", () => {
    expect(built.pluginHost.plugins.map((plugin) => [plugin.id, plugin.enabled])).toEqual([
      ["notes", true],
      ["clock", false],
    ]);
    expect(built.skills.skills.map((skill) => skill.name)).toEqual(["release", "review"]);
    expect(built.problems).toEqual([
      {
        area: "plugin",
        subject: "broken",
        message: "Cannot load plugin module ./plugins/broken.mjs: this example plugin fails on purpose while loading",
      },
      { area: "skill", subject: join(dir, "skills", "broken", "SKILL.md"), message: "missing name in front matter" },
    ]);
    expect(built.mcpServers).toEqual([]); // the example's MCP server is disabled
  });

  it("enabling the disabled plugin brings its tool into the plan", () => {
    built.pluginHost.enable("clock");
    try {
      expect(registry.tools.has("clock_now")).toBe(true);
      expect(registry.explain("clock_now")).toMatch(/^clock_now is available: extension tool owned by plugin clock/);
    } finally {
      built.pluginHost.disable("clock");
    }
    expect(registry.tools.has("clock_now")).toBe(false);
  });

  it("runs a plugin tool through a session with the plugin's hooks, writing in the workspace", async () => {
    const session = createAgentSession({
      registry,
      beforeToolCall: [...built.session.beforeToolCall],
      afterToolCall: [...built.session.afterToolCall],
      systemPrompt: built.session.skillsPrompt,
    });
    const added = await session.dispatch({ id: "1", name: "notes_add", input: { text: "ship 0.1" } });
    expect(added).toEqual({
      type: "tool_result",
      tool_use_id: "1",
      content: [{ type: "text", text: "Saved. 1 note(s)." }],
    });
    const tooLong = await session.dispatch({ id: "2", name: "notes_add", input: { text: "x".repeat(501) } });
    expect(tooLong.is_error).toBe(true);
    expect(tooLong.content).toEqual([
      { type: "text", text: "Tool call blocked: a note may have at most 500 characters" },
    ]);
    expect(await readFile(join(dir, ".toolwire", "notes.jsonl"), "utf8")).toMatch(
      /^\{"text":"ship 0\.1","at":".+"\}\n$/,
    );
    expect(session.systemPrompt).toContain(`- review: Review the changes in the workspace`);
    session.close();
  });

  it("a skill's allowed-tools narrow what the session's layers keep", () => {
    const review = built.skills.skills.find((skill) => skill.name === "review");
    const release = built.skills.skills.find((skill) => skill.name === "release");
    const descriptors = [...builtins.map((t) => t.descriptor), ...built.pluginHost.tools.map((t) => t.descriptor)];
    const layers = built.registryOptions.policy ?? [];
    const tools = (skill: typeof review) =>
      resolveSkillDispatchTools({
        tools: descriptors,
        layers,
        skill: { name: skill?.name ?? "", allowedTools: skill?.allowedTools },
        sessionId: "s",
        authority: { sessionId: "s" },
      }).tools.map((t) => t.name);
    expect(tools(review)).toEqual(["read", "ls", "grep", "find"]);
    expect(tools(release)).toEqual(["read", "notes_list"]);
  });
});
