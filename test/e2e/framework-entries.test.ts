// toolwire/langchain and toolwire/pi as built: each loads with its framework installed (by import and by require),
// toolwire/langchain says what to install without @langchain/core, toolwire/pi needs nothing of pi at run time, and
// the root entry neither loads nor declares either framework.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runToEnd } from "../support/run-to-end.js";
import { builtScript } from "./helpers/build.js";
import { cliEnv } from "./helpers/cli.js";

const root = builtScript("dist/index.js");
const dist = dirname(root);
const FRAMEWORKS = /^(@langchain\/[^/]+|langchain|@mariozechner\/[^/]+)(?:\/|$)/;

const HIDE_FRAMEWORKS = fileURLToPath(new URL("../support/hide-frameworks.mjs", import.meta.url));

/** Runs a script in a child Node in dist/; resolves with its stdout as JSON. */
async function runInDist(code: string, options: { hideFrameworks?: boolean; commonjs?: boolean } = {}) {
  const args = [
    ...(options.hideFrameworks === true ? ["--import", HIDE_FRAMEWORKS] : []),
    `--input-type=${options.commonjs === true ? "commonjs" : "module"}`,
    "-e",
    code,
  ];
  const run = await runToEnd(process.execPath, args, { cwd: dist, env: cliEnv(), timeoutMs: 30_000, what: "node" });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

const SESSION = `
  const add = defineTool({ name: "add", description: "Adds", execute: async ({ a, b }) => String(a + b),
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } });
  const session = createAgentSession({ registry: createToolRegistry({ custom: [add] }) });`;

describe("toolwire/langchain, built", () => {
  it("exports exactly the values of its API module, the same objects", async () => {
    const result = await runInDist(`
      const gate = await import("./frameworks/langchain/index.js");
      const api = await import("./frameworks/langchain/api.js");
      const differing = Object.keys(api).filter((name) => gate[name] !== api[name]);
      console.log(JSON.stringify({ gate: Object.keys(gate).sort(), api: Object.keys(api).sort(), differing }));`);
    expect(result.gate).toEqual(result.api);
    expect(result.differing).toEqual([]);
  });

  it("works through require, its tool answering a LangChain ToolCall", async () => {
    const result = await runInDist(
      `const { createAgentSession, createToolRegistry, defineTool } = require("./index.js");
      const { toLangChainTools } = require("toolwire/langchain");
      ${SESSION}
      const [tool] = toLangChainTools(session);
      tool.invoke({ id: "call_1", name: "add", args: { a: 2, b: 3 }, type: "tool_call" }).then((message) =>
        console.log(JSON.stringify({ content: message.content, status: message.status, id: message.tool_call_id })));`,
      { commonjs: true },
    );
    expect(result).toEqual({ content: "5", status: "success", id: "call_1" });
  });

  it("throws missing-peer-dependency naming @langchain/core when it is not installed", async () => {
    const result = await runInDist(
      `try { await import("./frameworks/langchain/index.js"); console.log(JSON.stringify({ loaded: true })); }
      catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, packages: error.packages, message: error.message })); }`,
      { hideFrameworks: true },
    );
    expect(result).toEqual({
      name: "MissingPeerDependencyError",
      code: "missing-peer-dependency",
      packages: ["@langchain/core"],
      message: "toolwire/langchain needs @langchain/core: npm install @langchain/core",
    });
  });
});

describe("toolwire/pi, built", () => {
  it("loads and runs a session tool as pi would, with pi not installed", async () => {
    const result = await runInDist(
      `const { createAgentSession, createToolRegistry, defineTool } = await import("./index.js");
      const { toPiTools } = await import("./frameworks/pi/index.js");
      ${SESSION}
      const [tool] = toPiTools(session);
      console.log(JSON.stringify(await tool.execute("call_1", { a: 2, b: 3 })));`,
      { hideFrameworks: true },
    );
    expect(result).toEqual({ content: [{ type: "text", text: "5" }] });
  });

  it("works through require", async () => {
    const result = await runInDist(
      `const { fromPiTools, toPiTools } = require("./frameworks/pi/index.js");
      console.log(JSON.stringify({ fromPiTools: typeof fromPiTools, toPiTools: typeof toPiTools }));`,
      { commonjs: true },
    );
    expect(result).toEqual({ fromPiTools: "function", toPiTools: "function" });
  });
});

describe("the root entry", () => {
  it("loads and dispatches with the frameworks not installed", async () => {
    const result = await runInDist(
      `const { createAgentSession, createToolRegistry, defineTool } = await import("./index.js");
      ${SESSION}
      console.log(JSON.stringify(await session.dispatch({ id: "t1", name: "add", input: { a: 2, b: 3 } })));`,
      { hideFrameworks: true },
    );
    expect(result).toMatchObject({ tool_use_id: "t1", content: [{ type: "text", text: "5" }] });
  });

  it("declares nothing of the frameworks, however deep its declaration files go", () => {
    const seen = new Set<string>();
    const leaks: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(
        /(?:from\s+|import\()\s*["']([^"']+)["']/g,
      )) {
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".d.ts")));
        else if (FRAMEWORKS.test(specifier)) leaks.push(`${file.slice(dist.length + 1)} imports ${specifier}`);
      }
    };
    visit(join(dist, "index.d.ts"));
    expect(seen.size).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  });
});
