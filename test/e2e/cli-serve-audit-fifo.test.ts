// toolwire serve with its audit log on a FIFO nobody reads: it serves, and SIGTERM stops it on the audit deadline
// (or at once on a second signal), saying on stderr how many entries were lost.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { FIFO_RUNS, makeFifo } from "../support/fifo.js";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";

const TOKEN = "audit-fifo-test-token";
const PLUGIN = `
export default {
  id: "echo",
  tools: ({ defineTool }) => [
    defineTool({ name: "echo", description: "echo", inputSchema: { type: "object" }, execute: (input) => JSON.stringify(input) }),
  ],
};
`;

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `toolwire serve --http 0` with `audit` in a project whose audit file is a FIFO nobody reads. */
async function serveWithFifo(audit: Record<string, unknown>) {
  const project = await tempWorkspace({
    "plugins/echo.mjs": PLUGIN,
    "toolwire.config.json": JSON.stringify({
      builtins: { enabled: false },
      plugins: [{ module: "./plugins/echo.mjs" }],
      serve: { audit: { file: "audit.fifo", ...audit } },
    }),
  });
  cleanups.push(() => project.remove());
  makeFifo(join(project.path, "audit.fifo"));
  const server: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
    cwd: project.path,
    env: cliEnv({ TOOLWIRE_SERVE_TOKEN: TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  cleanups.push(() => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  });
  const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
  const output = { stderr: "" };
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output.stderr += chunk;
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(output.stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${output.stderr}`)));
  });
  return { server, exited, output, url };
}

async function callEcho(url: string, times: number) {
  const client = new Client({ name: "audit-fifo-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
  );
  for (let n = 0; n < times; n++) {
    const answer = await client.callTool({ name: "echo", arguments: { n } });
    expect(answer.isError).toBeFalsy();
  }
  await client.close();
}

if (!FIFO_RUNS) console.warn("skipping the serve audit FIFO tests: mkfifo is not installed");
describe.runIf(FIFO_RUNS)("toolwire serve with an audit log nobody reads", () => {
  it("serves, and on SIGTERM exits once the audit deadline has passed, saying how many entries were lost", async () => {
    const { server, exited, output, url } = await serveWithFifo({ closeTimeoutMs: 1_000 });
    await callEcho(url, 5);
    const signalled = performance.now();
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    const took = performance.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(20_000);
    expect(output.stderr).toMatch(
      /^toolwire serve: the audit log \S+audit\.fifo lost 5 entries: not written within 1000 ms of closing \(the file took no more data\)$/m,
    );
  }, 60_000);

  it("stops waiting at once on a second signal, and still says how many entries were lost", async () => {
    const { server, exited, output, url } = await serveWithFifo({ closeTimeoutMs: 120_000 });
    await callEcho(url, 3);
    const signalled = performance.now();
    server.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    // Far below the two minutes the first signal alone would have waited.
    expect(performance.now() - signalled).toBeLessThan(30_000);
    expect(output.stderr).toContain("toolwire serve: stopping now (second signal)");
    expect(output.stderr).toMatch(
      /^toolwire serve: the audit log \S+audit\.fifo lost 3 entries: not written when told to stop at once/m,
    );
  }, 60_000);
});
