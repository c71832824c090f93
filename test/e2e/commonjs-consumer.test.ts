// A CommonJS project uses toolwire: require() of each entry point at run time, and its types from a .cts file.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "./helpers/build.js";

const root = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

// Uses every entry point end to end: a custom tool and a built-in through a session, then the same session served
// over MCP on loopback and called back through the MCP bridge.
const consumerScript = `"use strict";
const { writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { createAgentSession, createToolRegistry, defineTool } = require("toolwire");
const { createBuiltinTools } = require("toolwire/builtins");
const { connectMcpServer, serveMcp } = require("toolwire/mcp");

async function main() {
  const workspace = join(__dirname, "workspace");
  writeFileSync(join(workspace, "note.txt"), "hello from a file\\n");
  const add = defineTool({
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    execute: async ({ a, b }) => String(a + b),
  });
  const registry = createToolRegistry({ builtins: createBuiltinTools({ root: workspace }), custom: [add] });
  const session = createAgentSession({ registry });
  const sum = await session.dispatch({ id: "call_1", name: "add", input: { a: 2, b: 3 } });
  const read = await session.dispatch({ id: "call_2", name: "read", input: { path: "note.txt" } });
  const server = await serveMcp(session, { transport: "http", port: 0 });
  const connection = await connectMcpServer({ id: "self", url: server.url });
  try {
    const client = createAgentSession({ registry: createToolRegistry({ custom: [connection] }) });
    const bridged = await client.dispatch({ id: "call_3", name: "self__add", input: { a: 20, b: 22 } });
    console.log(JSON.stringify({ sum, read, bridged }));
  } finally {
    await connection.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

// The entry points with no optional peers beside the root and builtins: each require()s, and prints its names.
const SUBPATHS = ["providers", "telemetry", "plugins", "skills", "config"];
const subpathsScript = `"use strict";
const names = {};
for (const subpath of ${JSON.stringify(SUBPATHS)}) names[subpath] = Object.keys(require("toolwire/" + subpath)).sort();
console.log(JSON.stringify(names));
`;

// Compiled with --noEmit: the imports resolve through the "types" conditions, and the types are real (not any).
const consumerTypes = `import { createAgentSession, createToolRegistry, defineTool, type ToolResultBlock } from "toolwire";
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from "toolwire/builtins";
import { connectMcpServer, type McpServerConfig } from "toolwire/mcp";

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } as const,
  execute: async ({ a }) => {
    // @ts-expect-error a is inferred as a number from the schema
    const text: string = a;
    return text;
  },
});
const session = createAgentSession({ registry: createToolRegistry({ builtins: createBuiltinTools({ root: "." }), custom: [add] }) });
const pending: Promise<ToolResultBlock> = session.dispatch({ id: "call_1", name: "add", input: { a: 1 } });
const config: McpServerConfig = { id: "self", url: "http://127.0.0.1:1/mcp" };
const names: readonly string[] = BUILTIN_TOOL_NAMES;
export { config, connectMcpServer, names, pending };
`;

// The framework entry points: a session's tool as an AI SDK tool and as an Agents SDK tool, each called once.
const frameworksScript = `"use strict";
const { createAgentSession, createToolRegistry, defineTool } = require("toolwire");
const { toAiSdkTools } = require("toolwire/ai-sdk");
const { toOpenAIAgentsTools } = require("toolwire/openai-agents");
const { RunContext } = require("@openai/agents-core");

async function main() {
  const add = defineTool({
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    execute: async ({ a, b }) => String(a + b),
  });
  const session = createAgentSession({ registry: createToolRegistry({ custom: [add] }) });
  const aiSdk = await toAiSdkTools(session).add.execute({ a: 2, b: 3 }, { toolCallId: "call_1", messages: [] });
  const [agentsAdd] = toOpenAIAgentsTools(session);
  const agents = await agentsAdd.invoke(new RunContext(), JSON.stringify({ a: 2, b: 3 }));
  console.log(JSON.stringify({ aiSdk, agents }));
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

const frameworksTypes = `import { createAgentSession, createToolRegistry } from "toolwire";
import { fromAiSdkTools, toAiSdkTools, type ToolCallFailedError } from "toolwire/ai-sdk";
import { fromOpenAIAgentsTools, toOpenAIAgentsTools } from "toolwire/openai-agents";
import type { ToolSet } from "ai";
import type { FunctionTool } from "@openai/agents-core";

const session = createAgentSession({ registry: createToolRegistry({}) });
const aiSdkTools: ToolSet = toAiSdkTools(session, { approvals: "session" });
const agentsTools: FunctionTool<unknown, any, any>[] = toOpenAIAgentsTools(session);
// @ts-expect-error approvals is "ai-sdk" or "session" (the types are real, not any)
toAiSdkTools(session, { approvals: "agents" });
// @ts-expect-error approvals is "agents" or "session"
toOpenAIAgentsTools(session, { approvals: "ai-sdk" });
const back = [...fromAiSdkTools(aiSdkTools), ...fromOpenAIAgentsTools(agentsTools)];
const code = (error: ToolCallFailedError): string => error.code;
export { back, code };
`;

let consumer: string;
beforeAll(async () => {
  builtScript("dist/index.js");
  consumer = await mkdtemp(join(tmpdir(), "toolwire-commonjs-"));
  await writeFile(
    join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "commonjs" }),
  );
  await mkdir(join(consumer, "node_modules"));
  await mkdir(join(consumer, "workspace"));
  // The package as npm links it; its own node_modules (the repository's) resolves its dependencies.
  await symlink(root, join(consumer, "node_modules", "toolwire"), "dir");
  // The peers the consumer itself imports, as its own npm install would put them beside toolwire.
  await mkdir(join(consumer, "node_modules", "@openai"));
  for (const peer of ["ai", "@openai/agents-core"]) {
    await symlink(join(root, "node_modules", peer), join(consumer, "node_modules", peer), "dir");
  }
});
afterAll(() => rm(consumer, { recursive: true, force: true }));

