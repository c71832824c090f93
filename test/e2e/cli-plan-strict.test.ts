// toolwire plan --strict, for CI: exit 1 naming each plugin or MCP server that failed to load; without it, exit 0.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

const BROKEN = {
  "toolwire.config.json": JSON.stringify({
    plugins: [{ module: "./plugins/broken.mjs" }],
    mcpServers: { missing: { command: "toolwire-test-no-such-command" } },
  }),
  "plugins/broken.mjs": `throw new Error("broken on purpose");\n`,
  "plugins/fine.mjs": `export default { id: "fine", tools: () => [] };\n`,
  "fine.json": JSON.stringify({ plugins: [{ module: "./plugins/fine.mjs" }] }),
};

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace(BROKEN);
});
afterAll(() => project.remove());

const inProject = (args: string[]) => runCli(args, { cwd: project.path, env: cliEnv() });
const FAILED = [
  "toolwire: plan --strict: 2 parts of the config failed:",
  "- plugin ./plugins/broken.mjs: Cannot load plugin module ./plugins/broken.mjs: broken on purpose",
  "- mcp missing: MCP server missing could not be started (toolwire-test-no-such-command): spawn toolwire-test-no-such-command ENOENT",
];

describe.concurrent("toolwire plan --strict", { timeout: 60_000 }, () => {
  it("exits 1 and names each plugin and MCP server that failed, and why, on stderr", async () => {
    const { code, stdout, stderr } = await inProject(["plan", "--strict"]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split("\n")).toEqual(FAILED);
    expect(stdout).toMatch(/Problems \(2\)/);
  });

  it("with --json, prints the plan on stdout and the failures on stderr, exit 1", async () => {
    const { code, stdout, stderr } = await inProject(["plan", "--strict", "--json"]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split("\n")).toEqual(FAILED);
    expect(JSON.parse(stdout).problems.map((problem: { subject: string }) => problem.subject)).toEqual([
      "./plugins/broken.mjs",
      "missing",
    ]);
  });

  it("without --strict, the same config exits 0 with the failures in the plan", async () => {
    const { code, stdout, stderr } = await inProject(["plan"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^mcp +missing +MCP server missing could not be started/m);
  });

  it("exits 0 when everything loaded", async () => {
    const { code, stderr } = await inProject(["plan", "--strict", "--config", "fine.json"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});
