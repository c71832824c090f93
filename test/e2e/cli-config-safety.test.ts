// The CLI over configs that used to hang or crash it: stuck plugins, silent MCP servers, FIFOs, deep nesting, missing workspaces.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "./helpers/cli.js";
import { SILENT_SOURCE } from "./helpers/mcp-servers.js";

const OK_PLUGIN = `export default { id: "ok", tools: (ctx) => [
  ctx.defineTool({ name: "ok_ping", description: "Ping.", inputSchema: { type: "object" }, execute: () => "pong" }),
] };
`;

let root: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  root = await tempWorkspace({
    // a module awaiting forever while a timer keeps the process alive (it hung), and one with nothing alive (it exited silently)
    "stuck/hangs.mjs": "setInterval(() => {}, 1000);\nawait new Promise(() => {});\nexport default { id: 'hangs' };\n",
    "stuck/quiet.mjs": "await new Promise(() => {});\nexport default { id: 'quiet' };\n",
    "stuck/tools.mjs":
      "setInterval(() => {}, 1000);\nexport default { id: 'tools', tools: () => new Promise(() => {}) };\n",
    "stuck/ok.mjs": OK_PLUGIN,
    "stuck/toolwire.config.json": JSON.stringify({
      plugins: [
        { module: "./hangs.mjs", loadTimeoutMs: 500 },
        { module: "./quiet.mjs", loadTimeoutMs: 500 },
        { id: "tools", module: "./tools.mjs", loadTimeoutMs: 500 },
        { module: "./fifo.mjs" },
        { module: "./ok.mjs" },
      ],
    }),
    "silent/server.mjs": `${SILENT_SOURCE}\n`,
    "silent/toolwire.config.json": JSON.stringify({
      mcpServers: [{ id: "hush", command: "node", args: ["./server.mjs"], timeoutMs: 500 }],
    }),
    "deep/toolwire.config.json": `{"plugins":[{"module":"./p.mjs","options":${"[".repeat(100_000)}${"]".repeat(100_000)}}]}`,
    "noroot/toolwire.config.json": JSON.stringify({ workspace: "./missing" }),
    "fileroot/toolwire.config.json": JSON.stringify({ workspace: "./file.txt" }),
    "fileroot/file.txt": "not a folder\n",
    "outside/code/plugin.mjs": OK_PLUGIN,
    "outside/code/server.mjs": `${SILENT_SOURCE}\n`,
    "outside/repo/inside.mjs": OK_PLUGIN.replaceAll("ok", "in"),
    "outside/repo/toolwire.config.json": JSON.stringify({
      plugins: [{ module: "./inside.mjs" }, { module: "../code/plugin.mjs" }],
      mcpServers: [
        { id: "far", command: "node", args: ["--no-warnings", "../code/server.mjs"], timeoutMs: 300 },
        { id: "off", command: "/opt/elsewhere/server", enabled: false },
      ],
    }),
    "fifo/.keep": "",
  });
  execFileSync("mkfifo", [
    `${root.path}/fifo/toolwire.config.json`,
    `${root.path}/fifo/named.json`,
    `${root.path}/stuck/fifo.mjs`,
  ]);
});
afterAll(() => root.remove());

// A CLI that hangs is killed after 40 s and the test fails: the timeouts it should hit are 500 ms. A wall-clock bound
// tighter than that failed on a busy machine, where starting the CLI alone took seconds.
const at = (folder: string, args: string[]) => runCli(args, { cwd: `${root.path}/${folder}`, timeoutMs: 40_000 });