describe("a CommonJS consumer", { timeout: 120_000 }, () => {
  it("require()s toolwire, toolwire/builtins and toolwire/mcp and dispatches calls through each", async () => {
    const script = join(consumer, "consumer.cjs");
    await writeFile(script, consumerScript);
    const { stdout, stderr } = await run(process.execPath, [script], { cwd: consumer });
    // No ExperimentalWarning and no ERR_REQUIRE_ASYNC_MODULE (a top-level await anywhere in the graph).
    expect(stderr).toBe("");
    expect(JSON.parse(stdout)).toEqual({
      sum: { type: "tool_result", tool_use_id: "call_1", content: [{ type: "text", text: "5" }] },
      read: {
        type: "tool_result",
        tool_use_id: "call_2",
        content: [{ type: "text", text: "     1\thello from a file" }],
      },
      bridged: { type: "tool_result", tool_use_id: "call_3", content: [{ type: "text", text: "42" }] },
    });
  });

  it("require()s toolwire/providers, /telemetry, /plugins, /skills and /config: the same names as import()", async () => {
    const script = join(consumer, "subpaths.cjs");
    await writeFile(script, subpathsScript);
    const { stdout, stderr } = await run(process.execPath, [script], { cwd: consumer });
    expect(stderr).toBe("");
    const imported: Record<string, string[]> = {};
    for (const subpath of SUBPATHS) {
      imported[subpath] = Object.keys(await import(pathToFileURL(builtScript(`dist/${subpath}/index.js`)).href)).sort();
      expect(imported[subpath].length).toBeGreaterThan(0);
    }
    expect(JSON.parse(stdout)).toEqual(imported);
  });

  it("require()s toolwire/ai-sdk and toolwire/openai-agents and runs a call through each framework's tool", async () => {
    const script = join(consumer, "frameworks.cjs");
    await writeFile(script, frameworksScript);
    const { stdout, stderr } = await run(process.execPath, [script], { cwd: consumer });
    expect(stderr).toBe("");
    expect(JSON.parse(stdout)).toEqual({ aiSdk: { content: [{ type: "text", text: "5" }] }, agents: "5" });
  });

  it("type-checks a strict .cts file that uses toolwire/ai-sdk and toolwire/openai-agents (module node20)", async () => {
    await writeFile(join(consumer, "frameworks.cts"), frameworksTypes);
    const compilerOptions = {
      module: "node20",
      moduleResolution: "node16",
      target: "ES2022",
      strict: true,
      noEmit: true,
      // The frameworks' own declarations take a minute to check on a small machine; the @ts-expect-error lines
      // in the file show that toolwire's types still resolve (they are not any).
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [join(root, "node_modules", "@types")],
    };
    const config = join(consumer, "tsconfig.frameworks.json");
    await writeFile(config, JSON.stringify({ compilerOptions, files: ["frameworks.cts"] }));
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", config], { cwd: consumer }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe("");
  });

  it("type-checks a strict .cts file that imports each entry point (module node20)", async () => {
    await writeFile(join(consumer, "consumer.cts"), consumerTypes);
    const compilerOptions = {
      module: "node20",
      moduleResolution: "node16",
      target: "ES2022",
      strict: true,
      noEmit: true,
      types: ["node"],
      typeRoots: [join(root, "node_modules", "@types")],
    };
    await writeFile(join(consumer, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.cts"] }));
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    const result = await run(process.execPath, [tsc, "-p", consumer], { cwd: consumer }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    expect(result.stdout).toBe("");
  });

  it("the package declares the Node versions that can require() it", async () => {
    const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
    expect(manifest.engines.node).toBe("^20.19 || >=22.12");
    for (const entry of [".", "./builtins", "./mcp", "./ai-sdk", "./openai-agents", ...SUBPATHS.map((s) => `./${s}`)]) {
      expect(Object.keys(manifest.exports[entry])).toEqual(["types", "import", "require", "default"]);
    }
  });
});
