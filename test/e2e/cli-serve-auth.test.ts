// toolwire serve --http with the config's serve section: tokens from the environment, a principal per token with its
// policy, the token in TOOLWIRE_SERVE_TOKEN, the audit file, and plan showing each principal's tools.
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

const OPS = "ops-token-0123456789abcdef";
const CI = "ci-token-0123456789abcdef";
const SHARED = "shared-token-0123456789abcdef";
let project: { path: string; remove(): Promise<void> };
const children: ChildProcess[] = [];

beforeAll(async () => {
  project = await tempWorkspace({
    "notes.md": "# Notes\n",
    "toolwire.config.json": JSON.stringify({
      serve: {
        auth: {
          tokens: [
            { token: "env:OPS_TOKEN", principal: "ops" },
            { token: "env:CI_TOKEN", principal: "ci", policy: [{ label: "ci", allow: ["read", "ls"] }] },
          ],
        },
        audit: { file: "audit.jsonl" },
      },
    }),
  });
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await project.remove();
});

async function startServe(env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
    cwd: project.path,
    env: cliEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined && stderr.includes("protected resource metadata at")) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = () => {
    child.kill("SIGTERM");
    return exited;
  };
  return { url, stderr: () => stderr, stop };
}

async function toolsOf(url: string, token: string) {
  const client = new ModernClient({ name: "t", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(
    new ModernHttpTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const read = await client.callTool({ name: "read", arguments: { path: "notes.md" } });
    return { names, read };
  } finally {
    await client.close();
  }
}

describe("toolwire serve with serve.auth in the config", { timeout: 60_000 }, () => {
  it("serves each token's principal its own tools, takes TOOLWIRE_SERVE_TOKEN too, and audits every call", async () => {
    const served = await startServe({ OPS_TOKEN: OPS, CI_TOKEN: CI, TOOLWIRE_SERVE_TOKEN: SHARED });
    expect(served.stderr()).toContain("auth: bearer tokens for ops, ci, default");
    expect(served.stderr()).not.toContain(OPS);
    expect(served.stderr()).not.toContain("shown once");
    const ops = await toolsOf(served.url, OPS);
    expect(ops.names.sort()).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
    const ci = await toolsOf(served.url, CI);
    expect(ci.names.sort()).toEqual(["ls", "read"]);
    expect(ci.read.isError).toBeFalsy();
    const shared = await toolsOf(served.url, SHARED);
    expect(shared.names).toHaveLength(7);
    expect(await served.stop()).toBe(0);
    const audit = (await readFile(join(project.path, "audit.jsonl"), "utf8")).trim().split("\n");
    expect(audit.map((line) => (JSON.parse(line) as { principal: string }).principal)).toEqual([
      "ops",
      "ci",
      "default",
    ]);
  });

  it("stops with exit code 3, naming the variable, when a token's variable is unset", async () => {
    const { code, stderr } = await runCli(["serve", "--http", "0"], {
      cwd: project.path,
      env: cliEnv({ OPS_TOKEN: OPS }),
    });
    expect(code).toBe(3);
    expect(stderr).toContain("CI_TOKEN");
  });

  it("plan shows the tools of each principal", async () => {
    const { code, stdout } = await runCli(["plan", "--json"], { cwd: project.path });
    expect(code).toBe(0);
    const plan = JSON.parse(stdout) as { principals: { principal: string; tools: string[] }[] };
    expect(plan.principals).toEqual([
      { principal: "ops", tools: ["bash", "edit", "find", "grep", "ls", "read", "write"], removed: [] },
      {
        principal: "ci",
        tools: ["ls", "read"],
        removed: expect.arrayContaining(["bash", "edit", "find", "grep", "write"]),
      },
    ]);
    const table = await runCli(["plan"], { cwd: project.path, env: cliEnv({ NO_COLOR: "1" }) });
    expect(table.stdout).toContain("Per principal (toolwire serve --http)");
  });
});