describe.concurrent("the CLI does not hang or crash on a bad config", { timeout: 60_000 }, () => {
  it("plugins whose module or tools function never settles fail after their load timeout, a FIFO module at once; the others load", async () => {
    const { code, stdout, stderr } = await at("stuck", ["plan", "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.visible.map((tool: { name: string }) => tool.name)).toContain("ok_ping");
    expect(plan.problems).toEqual([
      {
        area: "plugin",
        subject: "./hangs.mjs",
        message:
          "Cannot load plugin module ./hangs.mjs: its module did not finish loading within 500 ms (a top-level await that never settles?)",
      },
      {
        area: "plugin",
        subject: "./quiet.mjs",
        message:
          "Cannot load plugin module ./quiet.mjs: its module did not finish loading within 500 ms (a top-level await that never settles?)",
      },
      {
        area: "plugin",
        subject: "tools",
        message: "Plugin tools failed while creating its tools: its tools function did not settle within 500 ms",
      },
      {
        area: "plugin",
        subject: "./fifo.mjs",
        message: "Cannot load plugin module ./fifo.mjs: it is a FIFO (named pipe), not a regular file",
      },
    ]);
  });

  it("an MCP server that never answers fails within its timeoutMs, and plan shows it as a problem", async () => {
    const { code, stdout } = await at("silent", ["plan"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^mcp +hush +MCP server hush did not complete the handshake within 500 ms$/m);
    expect(stdout).toContain("Visible (7)");
  });

  it("options nested 100,000 levels deep: exit 3 naming the path, no stack overflow", async () => {
    const { code, stdout, stderr } = await at("deep", ["plan"]);
    expect(code).toBe(3);
    expect(stdout).toBe("");
    expect(stderr).toContain(`Invalid config ${root.path}/deep/toolwire.config.json:\n- plugins[0].options[0][0][0]`);
    expect(stderr).toContain("nests deeper than 64 levels of lists and objects; flatten this value");
    expect(stderr).not.toContain("Maximum call stack");
    expect(stderr.length).toBeLessThan(1000);
  });

  it("a workspace that does not exist, or is a file, is a config error: exit 3 and what to fix", async () => {
    const missing = await at("noroot", ["plan"]);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim()).toBe(
      `toolwire: Invalid config ${root.path}/noroot/toolwire.config.json:\n- workspace: the workspace folder ${root.path}/noroot/missing does not exist; create it or point "workspace" at an existing folder`,
    );
    const file = await at("fileroot", ["call", "ls"]);
    expect(file.code).toBe(3);
    expect(file.stderr).toContain(`- workspace: the workspace ${root.path}/fileroot/file.txt is not a folder`);
  });

  it("a FIFO as the config, found or named with --config, is refused at once: exit 3", async () => {
    const found = await at("fifo", ["plan"]);
    expect(found.code).toBe(3);
    expect(found.stderr.trim()).toBe(
      `toolwire: Cannot read config ${root.path}/fifo/toolwire.config.json: it is a FIFO (named pipe), not a regular file`,
    );
    const named = await at("fifo", ["--config", "named.json", "explain", "read"]);
    expect(named.code).toBe(3);
    expect(named.stderr).toContain("named.json: it is a FIFO (named pipe), not a regular file");
  });
});

describe("code from outside the config's folder", { timeout: 30_000 }, () => {
  it("is named in one warning line on stderr, and still runs", async () => {
    const { code, stdout, stderr } = await at("outside/repo", ["plan", "--json"]);
    expect(code).toBe(0);
    expect(stderr.trim().split("\n")).toEqual([
      `toolwire: warning: ${root.path}/outside/repo/toolwire.config.json runs code from outside its folder: plugins[1].module ${root.path}/outside/code/plugin.mjs, mcpServers[0].args[1] ${root.path}/outside/code/server.mjs`,
    ]);
    const plan = JSON.parse(stdout);
    expect(plan.visible.map((tool: { name: string }) => tool.name)).toEqual(
      expect.arrayContaining(["in_ping", "ok_ping"]),
    );
  });

  it("a symbolic link inside the folder that points outside counts as outside", async () => {
    const repo = `${root.path}/outside/linked`;
    await mkdir(repo, { recursive: true });
    execFileSync("ln", ["-s", "../code/plugin.mjs", `${repo}/plugin.mjs`]);
    await writeFile(`${repo}/toolwire.config.json`, JSON.stringify({ plugins: [{ module: "./plugin.mjs" }] }));
    const { code, stderr } = await at("outside/linked", ["explain", "ok_ping"]);
    expect(code).toBe(0);
    expect(stderr).toContain(
      `runs code from outside its folder: plugins[0].module ${root.path}/outside/code/plugin.mjs`,
    );
  });
});
