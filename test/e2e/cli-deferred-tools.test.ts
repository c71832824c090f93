// Deferred tools through the CLI (docs/deferred-tools.md): plan and explain say why, and a scripted run searches, finds and calls one.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace, writeFiles } from "./helpers/cli.js";
import { memoryServer } from "./helpers/mcp-servers.js";

/** Sent up front: the built-ins but grep (deferred by pattern), then tool_search; the memory server's tools wait. */
const UP_FRONT = ["bash", "edit", "find", "ls", "read", "write", "tool_search"];
const ENTITY = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };

/** Search, find memory__create_entities, call it, answer: each turn checks what the request offered. */
const SEARCH_AND_CALL = {
  turns: [
    {
      toolCalls: [{ id: "s1", name: "tool_search", input: { query: "create entities in the knowledge graph" } }],
      expect: { tools: UP_FRONT },
    },
    {
      toolCalls: [{ id: "c1", name: "memory__create_entities", input: { entities: [ENTITY] } }],
      expect: {
        toolResults: [{ id: "s1", isError: false, contains: "memory__create_entities: Create multiple new entities" }],
        tools: [...UP_FRONT, "memory__create_entities"],
      },
    },
    { text: "Saved Ada.", expect: { toolResults: [{ id: "c1", isError: false, contains: '"name": "Ada"' }] } },
  ],
};

/**
 * The scripted model's failed expectation names every tool the request offered, in order: a turn expecting a tool
 * that was not sent shows exactly what was.
 */
const expectingAbsent = (turnsBefore: unknown[], absent: string) => ({
  turns: [...turnsBefore, { text: "never", expect: { tools: [absent] } }],
});

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({ "notes.txt": "hello\n" });
  const config = {
    defer: ["grep"],
    deferBudgetTokens: 0,
    mcpServers: [memoryServer(join(workspace.path, "memory.jsonl"))],
  };
  await writeFiles(workspace.path, {
    "toolwire.config.json": JSON.stringify(config, null, 2),
    "search-and-call.json": JSON.stringify(SEARCH_AND_CALL),
    "before-search.json": JSON.stringify(expectingAbsent([], "memory__create_entities")),
    "after-search.json": JSON.stringify(expectingAbsent([SEARCH_AND_CALL.turns[0]], "memory__read_graph")),
  });
});
afterAll(() => workspace.remove());

const cli = (args: string[]) => runCli(args, { cwd: workspace.path, env: cliEnv() });

describe.concurrent("deferred tools in the CLI", { timeout: 60_000 }, () => {
  it("toolwire plan lists the deferred tools with why and their estimated tokens", async () => {
    const { code, stdout } = await cli(["plan", "--no-color"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Deferred (10): the model finds these through tool_search");
    expect(stdout).toMatch(/grep +\d+ +matches the defer pattern "grep"/);
    expect(stdout).toMatch(
      /memory__create_entities +\d+ +over deferBudgetTokens 0 \(the tools came to \d+; largest MCP and plugin tools first\)/,
    );
    expect(stdout).toMatch(/estimated tokens: \d+ sent up front \(tool_search included\), \d+ deferred/);
  });

  it("toolwire plan --json has every deferred tool with its reason, and the token estimates", async () => {
    const plan = JSON.parse((await cli(["plan", "--json"])).stdout);
    expect(plan.deferred[0]).toEqual({ name: "grep", reason: "pattern", pattern: "grep", tokens: expect.any(Number) });
    const budget = plan.deferred.filter((entry: { reason: string }) => entry.reason === "budget");
    expect(budget.map((entry: { name: string }) => entry.name)).toContain("memory__create_entities");
    expect(budget.every((entry: { budgetTokens: number }) => entry.budgetTokens === 0)).toBe(true);
    expect(plan.toolTokens.upFront).toBeGreaterThan(0);
    expect(plan.toolTokens.deferred).toBeGreaterThan(plan.toolTokens.upFront);
  });

  it("toolwire explain says a deferred tool is available and why it is deferred", async () => {
    const { code, stdout } = await cli(["explain", "memory__create_entities"]);
    expect(code).toBe(0);
    expect(stdout).toContain("memory__create_entities is available: extension tool owned by MCP server memory");
    expect(stdout).toMatch(
      /memory__create_entities is deferred \(\d+ estimated tokens\): the tools sent up front came to/,
    );
    const json = JSON.parse((await cli(["explain", "grep", "--json"])).stdout);
    expect(json.deferred).toEqual({ reason: "pattern", pattern: "grep", tokens: expect.any(Number) });
  });

  it("toolwire run: the model searches, the tool found joins the next request, and its call runs", async () => {
    const { code, stdout } = await cli(["run", "--model", "scripted:search-and-call.json", "remember Ada"]);
    expect(stdout).toContain('call   tool_search {"query":"create entities in the knowledge graph"}');
    expect(stdout).toContain("│ memory__create_entities: Create multiple new entities in the knowledge graph");
    expect(stdout).toContain("call   memory__create_entities");
    expect(stdout).toContain("■ completed after 3 turns");
    expect(code).toBe(0);
  });

  it("toolwire run: before the search the deferred tool is not sent, exactly the up-front tools are", async () => {
    const { stdout } = await cli(["run", "--model", "scripted:before-search.json", "remember Ada"]);
    expect(stdout).toContain(`tools not offered: memory__create_entities (offered: ${UP_FRONT.join(", ")})`);
  });

  it("toolwire run: after the search the tools it listed are appended at the end, in its order, and no others", async () => {
    const { stdout } = await cli(["run", "--model", "scripted:after-search.json", "remember Ada"]);
    const listed = [...stdout.matchAll(/│ (memory__\w+): /g)].map((match) => match[1]);
    expect(listed).toHaveLength(5); // the default limit
    expect(listed[0]).toBe("memory__create_entities");
    expect(listed).not.toContain("memory__read_graph");
    expect(stdout).toContain(`tools not offered: memory__read_graph (offered: ${[...UP_FRONT, ...listed].join(", ")})`);
  });

  it("toolwire call runs a deferred tool by name", async () => {
    const { code, stdout } = await cli(["call", "memory__read_graph", "{}"]);
    expect(code).toBe(0);
    expect(stdout).toContain('"entities"');
  });
});
