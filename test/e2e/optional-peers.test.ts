// toolwire without its optional peer dependencies: the root, toolwire/builtins and the CLI's commands that need no
// SDK work; toolwire/mcp, toolwire/workers, toolwire/redis, toolwire/ai-sdk, toolwire/openai-agents, MCP servers and a
// Redis approvals store in a config, a Cedar policy, a PostgreSQL journal and a model client without its SDK say what to install.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToEnd } from "../support/run-to-end.js";
import { builtScript } from "./helpers/build.js";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";

const HIDE = fileURLToPath(new URL("../support/hide-optional-peers.mjs", import.meta.url));
const PEERS =
  /^(openai|ai|@openai\/agents-core|@anthropic-ai\/sdk|@modelcontextprotocol\/(?:client|server|node)|bullmq|ioredis|quickjs-emscripten-core|@jitl\/quickjs-ng-wasmfile-release-sync|@swc\/wasm-typescript|@cedar-policy\/cedar-wasm|pg)(?:\/|$)/;
const root = builtScript("dist/index.js");
const dist = dirname(root);

/** Runs an ES module's text in a child Node with the optional peers hidden; resolves with its stdout as JSON. */
async function runWithoutPeers(code: string): Promise<Record<string, unknown>> {
  const run = await runToEnd(process.execPath, ["--import", HIDE, "--input-type=module", "-e", code], {
    cwd: dist,
    env: cliEnv(),
    timeoutMs: 20_000,
    what: "node without the optional peers",
  });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({ "a.txt": "hello\n" });
});
afterAll(() => workspace.remove());

