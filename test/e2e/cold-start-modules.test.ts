// What a cold start loads (docs/benchmarks.md, "Cold start"): importing toolwire loads no other package, ajv comes with
// the first schema compiled and yaml with the first skill read; `toolwire serve` over stdio answers tools/list without
// the HTTP gateway, its auth and OAuth, the inspector, or the libraries only a tool call needs.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToEnd } from "../support/run-to-end.js";
import { builtScript } from "./helpers/build.js";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";

const RECORDER = fileURLToPath(new URL("../support/record-loaded-modules.mjs", import.meta.url));
const ROOT = builtScript("dist/index.js");

/** The package a module URL belongs to (`ajv`, `@hono/node-server`), or undefined for toolwire's own and Node's. */
function packageOf(url: string): string | undefined {
  const at = url.lastIndexOf("/node_modules/");
  if (at === -1) return undefined;
  const [scope, name] = url.slice(at + "/node_modules/".length).split("/");
  return scope?.startsWith("@") ? `${scope}/${name}` : scope;
}

let folder: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempWorkspace({
    "skills/notes/SKILL.md": "---\nname: notes\ndescription: Keeps notes.\n---\nWrite them down.\n",
  });
});
afterAll(() => folder.remove());

describe("importing toolwire", () => {
  it("loads no other package; ajv and ajv-formats load with the first schema compiled, yaml with the first skill", async () => {
    const log = join(folder.path, "import.log");
    const code = `
      const packages = () => [...new Set(globalThis.loadedModules().map((url) => {
        const at = url.lastIndexOf("/node_modules/");
        if (at === -1) return undefined;
        const [scope, name] = url.slice(at + 14).split("/");
        return scope.startsWith("@") ? scope + "/" + name : scope;
      }).filter((name) => name !== undefined))].sort();
      const seen = {};
      const toolwire = await import(${JSON.stringify(pathToFileURL(ROOT).href)});
      seen.imported = packages();
      const add = toolwire.defineTool({ name: "add", description: "Adds", execute: ({ a, b }) => String(a + b),
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } });
      const session = toolwire.createAgentSession({ registry: toolwire.createToolRegistry({ custom: [add] }) });
      const result = await session.dispatch({ id: "t1", name: "add", input: { a: 2, b: "3" } });
      seen.dispatched = packages();
      seen.refusal = result.content[0].text;
      const { loadSkills } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "..", "skills", "index.js")).href)});
      const skills = await loadSkills([${JSON.stringify(join(folder.path, "skills"))}]);
      seen.skills = skills.skills.map((skill) => skill.name);
      seen.skillsRead = packages();
      console.log(JSON.stringify(seen));`;
    const run = await runToEnd(process.execPath, ["--import", RECORDER, "--input-type=module", "-e", code], {
      env: cliEnv({ TOOLWIRE_MODULE_LOG: log }),
      timeoutMs: 20_000,
      what: "node importing toolwire",
    });
    expect(run.stderr).toBe("");
    const seen = JSON.parse(run.stdout);
    expect(seen.imported).toEqual([]);
    // The call was validated (ajv's refusal), so ajv ran; no skill was read yet.
    expect(seen.refusal).toContain("input.b");
    expect(seen.dispatched).toEqual(expect.arrayContaining(["ajv", "ajv-formats"]));
    expect(seen.dispatched).not.toContain("yaml");
    expect(seen.skills).toEqual(["notes"]);
    expect(seen.skillsRead).toContain("yaml");
  });
});

describe("toolwire serve over stdio", () => {
  it("answers its first tools/list without the HTTP gateway, auth, OAuth, the inspector or a call's libraries", async () => {
    const log = join(folder.path, "serve.log");
    const server = spawn(process.execPath, ["--import", RECORDER, CLI, "serve"], {
      cwd: folder.path,
      env: cliEnv({ TOOLWIRE_MODULE_LOG: log }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    const send = (message: object) => server.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    const tools = await new Promise<string[]>((resolve, reject) => {
      let buffer = "";
      server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
          const message = JSON.parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 1);
          if (message.id === 1) {
            send({ method: "notifications/initialized" });
            send({ id: 2, method: "tools/list" });
          } else if (message.id === 2) {
            resolve(message.result.tools.map((tool: { name: string }) => tool.name).sort());
          }
        }
      });
      exited.then((code) => reject(new Error(`serve exited with ${code} before its tools/list`)));
      send({
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      });
    });
    expect(tools).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
    server.stdin.end();
    expect(await exited).toBe(0);

    const loaded = (await readFile(log, "utf8")).split("\n").filter((line) => line !== "");
    const packages = new Set(loaded.map(packageOf).filter((name) => name !== undefined));
    for (const name of [
      "jose",
      "hono",
      "@hono/node-server",
      "@modelcontextprotocol/node",
      "re2js",
      "diff",
      "ajv",
      "yaml",
    ])
      expect(packages, name).not.toContain(name);
    const own = loaded.filter((url) => packageOf(url) === undefined && url.startsWith("file:"));
    // Named by file, wherever the layers put them: the gateway's HTTP server, its auth and audit log, MCP OAuth, the
    // inspector, and the sandbox's launch (bash's first sandboxed command loads it).
    const unwanted =
      /\/(serve-http|authenticate|verify-access-token|audit-log|prepare-sandbox-launch)\.js$|\/(oauth|inspector)\//;
    expect(own.filter((url) => unwanted.test(url))).toEqual([]);
  });
});
