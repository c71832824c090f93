// toolwire serve as an MCP gateway: the official SDK client over Streamable HTTP and stdio, upstream MCP servers included.
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli, tempWorkspace, writeFiles } from "./helpers/cli.js";
import { EXIT_AT_START_SOURCE, fakeServerSource } from "./helpers/mcp-servers.js";

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({
    "a.txt": "served through MCP\n",
    "servers/up.mjs": fakeServerSource("pong"),
    "servers/dead.mjs": EXIT_AT_START_SOURCE,
  });
  await writeFiles(project.path, {
    "toolwire.config.json": JSON.stringify({
      policy: [{ label: "no-shell", deny: ["group:runtime"] }],
      mcpServers: [
        { id: "up", command: process.execPath, args: [`${project.path}/servers/up.mjs`] },
        { id: "dead", command: process.execPath, args: [`${project.path}/servers/dead.mjs`] },
      ],
    }),
  });
});
afterAll(() => project.remove());

const TOOLS = ["edit", "find", "grep", "ls", "read", "up__ping", "write"];

describe("toolwire plan with MCP servers in the config", () => {
  it("lists the upstream server's tools as mcp-owned and the server that failed as a problem", async () => {
    const { code, stdout } = await runCli(["plan", "--json"], { cwd: project.path });
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.visible.map((tool: { name: string }) => tool.name).sort()).toEqual(TOOLS);
    expect(plan.visible.find((tool: { name: string }) => tool.name === "up__ping").owner).toEqual({
      kind: "mcp",
      serverId: "up",
    });
    expect(plan.problems).toEqual([{ area: "mcp", subject: "dead", message: expect.stringContaining("dead") }]);
  });
});

describe("toolwire serve --http", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  it("prints its URL on stderr, serves the tools to the SDK client, and exits 0 on SIGTERM", async () => {
    const server = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
      cwd: project.path,
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = server;
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    let stderr = "";
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        // the URL line, then one line per problem (written separately: wait for both)
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
        if (found?.[1] !== undefined && /toolwire serve: mcp dead: .*\n/.test(stderr)) resolve(found[1]);
      });
      exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
    });
    expect(stderr).toContain("toolwire serve: 7 tools (");
    // Nothing configured: serve made a token and printed it once; without it a request gets 401.
    const token = /token \(shown once\): (\S+)\n/.exec(stderr)?.[1] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stderr.split(token)).toHaveLength(2);
    const anonymous = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(anonymous.status).toBe(401);

    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      const read = await client.callTool({ name: "read", arguments: { path: "a.txt" } });
      expect(read.isError).toBeFalsy();
      expect(read.content).toEqual([{ type: "text", text: "     1\tserved through MCP" }]);
      const ping = await client.callTool({ name: "up__ping", arguments: {} });
      expect(ping.content).toEqual([{ type: "text", text: "pong" }]);
      const refused = await client.callTool({ name: "read", arguments: { path: "../x" } });
      expect(refused.isError).toBe(true);
      const removed = await client.callTool({ name: "bash", arguments: { command: "echo hi" } });
      expect(removed.isError).toBe(true);
    } finally {
      await client.close();
    }
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

describe("toolwire serve --no-auth", () => {
  it("is refused on a host that is not loopback, before anything starts", async () => {
    const { code, stderr } = await runCli(["serve", "--http", "0", "--host", "0.0.0.0", "--no-auth"], {
      cwd: project.path,
    });
    expect(code).toBe(2);
    expect(stderr).toContain("--no-auth is refused on 0.0.0.0");
  });
});

describe.concurrent("toolwire serve --stdio", { timeout: 60_000 }, () => {
  it("exits 0 when its client goes away (stdin ends)", async () => {
    const { code, stdout, stderr } = await runCli(["serve"], { cwd: project.path });
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain("toolwire serve: 7 tools (");
  });

  it("serves the SDK client that spawns it, over stdin/stdout", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--stdio"],
      cwd: project.path,
      env: cliEnv(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const client = new Client({ name: "cli-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
      const read = await client.callTool({ name: "read", arguments: { path: "a.txt" } });
      expect(read.content).toEqual([{ type: "text", text: "     1\tserved through MCP" }]);
    } finally {
      await client.close();
    }
    expect(stderr).toContain("on stdio"); // people's messages go to stderr; stdout is the protocol's
  });
});
