// Code mode through the CLI (docs/code-mode.md): plan says which tools only programs reach, and a scripted run's
// one program calls a real MCP server's tools and a built-in through the session.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocBlocks } from "../support/doc-blocks.js";
import { cliEnv, runCli, tempWorkspace, writeFiles } from "./helpers/cli.js";
import { memoryServer } from "./helpers/mcp-servers.js";

/** The program the scripted model writes: two MCP calls, a built-in, a refused call it catches, one small answer. */
const PROGRAM = `
await tools.memory__create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] });
const graph = await tools.memory__read_graph({});
const notes = await tools.read({ path: "notes.txt" });
let refused;
try { await tools.read({ path: 42 }); } catch (error) { refused = error.code; }
console.log("people:", graph.entities.length);
return { people: graph.entities.map((entity) => entity.name), notesSayHello: notes.includes("hello"), refused };
`;

const ONE_PROGRAM = {
  turns: [
    { toolCalls: [{ id: "p1", name: "run_code", input: { code: PROGRAM } }], expect: { tools: ["run_code"] } },
    {
      text: "Ada is saved.",
      expect: {
        toolResults: [
          {
            id: "p1",
            isError: false,
            contains: 'people: 1\n{"people":["Ada"],"notesSayHello":true,"refused":"invalid-input"}',
          },
        ],
      },
    },
  ],
};

/** The config block of docs/code-mode.md, as a user copies it. */
const DOCUMENTED = readDocBlocks("docs/code-mode.md").find(
  (block) => block.marker.kind === "runs" && block.marker.test === "test/e2e/cli-code-mode.test.ts",
);

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({ "notes.txt": "hello\n" });
  const config = {
    mcpServers: [memoryServer(join(workspace.path, "memory.jsonl"))],
  };
  await writeFiles(workspace.path, {
    "toolwire.config.json": JSON.stringify(config, null, 2),
    "code-mode.config.json": JSON.stringify({ ...config, ...JSON.parse(DOCUMENTED?.code ?? "{}") }),
    "one-program.json": JSON.stringify(ONE_PROGRAM),
  });
});
afterAll(() => workspace.remove());

const cli = (args: string[]) => runCli(args, { cwd: workspace.path, env: cliEnv() });

describe.concurrent("code mode in the CLI", { timeout: 60_000 }, () => {
  it("toolwire run --code-mode: the model gets run_code alone, and one program calls MCP tools and a built-in", async () => {
    const { code, stdout } = await cli(["run", "--code-mode", "--model", "scripted:one-program.json", "remember Ada"]);
    expect(stdout).toContain("call   run_code");
    const nested = [...stdout.matchAll(/ {2}↳ ([✓✗]) (\S+) [\d.]+ ms( \S+)?/g)].map((match) => match.slice(1).join(""));
    expect(nested).toEqual(["✓memory__create_entities", "✓memory__read_graph", "✓read", "✗read invalid-input"]);
    expect(stdout.indexOf("↳")).toBeLessThan(stdout.indexOf("✓      run_code"));
    expect(stdout).toContain("■ completed after 2 turns");
    expect(code).toBe(0);
  });

  it("toolwire plan with docs/code-mode.md's codeMode lists the tools only programs reach, and run_code up front", async () => {
    expect(DOCUMENTED?.lang).toBe("json");
    const { code, stdout } = await cli(["plan", "--no-color", "--config", "code-mode.config.json"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/memory__read_graph/);
    expect(stdout).toMatch(/Code only \(10\)/);
    const plan = JSON.parse((await cli(["plan", "--json", "--config", "code-mode.config.json"])).stdout);
    expect(plan.codeOnly.map((entry: { name: string }) => entry.name).sort()).toEqual([
      "memory__add_observations",
      "memory__create_entities",
      "memory__create_relations",
      "memory__delete_entities",
      "memory__delete_observations",
      "memory__delete_relations",
      "memory__open_nodes",
      "memory__read_graph",
      "memory__search_nodes",
      "read",
    ]);
    expect(plan.toolTokens.upFront).toBeGreaterThan(0);
  });
});
