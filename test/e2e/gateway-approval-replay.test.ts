// A 2026-07-28 client approves one call; the captured retry (the same tools/call with its signed requestState and
// the answer) is sent again and again: it never runs the tool a second time. In one `toolwire serve` process after
// the principal's session was released for idleness; and across two replicas behind nginx sharing one redis-server
// as `approvals.store`, through either replica, before and after the release, and after a replica restarted.
import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NginxBalancer, nginxAvailable, startNginxBalancer } from "../support/nginx.js";
import { type RedisServer, redisServerAvailable, startRedis } from "../support/redis.js";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";
import { serveUrlOf } from "./helpers/serve-url.js";

const NGINX = nginxAvailable();
const REDIS = redisServerAvailable();
const MUST_RUN = process.env.CI === "true";
const REPLICAS_RUN = (NGINX !== undefined && REDIS !== undefined) || MUST_RUN;
if (!REPLICAS_RUN) console.warn("skipping the replicated approval replay test: nginx or redis-server is not installed");

const TOKEN = "replay-token-0123456789abcdef";
const SECRET = "replay-approvals-secret-0123456789abcdef";
// Released after 200 ms without a request; the gateway looks every second.
const IDLE_TIMEOUT_MS = 200;
const RELEASED_AFTER_MS = 3_000;

// Each run of deploy appends a line to $RUNS_FILE: the count of real executions.
const PLUGIN = `import { appendFileSync } from "node:fs";
export default {
  id: "replay",
  tools: (ctx) => [
    ctx.defineTool({
      name: "deploy",
      description: "Needs a person's approval.",
      inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
      execute: ({ env }) => {
        appendFileSync(process.env.RUNS_FILE, env + "\\n");
        return "deployed " + env;
      },
    }),
  ],
};
`;

/** The project folder: the plugin and a config whose approvals use `store` (none: in memory). */
async function project(store?: string) {
  return tempWorkspace({
    "plugins/replay.mjs": PLUGIN,
    "toolwire.config.json": JSON.stringify({
      builtins: { enabled: false },
      plugins: [{ module: "./plugins/replay.mjs" }],
      approvals: {
        require: ["deploy"],
        secretEnv: "REPLAY_APPROVALS_SECRET",
        ...(store === undefined ? {} : { store }),
      },
      serve: {
        auth: { tokens: [{ token: "env:REPLAY_TOKEN", principal: "alice" }] },
        allowedHosts: ["127.0.0.1"],
        sessions: { idleTimeoutMs: IDLE_TIMEOUT_MS },
      },
    }),
  });
}

/** A `toolwire serve --http <port>` process and the port it listens on. */
interface Replica {
  readonly child: ChildProcess;
  readonly port: number;
}

async function startReplica(cwd: string, port = 0, env: Record<string, string> = {}): Promise<Replica> {
  const child = spawn(process.execPath, [CLI, "serve", "--http", String(port)], {
    cwd,
    env: cliEnv({
      REPLAY_TOKEN: TOKEN,
      REPLAY_APPROVALS_SECRET: SECRET,
      RUNS_FILE: join(cwd, "runs.txt"),
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await serveUrlOf(child);
  return { child, port: Number(new URL(url).port) };
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  const child = replica?.child;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** A request as sent over HTTP, to send again as is. */
interface CapturedRequest {
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Calls deploy through `url` as a 2026-07-28 client that accepts the approval question, and returns the result and
 * the retry it sent (the tools/call carrying requestState and the answer).
 */
async function approveOnce(url: string): Promise<{ text: string; retry: CapturedRequest }> {
  const sent: CapturedRequest[] = [];
  const mcp = new ModernClient(
    { name: "replay", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: {} } },
  );
  mcp.setRequestHandler("elicitation/create", async () => ({ action: "accept" }));
  await mcp.connect(
    new ModernHttpTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      fetch: (input, init) => {
        if (typeof init?.body === "string") {
          sent.push({ headers: Object.fromEntries(new Headers(init.headers).entries()), body: init.body });
        }
        return fetch(input, init);
      },
    }),
  );
  try {
    const result = await mcp.callTool({ name: "deploy", arguments: { env: "prod" } });
    const retry = sent.find((request) => request.body.includes('"requestState"'));
    if (retry === undefined) throw new Error("the client sent no retry with a requestState");
    return { text: textOf(result), retry };
  } finally {
    await mcp.close();
  }
}

/** Sends the captured retry again, as a raw JSON-RPC POST to `url`; resolves with the result's text and isError. */
async function replay(url: string, retry: CapturedRequest): Promise<{ text: string; isError: boolean }> {
  const response = await fetch(url, { method: "POST", headers: retry.headers, body: retry.body });
  const raw = await response.text();
  expect(response.status, raw).toBe(200);
  // JSON, or one server-sent event whose data is the JSON-RPC answer.
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? (/^data: (.*)$/m.exec(raw)?.[1] ?? "")
    : raw;
  const answer = JSON.parse(json) as { result?: { content?: unknown; isError?: boolean } };
  return { text: textOf(answer.result), isError: answer.result?.isError === true };
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] } | undefined)?.content ?? [];
  return content.map((block) => block.text ?? "").join("");
}

