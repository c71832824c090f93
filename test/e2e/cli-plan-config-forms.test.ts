// toolwire plan over configs as other MCP clients write them: mcpServers keyed by server id, bridging a real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace, writeFiles } from "./helpers/cli.js";
import { filesystemServer } from "./helpers/mcp-servers.js";

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({ "notes.txt": "hello\n" });
  const { id: _id, cwd: _cwd, ...fs } = filesystemServer(project.path);
  await writeFiles(project.path, {
    // As Claude Desktop's and Claude Code's configs write it: the key is the id, `type` restates the transport.
    // A generous handshake limit: a loaded 2-core machine may take long to start the server.
    "toolwire.config.json": JSON.stringify(
      { mcpServers: { files: { type: "stdio", ...fs, connectTimeoutMs: 100_000 } } },
      null,
      2,
    ),
    "bad.json": JSON.stringify({ mcpServers: { files: { ...fs, timeoutMs: 0, disabled: true } } }),
  });
});
afterAll(() => project.remove());

const inProject = (args: string[]) => runCli(args, { cwd: project.path, env: cliEnv() });

describe.concurrent("mcpServers in object form", { timeout: 120_000 }, () => {
  it("plan bridges the server under its key and says which form it read", async () => {
    const { code, stdout, stderr } = await inProject(["plan"]);
    expect(code).toBe(0);
    expect(stdout).toContain("mcpServers: object form (each key is the server's id)");
    expect(stdout).toMatch(/^files__read_text_file +mcp:files +/m);
    expect(stdout).not.toContain("Problems");
    // Code outside the config's folder is named by the entry's key.
    expect(stderr).toContain(`runs code from outside its folder: mcpServers.files.command`);
  });

  it("plan --json says mcpServersForm and lists the server's tools", async () => {
    const { code, stdout } = await inProject(["plan", "--json"]);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.mcpServersForm).toBe("object");
    expect(plan.problems).toEqual([]);
    expect(plan.visible).toContainEqual(
      expect.objectContaining({ name: "files__list_directory", owner: expect.objectContaining({ serverId: "files" }) }),
    );
  });

  it("a bad entry exits 3 with every fault named by its key", async () => {
    const { code, stderr } = await inProject(["plan", "--config", "bad.json"]);
    expect(code).toBe(3);
    expect(stderr).toContain("- mcpServers.files.timeoutMs: must be greater than 0, got number 0");
    expect(stderr).toContain('- mcpServers.files.disabled: unknown property; toolwire writes "enabled": false');
  });
});
