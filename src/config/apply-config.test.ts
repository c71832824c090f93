// buildFromConfig over real files: built-ins, allowed names, layers, plugins, skills, availability and MCP servers.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import { buildFromConfig } from "./apply-config.js";
import { ConfigError, loadConfig } from "./load-config.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-apply-"));
  await mkdir(join(dir, "plugins"));
  await writeFile(
    join(dir, "plugins", "notes.mjs"),
    `export default {
  id: "notes",
  tools: (ctx) => [
    ctx.defineTool({ name: "notes_add", description: "Add a note under " + ctx.workspaceRoot, inputSchema: { type: "object" }, execute: () => "ok" }),
    ctx.defineTool({ name: "notes_sync", description: "Sync", inputSchema: { type: "object" }, availability: { kind: "env", name: "NOTES_TOKEN" }, execute: () => "ok" }),
  ],
  beforeToolCall: () => undefined,
};
`,
  );
  await mkdir(join(dir, "skills", "review"), { recursive: true });
  await writeFile(join(dir, "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Review a diff.\n---\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const builtins = (root: string) =>
  ["read", "write", "bash"].map((name) =>
    defineTool({ name, description: `${name} in ${root}`, inputSchema: { type: "object" }, execute: () => name }),
  );

async function configFile(config: unknown): Promise<string> {
  const file = join(dir, "toolwire.config.json");
  await writeFile(file, JSON.stringify(config));
  return file;
}

describe("buildFromConfig", () => {
  it("turns the availability section into a context, reading only the named environment variables", async () => {
    const loaded = await loadConfig(
      await configFile({
        availability: {
          authProviders: ["github"],
          config: { notes: { dir: "n" } },
          env: ["NOTES_TOKEN", "UNSET_ONE"],
          context: { channel: "cli" },
        },
      }),
    );
    const built = await buildFromConfig(loaded, {
      env: { NOTES_TOKEN: "t", SECRET: "s" },
      capabilities: new Set(["sandbox"]),
    });
    expect(built.availability).toEqual({
      authProviderIds: new Set(["github"]),
      config: { notes: { dir: "n" } },
      env: { NOTES_TOKEN: "t" },
      enabledPluginIds: built.pluginHost.enabledPluginIds,
      values: { channel: "cli" },
      capabilities: new Set(["sandbox"]),
    });
  });

  it("wires built-ins, allowed names, layers, plugins and skills into registry and session options", async () => {
    const loaded = await loadConfig(
      await configFile({
        allowedTools: ["read", "bash", "notes_add", "notes_sync"],
        policy: [{ label: "global", deny: ["bash"] }],
        plugins: [{ module: "./plugins/notes.mjs" }],
        availability: { env: ["NOTES_TOKEN"] },
        skills: ["./skills", "./missing-skills"],
      }),
    );
    const built = await buildFromConfig(loaded, { builtins, env: {} });
    const registry = createToolRegistry(built.registryOptions);
    expect([...registry.tools.keys()]).toEqual(["notes_add", "read"]);
    expect(registry.tools.get("read")?.descriptor.description).toBe(`read in ${dir}`);
    expect(registry.tools.get("notes_add")?.descriptor.description).toBe(`Add a note under ${dir}`);
    expect(registry.lastReport.excluded).toEqual([
      { name: "write", source: "builtin", reason: "not-in-allowlist" },
      { name: "bash", source: "builtin", reason: "policy", layer: "global", pattern: "bash" },
    ]);
    expect(registry.hidden.map((h) => [h.descriptor.name, h.diagnostics.map((d) => d.message)])).toEqual([
      ["notes_sync", ["Missing environment value: NOTES_TOKEN"]],
    ]);
    expect(built.session.beforeToolCall).toHaveLength(1);
    expect(built.session.skillsPrompt).toContain(
      `- review: Review a diff. (file: ${join("skills", "review", "SKILL.md")})`,
    );
    expect(built.problems).toEqual([
      { area: "skill", subject: join(dir, "missing-skills"), message: "skills folder not found" },
    ]);
  });

  it("drops every built-in when builtins.enabled is false, saying so", async () => {
    const built = await buildFromConfig(await loadConfig(await configFile({ builtins: { enabled: false } })), {
      builtins,
    });
    const registry = createToolRegistry(built.registryOptions);
    expect(registry.tools.size).toBe(0);
    expect(registry.explain("read")).toBe(
      "read (built-in) is excluded: built-in tools are disabled (disableBuiltInTools).",
    );
  });

  it("gives the enabled MCP servers with cwd resolved against the config's folder, and their options apart", async () => {
    const loaded = await loadConfig(
      await configFile({
        mcpServers: [
          { id: "fs", command: "node", args: ["s.js"], cwd: "servers", include: ["read_*"], timeoutMs: 100 },
          { id: "off", command: "node", enabled: false },
          { id: "web", url: "http://127.0.0.1:9/mcp", headers: { A: "b" } },
        ],
      }),
    );
    const built = await buildFromConfig(loaded);
    expect(built.mcpServers).toEqual([
      {
        server: { id: "fs", command: "node", args: ["s.js"], cwd: join(dir, "servers") },
        options: { include: ["read_*"], timeoutMs: 100, connectTimeoutMs: 100 },
      },
      { server: { id: "web", url: "http://127.0.0.1:9/mcp", headers: { A: "b" } }, options: {} },
    ]);
  });

  it("a timeoutMs under 30 s also bounds the handshake; connectTimeoutMs, when given, sets it alone", async () => {
    const loaded = await loadConfig(
      await configFile({
        mcpServers: [
          { id: "short", command: "node", timeoutMs: 500 },
          { id: "long", command: "node", timeoutMs: 120_000 },
          { id: "both", url: "http://127.0.0.1:9/mcp", timeoutMs: 500, connectTimeoutMs: 2000 },
          { id: "connect", command: "node", connectTimeoutMs: 250 },
        ],
      }),
    );
    expect((await buildFromConfig(loaded)).mcpServers.map((plan) => plan.options)).toEqual([
      { timeoutMs: 500, connectTimeoutMs: 500 },
      { timeoutMs: 120_000 },
      { timeoutMs: 500, connectTimeoutMs: 2000 },
      { connectTimeoutMs: 250 },
    ]);
  });

  it("gives the builtins factory the workspace root and the builtins section, env included", async () => {
    await mkdir(join(dir, "ws"));
    const seen: unknown[] = [];
    const env = { pass: ["GITHUB_*"], set: { CI: "1" } };
    await buildFromConfig(await loadConfig(await configFile({ workspace: "ws", builtins: { env } })), {
      builtins: (root, config) => {
        seen.push(root, config);
        return builtins(root);
      },
    });
    expect(seen).toEqual([join(dir, "ws"), { env }]);
  });

  it("gives the session the workspace, where large results are saved, and the config's maxResultChars and maxSpillBytes", async () => {
    await mkdir(join(dir, "ws"));
    const config = { workspace: "ws", maxResultChars: 1234, maxSpillBytes: 5678 };
    const built = await buildFromConfig(await loadConfig(await configFile(config)), { builtins });
    expect(built.session.workspace).toBe(join(dir, "ws"));
    expect(built.session.maxResultChars).toBe(1234);
    expect(built.session.maxSpillBytes).toBe(5678);
    await expect(loadConfig(await configFile({ maxResultChars: 0 }))).rejects.toMatchObject({ code: "invalid-config" });
    await expect(loadConfig(await configFile({ maxSpillBytes: 0 }))).rejects.toMatchObject({ code: "invalid-config" });
  });

  it("hands defer and deferBudgetTokens to the registry: patterns defer built-ins, the budget defers plugin tools", async () => {
    const config = {
      defer: ["bash"],
      deferBudgetTokens: 0,
      plugins: [{ module: "./plugins/notes.mjs" }],
      availability: { env: ["NOTES_TOKEN"] },
    };
    const built = await buildFromConfig(await loadConfig(await configFile(config)), {
      builtins,
      env: { NOTES_TOKEN: "t" },
    });
    expect(built.registryOptions).toMatchObject({ defer: ["bash"], deferBudgetTokens: 0 });
    const registry = createToolRegistry(built.registryOptions);
    expect(registry.lastReport.deferred.map(({ name, reason }) => [name, reason])).toEqual([
      ["bash", "pattern"],
      ["notes_add", "budget"],
      ["notes_sync", "budget"],
    ]);
    await expect(loadConfig(await configFile({ deferBudgetTokens: -1 }))).rejects.toMatchObject({
      code: "invalid-config",
      issues: [{ path: "deferBudgetTokens", message: "must be at least 0, got number -1" }],
    });
    await expect(loadConfig(await configFile({ defer: [""] }))).rejects.toMatchObject({
      issues: [{ path: "defer[0]", message: "must not be empty" }],
    });
  });

  it("turns codeMode on: the exposed tools become code-only (every tool by default), and its options are handed on", async () => {
    const on = await buildFromConfig(await loadConfig(await configFile({ codeMode: { enabled: true } })), { builtins });
    expect(on.registryOptions.codeOnly).toEqual(["*"]);
    expect(on.codeMode).toEqual({ enabled: true });
    const narrowed = { enabled: true, tools: ["read", "grep"], limits: { timeoutMs: 5000 }, declarationTokens: 800 };
    const some = await buildFromConfig(await loadConfig(await configFile({ codeMode: narrowed })), { builtins });
    expect(some.registryOptions.codeOnly).toEqual(["read", "grep"]);
    expect(some.codeMode).toEqual(narrowed);
    const off = await buildFromConfig(await loadConfig(await configFile({ codeMode: { tools: ["read"] } })), {
      builtins,
    });
    expect(off.registryOptions.codeOnly).toBeUndefined();
    expect(off.codeMode).toBeUndefined();
    await expect(
      loadConfig(await configFile({ codeMode: { enabled: true, limits: { memoryBytes: 1024 } } })),
    ).rejects.toMatchObject({
      code: "invalid-config",
      issues: [{ path: "codeMode.limits.memoryBytes", message: "must be at least 4194304, got number 1024" }],
    });
  });

  it("a workspace that is missing or not a folder is a ConfigError at workspace, before any plugin loads", async () => {
    const marker = join(dir, "loaded.txt");
    await writeFile(
      join(dir, "plugins", "marks.mjs"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "x");\nexport default { id: "marks" };\n`,
    );
    const missing = buildFromConfig(
      await loadConfig(await configFile({ workspace: "nope", plugins: [{ module: "./plugins/marks.mjs" }] })),
    );
    await expect(missing).rejects.toMatchObject({
      name: "ConfigError",
      code: "invalid-config",
      issues: [
        {
          path: "workspace",
          message: `the workspace folder ${join(dir, "nope")} does not exist; create it or point "workspace" at an existing folder`,
        },
      ],
    });
    await expect(
      buildFromConfig(await loadConfig(await configFile({ workspace: "plugins/marks.mjs" }))),
    ).rejects.toMatchObject({ issues: [{ path: "workspace", message: expect.stringContaining("is not a folder") }] });
    await expect(readFile(marker, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a config that fails validation changes nothing in a registry built from the previous one", async () => {
    const file = await configFile({ policy: [{ label: "global", deny: ["bash"] }] });
    const built = await buildFromConfig(await loadConfig(file), { builtins });
    const registry = createToolRegistry(built.registryOptions);
    const before = registry.tools;
    await configFile({ policy: [{ label: "global", deny: "bash" }] });
    await expect(loadConfig(file)).rejects.toBeInstanceOf(ConfigError);
    expect(registry.tools).toBe(before);
    expect([...registry.tools.keys()]).toEqual(["read", "write"]);
  });
});