async function runsIn(folder: string): Promise<number> {
  const text = await readFile(join(folder, "runs.txt"), "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "").length;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a replay must answer: refused as already decided, and not run. */
const ALREADY_USED =
  /^Approval [0-9a-f-]+ \(tool deploy\) was already decided; a decision applies once\. It was not run again\.$/;

describe("toolwire serve, one process (approvals in memory)", () => {
  let folder: { path: string; remove(): Promise<void> };
  let replica: Replica | undefined;
  beforeAll(async () => {
    folder = await project();
    replica = await startReplica(folder.path);
  }, 30_000);
  afterAll(async () => {
    await stopReplica(replica);
    await folder?.remove();
  });

  it("a replayed approval stays used after the principal's session was released for idleness", async () => {
    const url = `http://127.0.0.1:${replica?.port}/mcp`;
    const { text, retry } = await approveOnce(url);
    expect(text).toBe("deployed prod");
    expect(await runsIn(folder.path)).toBe(1);
    expect(await replay(url, retry)).toEqual({ text: expect.stringMatching(ALREADY_USED), isError: true });
    await sleep(RELEASED_AFTER_MS);
    expect(await replay(url, retry)).toEqual({ text: expect.stringMatching(ALREADY_USED), isError: true });
    expect(await runsIn(folder.path)).toBe(1);
  }, 30_000);
});

describe.runIf(REPLICAS_RUN)("toolwire serve, two replicas behind nginx sharing a redis-server", () => {
  let folder: { path: string; remove(): Promise<void> };
  let redis: RedisServer | undefined;
  const replicas: (Replica | undefined)[] = [];
  let balancer: NginxBalancer | undefined;
  beforeAll(async () => {
    redis = await startRedis();
    // The address through env:NAME, as a deployment would keep a password out of the file.
    folder = await project("env:REPLAY_REDIS");
    const env = { REPLAY_REDIS: redis.url };
    replicas.push(...(await Promise.all([startReplica(folder.path, 0, env), startReplica(folder.path, 0, env)])));
    balancer = await startNginxBalancer(replicas.map((replica) => replica?.port ?? 0));
  }, 60_000);
  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(replicas.map(stopReplica));
    await redis?.stop();
    await folder?.remove();
  });

  it("a captured retry never runs the tool again: through either replica, after the release, after a restart", async () => {
    const direct = (index: number) => `http://127.0.0.1:${replicas[index]?.port}/mcp`;
    const through = `${balancer?.url}/mcp`;
    const refused = { text: expect.stringMatching(ALREADY_USED), isError: true };
    const { text, retry } = await approveOnce(through);
    expect(text).toBe("deployed prod");
    expect(await runsIn(folder.path)).toBe(1);

    // While the principal's sessions live: each replica, and the balancer (which takes turns).
    for (const url of [direct(0), direct(1), through, through]) expect(await replay(url, retry)).toEqual(refused);

    // Once both replicas released the principal's session for idleness.
    await sleep(RELEASED_AFTER_MS);
    expect(await replay(direct(0), retry)).toEqual(refused);
    expect(await replay(direct(1), retry)).toEqual(refused);

    // After a restart of the first replica, on the same port behind the balancer.
    const port = replicas[0]?.port ?? 0;
    await stopReplica(replicas[0]);
    replicas[0] = await startReplica(folder.path, port, { REPLAY_REDIS: redis?.url ?? "" });
    expect(await replay(direct(0), retry)).toEqual(refused);
    for (const url of [through, through]) expect(await replay(url, retry)).toEqual(refused);

    expect(await runsIn(folder.path)).toBe(1);
  }, 60_000);
});