describe("without the optional peer dependencies", () => {
  it("the root entry loads and a session dispatches", async () => {
    const result = await runWithoutPeers(`
      const { createAgentSession, createToolRegistry, defineTool } = await import("./index.js");
      const add = defineTool({ name: "add", description: "Adds", execute: async ({ a, b }) => String(a + b),
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } });
      const session = createAgentSession({ registry: createToolRegistry({ custom: [add] }) });
      console.log(JSON.stringify(await session.dispatch({ id: "t1", name: "add", input: { a: 2, b: 3 } })));`);
    expect(result).toMatchObject({ tool_use_id: "t1", content: [{ type: "text", text: "5" }] });
  });

  it("toolwire/builtins loads and its read tool runs through a session", async () => {
    const result = await runWithoutPeers(`
      const { createAgentSession, createToolRegistry } = await import("./index.js");
      const { createBuiltinTools } = await import("./builtins/index.js");
      const builtins = createBuiltinTools({ root: ${JSON.stringify(workspace.path)} });
      const session = createAgentSession({ registry: createToolRegistry({ builtins }) });
      console.log(JSON.stringify(await session.dispatch({ id: "t1", name: "read", input: { path: "a.txt" } })));`);
    expect(JSON.stringify(result)).toContain("hello");
    expect(result).not.toHaveProperty("is_error", true);
  });

  it("toolwire/mcp throws missing-peer-dependency naming the three MCP packages", async () => {
    const result = await runWithoutPeers(`
      try { await import("./mcp/index.js"); console.log(JSON.stringify({ loaded: true })); }
      catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, packages: error.packages, message: error.message })); }`);
    expect(result).toMatchObject({
      name: "MissingPeerDependencyError",
      code: "missing-peer-dependency",
      packages: ["@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/node"],
    });
    expect(result.message).toContain(
      "npm install @modelcontextprotocol/client @modelcontextprotocol/server @modelcontextprotocol/node",
    );
  });

  it("toolwire/workers throws missing-peer-dependency naming bullmq and ioredis", async () => {
    const result = await runWithoutPeers(`
      try { await import("./executors/index.js"); console.log(JSON.stringify({ loaded: true })); }
      catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, packages: error.packages, message: error.message })); }`);
    expect(result).toMatchObject({ code: "missing-peer-dependency", packages: ["bullmq", "ioredis"] });
    expect(result.message).toContain("npm install bullmq ioredis");
  });

  it("toolwire/redis throws missing-peer-dependency naming ioredis alone", async () => {
    const result = await runWithoutPeers(`
      try { await import("./redis/index.js"); console.log(JSON.stringify({ loaded: true })); }
      catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, packages: error.packages, message: error.message })); }`);
    expect(result).toEqual({
      name: "MissingPeerDependencyError",
      code: "missing-peer-dependency",
      packages: ["ioredis"],
      message: "toolwire's Redis stores needs ioredis: npm install ioredis",
    });
  });

  it("toolwire/ai-sdk and toolwire/openai-agents throw missing-peer-dependency naming their framework", async () => {
    const result = await runWithoutPeers(`
      const seen = {};
      for (const entry of ["ai-sdk", "openai-agents"]) {
        try { await import("./frameworks/" + entry + "/index.js"); seen[entry] = { loaded: true }; }
        catch (error) { seen[entry] = { code: error.code, packages: error.packages, message: error.message }; }
      }
      console.log(JSON.stringify(seen));`);
    expect(result).toEqual({
      "ai-sdk": {
        code: "missing-peer-dependency",
        packages: ["ai"],
        message: "toolwire/ai-sdk needs ai: npm install ai",
      },
      "openai-agents": {
        code: "missing-peer-dependency",
        packages: ["@openai/agents-core"],
        message: "toolwire/openai-agents needs @openai/agents-core: npm install @openai/agents-core",
      },
    });
  });

  it("toolwire/code-mode loads, and run_code's call fails naming the engine's three packages", async () => {
    const result = await runWithoutPeers(`
      const { createAgentSession, createToolRegistry } = await import("./index.js");
      const { createCodeMode } = await import("./code-mode/index.js");
      const registry = createToolRegistry({});
      const session = createAgentSession({ registry });
      const codeMode = createCodeMode(session);
      registry.refresh({ custom: [codeMode.source] });
      const outcome = await session.dispatchDetailed({ id: "p1", name: "run_code", input: { code: "return 1" } });
      console.log(JSON.stringify({ errorCode: outcome.errorCode, text: outcome.block.content[0].text }));`);
    expect(result).toEqual({
      errorCode: "execution-failed",
      text: expect.stringContaining(
        "code mode needs quickjs-emscripten-core, @jitl/quickjs-ng-wasmfile-release-sync and @swc/wasm-typescript: npm install quickjs-emscripten-core @jitl/quickjs-ng-wasmfile-release-sync @swc/wasm-typescript",
      ),
    });
  });

  it("toolwire/cedar loads, and createCedarPolicy rejects naming @cedar-policy/cedar-wasm", async () => {
    const result = await runWithoutPeers(`
      const { createCedarPolicy } = await import("./cedar/index.js");
      try { await createCedarPolicy({ principal: "local", policies: "permit(principal, action, resource);" }); console.log(JSON.stringify({ made: true })); }
      catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, packages: error.packages, message: error.message })); }`);
    expect(result).toEqual({
      name: "MissingPeerDependencyError",
      code: "missing-peer-dependency",
      packages: ["@cedar-policy/cedar-wasm"],
      message: "toolwire/cedar needs @cedar-policy/cedar-wasm: npm install @cedar-policy/cedar-wasm",
    });
  });

  it("toolwire/journal loads, its file journal works, and a PostgreSQL journal rejects naming pg", async () => {
    const result = await runWithoutPeers(`
      const { createFileJournal, createPostgresJournal } = await import("./journal/index.js");
      const files = createFileJournal(${JSON.stringify(join(workspace.path, "runs"))});
      await files.append("r", [{ kind: "run-ended", reason: "done", turns: 1 }]);
      const read = await files.read("r");
      const journal = createPostgresJournal({ connectionString: "postgres://127.0.0.1:1/none" });
      try { await journal.read("r"); console.log(JSON.stringify({ read: true })); }
      catch (error) { console.log(JSON.stringify({ entries: read.length, name: error.name, code: error.code, packages: error.packages, message: error.message })); }
      finally { await journal.close(); }`);
    expect(result).toEqual({
      entries: 1,
      name: "MissingPeerDependencyError",
      code: "missing-peer-dependency",
      packages: ["pg"],
      message: "toolwire's PostgreSQL journal needs pg: npm install pg",
    });
  });

  it("toolwire plan works, and a config with an MCP server fails naming the MCP packages", async () => {
    const hidden = (args: string[], cwd: string) =>
      runToEnd(process.execPath, ["--import", HIDE, CLI, ...args], {
        cwd,
        env: cliEnv({ NO_COLOR: "1" }),
        timeoutMs: 30_000,
        what: `toolwire ${args.join(" ")} without the optional peers`,
      });
    const plain = await hidden(["plan", "--json"], workspace.path);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('"read"');
    const withMcp = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ mcpServers: [{ id: "x", command: "node", args: ["-e", ""] }] }),
    });
    try {
      const run = await hidden(["plan"], withMcp.path);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("toolwire's MCP support needs @modelcontextprotocol/client");
    } finally {
      await withMcp.remove();
    }
  }, 70_000);

  it("a config whose approvals.store is a Redis fails naming ioredis", async () => {
    const withRedis = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ approvals: { require: ["write"], store: "redis://127.0.0.1:6379" } }),
    });
    try {
      const run = await runToEnd(process.execPath, ["--import", HIDE, CLI, "plan"], {
        cwd: withRedis.path,
        env: cliEnv({ NO_COLOR: "1" }),
        timeoutMs: 30_000,
        what: "toolwire plan without ioredis",
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("toolwire's Redis stores needs ioredis: npm install ioredis");
    } finally {
      await withRedis.remove();
    }
  });

  it("toolwire run with an anthropic model says to install @anthropic-ai/sdk", async () => {
    const run = await runToEnd(
      process.execPath,
      ["--import", HIDE, CLI, "--json", "run", "--model", "anthropic:claude-test", "hi"],
      { cwd: workspace.path, env: cliEnv({ ANTHROPIC_API_KEY: "test" }), timeoutMs: 30_000, what: "toolwire run" },
    );
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain(
      "needs @anthropic-ai/sdk, an optional peer dependency of toolwire that is not installed: npm install @anthropic-ai/sdk",
    );
  });
});

