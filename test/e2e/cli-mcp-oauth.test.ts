// toolwire with an OAuth-protected MCP server: the login URL on stderr, the loopback redirect, stored tokens, logout.
import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";
import { type ProtectedMcpServer, startProtectedMcpServer } from "./helpers/oauth-server.js";

let server: ProtectedMcpServer;
let workspace: { path: string; remove(): Promise<void> };
let tokenDir: string;

beforeAll(async () => {
  server = await startProtectedMcpServer();
  workspace = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({
      builtins: { enabled: false },
      mcpServers: [{ id: "remote", url: server.url, auth: { type: "oauth", authorizationTimeoutMs: 20_000 } }],
    }),
  });
  tokenDir = join(workspace.path, "tokens");
});
afterAll(async () => {
  await server?.close();
  await workspace?.remove();
});

/** Runs the CLI; when it prints a login URL on stderr, "the user" opens it (a fetch: the server approves at once). */
function runCliLoggingIn(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: workspace.path,
      env: cliEnv({ TOOLWIRE_OAUTH_DIR: tokenDir }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let opened = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const url = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr)?.[1];
      if (url !== undefined && !opened) {
        opened = true;
        fetch(url).catch(reject);
      }
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`toolwire ${args.join(" ")} did not exit in time\n${stderr}`));
    }, 40_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("toolwire and an MCP server behind OAuth", () => {
  it("plan prints the login URL on stderr, waits for the redirect, and lists the server's tools", async () => {
    const result = await runCliLoggingIn(["plan", "--json"]);
    expect(result.stderr).toContain("toolwire: MCP server remote needs you to log in. Open this URL in a browser:");
    expect(result.code, result.stderr).toBe(0);
    const plan = JSON.parse(result.stdout) as { visible: { name: string }[]; problems: unknown[] };
    expect(plan.problems).toEqual([]);
    expect(plan.visible.map((tool) => tool.name)).toEqual(["remote__add"]);
    expect(server.logins()).toBe(1);
    // Not a terminal: no browser was tried.
    expect(result.stderr).not.toContain("opened it in your browser");
  });

  it("stores the tokens in a 0600 file and the next command logs in no more", async () => {
    const files = await readdir(tokenDir);
    expect(files).toHaveLength(1);
    expect((await stat(join(tokenDir, files[0] as string))).mode & 0o777).toBe(0o600);
    const result = await runCli(["call", "remote__add", '{"a":2,"b":3}'], {
      cwd: workspace.path,
      env: cliEnv({ TOOLWIRE_OAUTH_DIR: tokenDir }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("5");
    expect(result.stderr).not.toContain("needs you to log in");
    expect(server.logins()).toBe(1);
  });

  it("auth --logout forgets the tokens; auth logs in again ahead of time", async () => {
    const logout = await runCli(["auth", "remote", "--logout"], {
      cwd: workspace.path,
      env: cliEnv({ TOOLWIRE_OAUTH_DIR: tokenDir }),
    });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toMatch(/^MCP server remote: forgot the tokens in .*tokens\//);
    expect(await readdir(tokenDir)).toEqual([]);
    const login = await runCliLoggingIn(["auth", "remote"]);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^MCP server remote: authorized, 1 tools; tokens in /);
    expect(server.logins()).toBe(2);
  });

  it("auth for a server without auth is a usage error naming the servers", async () => {
    const result = await runCli(["auth", "nope"], {
      cwd: workspace.path,
      env: cliEnv({ TOOLWIRE_OAUTH_DIR: tokenDir }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no enabled MCP server nope in the config; there are: remote");
  });
});
