// `toolwire inspect` and `toolwire serve --inspect` as a user runs them: the URL on stderr, the config's plan on the
// page's stream, a call made by hand from the page, each MCP principal's session and calls, and a clean stop.

import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { builtInspectorPage } from "./helpers/build.js";
import {
  CAN_RUN_IN_TERMINAL,
  cliEnv,
  type RunningCli,
  spawnInTerminal,
  startCli,
  tempWorkspace,
} from "./helpers/cli.js";
import { snapshotOf } from "./helpers/inspector-snapshot.js";

const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:(\d+)\/[A-Za-z0-9_-]+\/)$/m;

builtInspectorPage();

let cli: RunningCli | undefined;
afterEach(async () => {
  await cli?.stop("SIGKILL");
  cli = undefined;
});

describe("toolwire inspect", () => {
  it("serves the config's plan, calls a tool by hand from the page, and exits 0 on SIGTERM", async () => {
    const folder = await tempWorkspace({ "notes.md": "inspected by hand\n" });
    try {
      cli = startCli(["inspect"], { cwd: folder.path, env: cliEnv() });
      const [, url = "", port] = await cli.waitForStderr(URL_LINE);
      // The URL comes first (the page is up while the config loads); the session joins once it is open.
      await cli.waitForStderr(/the page follows the config's session/);
      const snapshot = await snapshotOf(url);
      expect(snapshot.canCall).toBe(true);
      expect(snapshot.sessions[0]?.plan?.visible.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["read", "ls", "bash"]),
      );
      const answer = await fetch(`${url}calls`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
        body: JSON.stringify({ sessionId: snapshot.sessions[0]?.id, name: "read", input: { path: "notes.md" } }),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { content: { text: string } }).content.text).toContain("inspected by hand");
      const after = await snapshotOf(url);
      expect(after.calls.map((call) => [call.toolName, call.status])).toEqual([["read", "ok"]]);
      expect(await cli.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    } finally {
      await folder.remove();
    }
  });
});

describe("toolwire serve --http --inspect", () => {
  it("follows each principal's session and its calls beside the config's plan", async () => {
    const folder = await tempWorkspace({ "a.txt": "served and inspected\n" });
    const token = "inspect-serve-token-0123456789";
    try {
      cli = startCli(["serve", "--http", "0", "--inspect"], {
        cwd: folder.path,
        env: cliEnv({ TOOLWIRE_SERVE_TOKEN: token }),
      });
      const [, url = ""] = await cli.waitForStderr(URL_LINE);
      const mcpUrl = (await cli.waitForStderr(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] as string;
      expect((await snapshotOf(url)).sessions.map((session) => session.label)).toEqual(["config"]);
      const client = new Client({ name: "inspect-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(mcpUrl), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      try {
        await client.callTool({ name: "read", arguments: { path: "a.txt" } });
      } finally {
        await client.close();
      }
      const snapshot = await snapshotOf(url);
      const principal = snapshot.sessions.find((session) => session.label === "default");
      expect(principal).toBeDefined();
      expect(snapshot.calls.map((call) => [call.sessionId, call.toolName, call.status])).toEqual([
        [principal?.id, "read", "ok"],
      ]);
      expect(await cli.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    } finally {
      await folder.remove();
    }
  });
});

describe.skipIf(!CAN_RUN_IN_TERMINAL)("toolwire run --inspect on a terminal", () => {
  it("asks on the terminal and on the page at once: the first answer counts, the other question is withdrawn", async () => {
    const turns = {
      turns: [
        {
          toolCalls: [
            { id: "c1", name: "write", input: { path: "one.txt", content: "1\n" } },
            { id: "c2", name: "write", input: { path: "two.txt", content: "2\n" } },
          ],
        },
        { text: "done" },
      ],
    };
    const folder = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ approvals: { require: ["write"] } }),
      "turns.json": JSON.stringify(turns),
    });
    const child = spawnInTerminal(["run", "--inspect", "--model", "scripted:turns.json", "write both"], {
      cwd: folder.path,
    });
    let screen = "";
    const shown = (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${pattern}; screen so far:\n${screen}`)), 15_000);
        const check = () => {
          const match = pattern.exec(screen.replaceAll("\r", ""));
          if (match === null) return;
          clearTimeout(timer);
          child.stdout.off("data", check);
          resolve(match);
        };
        child.stdout.on("data", check);
        check();
      });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      screen += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    try {
      const [, url = "", port] = await shown(URL_LINE);
      // The first question: answered on the page, withdrawn from the terminal.
      await shown(/approve\?.* write \{"path":"one\.txt"/);
      const { approvals } = await snapshotOf(url);
      const answer = await fetch(`${url}approvals/${approvals[0]?.approvalId}`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
        body: JSON.stringify({ approve: true }),
      });
      expect(answer.status).toBe(200);
      await shown(/withdrawn: answered elsewhere/);
      // The second: answered on the terminal, gone from the page.
      await shown(/approve\?.* write \{"path":"two\.txt"/);
      child.stdin.write("n not that one\r");
      await shown(/the page stays open at .* until Ctrl-C/);
      expect((await snapshotOf(url)).approvals).toEqual([]);
      expect(await readFile(join(folder.path, "one.txt"), "utf8")).toBe("1\n");
      expect(existsSync(join(folder.path, "two.txt"))).toBe(false);
      child.stdin.write("\u0003"); // Ctrl-C ends the page
      expect(await closed).toBe(0);
    } finally {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, "SIGKILL");
      await folder.remove();
    }
  });
});