describe("with the MCP SDK installed", () => {
  it("toolwire/mcp exports exactly the values of its API module, the same objects", async () => {
    // In a plain Node child: the entry's require of ./api.js and an import of it share one module instance there.
    const run = await runToEnd(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const gate = await import("./mcp/index.js");
        const api = await import("./mcp/api.js");
        const differing = Object.keys(api).filter((name) => gate[name] !== api[name]);
        console.log(JSON.stringify({ gate: Object.keys(gate).sort(), api: Object.keys(api).sort(), differing }));`,
      ],
      { cwd: dist, env: cliEnv(), timeoutMs: 20_000, what: "node importing toolwire/mcp" },
    );
    const result = JSON.parse(run.stdout) as { gate: string[]; api: string[]; differing: string[] };
    expect(result.gate).toEqual(result.api);
    expect(result.differing).toEqual([]);
  });
});

describe("with BullMQ and ioredis installed", () => {
  it("toolwire/workers exports exactly the values of its API module, the same objects", async () => {
    const run = await runToEnd(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const gate = await import("./executors/index.js");
        const api = await import("./executors/api.js");
        const differing = Object.keys(api).filter((name) => gate[name] !== api[name]);
        console.log(JSON.stringify({ gate: Object.keys(gate).sort(), api: Object.keys(api).sort(), differing }));`,
      ],
      { cwd: dist, env: cliEnv(), timeoutMs: 20_000, what: "node importing toolwire/workers" },
    );
    const result = JSON.parse(run.stdout) as { gate: string[]; api: string[]; differing: string[] };
    expect(result.gate).toEqual(result.api);
    expect(result.gate).toContain("startBullmqWorker");
    expect(result.differing).toEqual([]);
  });
});

describe("with ioredis installed", () => {
  it("toolwire/redis exports exactly the values of its API module, the same objects", async () => {
    const run = await runToEnd(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const gate = await import("./redis/index.js");
        const api = await import("./redis/api.js");
        const differing = Object.keys(api).filter((name) => gate[name] !== api[name]);
        console.log(JSON.stringify({ gate: Object.keys(gate).sort(), api: Object.keys(api).sort(), differing }));`,
      ],
      { cwd: dist, env: cliEnv(), timeoutMs: 20_000, what: "node importing toolwire/redis" },
    );
    const result = JSON.parse(run.stdout) as { gate: string[]; api: string[]; differing: string[] };
    expect(result.gate).toEqual(["createRedisApprovalStore", "createRedisTaskStore"]);
    expect(result.gate).toEqual(result.api);
    expect(result.differing).toEqual([]);
  });
});

describe("with the AI SDK and the OpenAI Agents SDK installed", () => {
  it.each(["ai-sdk", "openai-agents"])("toolwire/%s exports exactly the values of its API module", async (entry) => {
    const run = await runToEnd(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const gate = await import("./frameworks/${entry}/index.js");
        const api = await import("./frameworks/${entry}/api.js");
        const differing = Object.keys(api).filter((name) => gate[name] !== api[name]);
        console.log(JSON.stringify({ gate: Object.keys(gate).sort(), api: Object.keys(api).sort(), differing }));`,
      ],
      { cwd: dist, env: cliEnv(), timeoutMs: 20_000, what: `node importing toolwire/${entry}` },
    );
    const result = JSON.parse(run.stdout) as { gate: string[]; api: string[]; differing: string[] };
    expect(result.gate).toEqual(result.api);
    expect(result.gate.length).toBeGreaterThan(4);
    expect(result.differing).toEqual([]);
  });
});

describe("the declaration files of the root, toolwire/builtins and toolwire/journal", () => {
  it("import no optional peer dependency, however deep", () => {
    const seen = new Set<string>();
    const leaks: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      for (const [, specifier = ""] of text.matchAll(/(?:from\s+|import\()\s*["']([^"']+)["']/g)) {
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".d.ts")));
        else if (PEERS.test(specifier)) leaks.push(`${file.slice(dist.length + 1)} imports ${specifier}`);
      }
    };
    visit(join(dist, "index.d.ts"));
    visit(join(dist, "builtins", "index.d.ts"));
    visit(join(dist, "journal", "index.d.ts"));
    expect(seen.size).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  });
});
