// Two `toolwire serve` processes behind nginx (round-robin, no stickiness) serve 2026-07-28 clients as one:
// listing, calls spread over both, an approval asked by one replica and finished by the other, and 401s.
import { type ChildProcess, spawn } from "node:child_process";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NginxBalancer, nginxAvailable, startNginxBalancer } from "../support/nginx.js";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";
import { serveUrlOf } from "./helpers/serve-url.js";

const NGINX = nginxAvailable();
const MUST_RUN = process.env.CI === "true";
if (NGINX === undefined && !MUST_RUN) console.warn("skipping the nginx scale-out test: nginx is not installed");

const TOKEN = "scale-out-token-0123456789";
const SECRET = "scale-out-approvals-secret-0123456789abcdef";
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

const PLUGIN = `export default {
  id: "replica",
  tools: (ctx) => [
    ctx.defineTool({
      name: "which_replica",
      description: "The process id of the replica that answered.",
      inputSchema: { type: "object", properties: {} },
      execute: () => String(process.pid),
    }),
    ctx.defineTool({
      name: "deploy",
      description: "Needs a person's approval.",
      inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
      execute: ({ env }) => "deployed " + env + " by " + process.pid,
    }),
  ],
};
`;

let project: { path: string; remove(): Promise<void> };
const replicas: ChildProcess[] = [];
let balancer: NginxBalancer | undefined;

beforeAll(async () => {
  if (NGINX === undefined && !MUST_RUN) return;
  project = await tempWorkspace({
    "plugins/replica.mjs": PLUGIN,
    "toolwire.config.json": JSON.stringify({
      builtins: { enabled: false },
      plugins: [{ module: "./plugins/replica.mjs" }],
      approvals: { require: ["deploy"], secretEnv: "SCALE_APPROVALS_SECRET" },
      serve: {
        auth: { tokens: [{ token: "env:SCALE_TOKEN", principal: "alice" }] },
        // The balancer passes the Host the client used: its own address.
        allowedHosts: ["127.0.0.1"],
      },
    }),
  });
  const ports = await Promise.all([startReplica(), startReplica()]);
  balancer = await startNginxBalancer(ports);
}, 60_000);

afterAll(async () => {
  await balancer?.stop();
  for (const replica of replicas) replica.kill("SIGTERM");
  await Promise.all(
    replicas.map((replica) =>
      replica.exitCode === null && replica.signalCode === null
        ? new Promise((resolve) => replica.once("exit", resolve))
        : undefined,
    ),
  );
  await project?.remove();
});

async function startReplica(): Promise<number> {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
    cwd: project.path,
    env: cliEnv({ SCALE_TOKEN: TOKEN, SCALE_APPROVALS_SECRET: SECRET }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  replicas.push(child);
  const url = await serveUrlOf(child);
  return Number(new URL(url).port);
}

async function client(answer?: "accept" | "decline") {
  const mcp = new ModernClient(
    { name: "scale-out", version: "1" },
    { ...MODERN, ...(answer === undefined ? {} : { capabilities: { elicitation: {} } }) },
  );
  if (answer !== undefined) mcp.setRequestHandler("elicitation/create", async () => ({ action: answer }));
  await mcp.connect(
    new ModernHttpTransport(new URL(`${balancer?.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  return mcp;
}

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("");
}

describe.skipIf(NGINX === undefined && !MUST_RUN)("toolwire serve behind nginx, two replicas", () => {
  it("lists the same tools and spreads calls over both replicas, with no sticky routing", async () => {
    const mcp = await client();
    try {
      expect((await mcp.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["deploy", "which_replica"]);
      const answered = new Set<string>();
      for (let index = 0; index < 10; index++) {
        const result = await mcp.callTool({ name: "which_replica", arguments: {} });
        expect(result.isError).toBeFalsy();
        answered.add(text(result));
      }
      expect(answered).toEqual(new Set(replicas.map((replica) => String(replica.pid))));
    } finally {
      await mcp.close();
    }
  });

  it("finishes an approval on whichever replica gets the retry (the replicas share approvals.secretEnv)", async () => {
    for (let round = 0; round < 3; round++) {
      const mcp = await client("accept");
      try {
        const result = await mcp.callTool({ name: "deploy", arguments: { env: "prod" } });
        expect(text(result)).toMatch(/^deployed prod by \d+$/);
      } finally {
        await mcp.close();
      }
    }
    const declining = await client("decline");
    try {
      const result = await declining.callTool({ name: "deploy", arguments: { env: "prod" } });
      expect(result.isError).toBe(true);
    } finally {
      await declining.close();
    }
  });

  it("answers 401 through the balancer without a token, whichever replica answers", async () => {
    for (let index = 0; index < 4; index++) {
      const response = await fetch(`${balancer?.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{}",
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    }
  });
});
