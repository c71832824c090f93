// The gateway's rules (docs/serve.md) against the real HTTP server: credentials, origins, a session per
// principal, session caps and expiry, rate limits and the audit log, with 2026-07-28 and 2025 clients.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { PolicyLayer } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { type McpServerHandle, type ServeMcpHttpOptions, serveMcp } from "../../src/mcp/api.js";
import type { Principal } from "../../src/mcp/server/gateway/authenticate.js";
import { FIFO_RUNS, makeFifo, readFifo } from "../support/fifo.js";
import { freePort } from "../support/free-port.js";
import { modernMeta } from "./helpers/modern-meta.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;
const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef";

/** Each principal's own session over `echo`, `counter` (state kept per session) and `bash` (a stand-in). */
function sessionSource(made: Principal[] = []) {
  return (principal: Principal) => {
    made.push(principal);
    let count = 0;
    const tools = [
      defineTool({
        name: "echo",
        description: "Echoes text",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        execute: ({ text }) => String(text),
      }),
      defineTool({
        name: "counter",
        description: "Counts the calls of this session",
        inputSchema: { type: "object", properties: {} },
        execute: () => String(++count),
      }),
      defineTool({
        name: "bash",
        description: "Pretends to run a command",
        inputSchema: { type: "object", properties: { command: { type: "string" } } },
        execute: () => "ran",
      }),
    ];
    return createAgentSession({
      registry: createToolRegistry({ custom: tools, policy: [...principal.policy] as PolicyLayer[] }),
    });
  };
}

async function serve(options: Partial<ServeMcpHttpOptions> = {}, made: Principal[] = []): Promise<McpServerHandle> {
  const handle = await serveMcp(sessionSource(made), {
    transport: "http",
    port: 0,
    auth: {
      tokens: [
        { token: ALICE, principal: "alice" },
        { token: BOB, principal: "bob", policy: [{ label: "bob", deny: ["bash"] }] },
      ],
    },
    ...options,
  });
  cleanups.push(() => handle.close());
  return handle;
}

async function modernClient(url: string, token: string | undefined) {
  const client = new ModernClient({ name: "t", version: "1" }, MODERN);
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new ModernHttpTransport(new URL(url), { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

async function legacyClient(url: string, token: string) {
  const client = new LegacyClient({ name: "t", version: "1" });
  const transport = new LegacyHttpTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

/** A raw POST; a 2026-07-28 request gets the headers that era requires (its version, Mcp-Method, Mcp-Name). */
function post(url: string, headers: Record<string, string>, body: unknown = listRequest()) {
  const { method, params } = body as { method?: string; params?: { name?: string } };
  const modern: Record<string, string> =
    method === undefined || method === "initialize" || headers["mcp-session-id"] !== undefined
      ? {}
      : {
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(params?.name === undefined ? {} : { "mcp-name": params.name }),
        };
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...modern,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

function listRequest(id = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: {
      _meta: modernMeta(),
    },
  };
}

function callRequest(id: number, name: string, args: Record<string, unknown> = {}) {
  const list = listRequest(id);
  return { ...list, method: "tools/call", params: { ...list.params, name, arguments: args } };
}

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? "").join("");
}

describe("credentials", () => {
  it("answers 401 with a Bearer challenge naming the resource metadata, and serves that metadata", async () => {
    const handle = await serve();
    for (const authorization of [undefined, "Bearer wrong-token", "Basic YWxpY2U6eA==", `Bearer ${ALICE}x`]) {
      const response = await post(handle.url as string, authorization === undefined ? {} : { authorization });
      expect(response.status).toBe(401);
      const challenge = response.headers.get("www-authenticate") ?? "";
      expect(challenge).toMatch(/^Bearer /);
      expect(challenge).toContain(`resource_metadata="${handle.resourceMetadataUrl}"`);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).not.toContain(ALICE);
    }
    const metadata = await fetch(handle.resourceMetadataUrl as string);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: handle.url });
  });

  it("lets a configured token in, for a 2026-07-28 client and a 2025 client", async () => {
    const handle = await serve();
    const modern = await modernClient(handle.url as string, ALICE);
    expect(text(await modern.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
    const { client } = await legacyClient(handle.url as string, ALICE);
    expect(text(await client.callTool({ name: "echo", arguments: { text: "old" } }))).toBe("old");
  });

  it("checks OAuth access tokens: signature, issuer, audience (the server's resource URL), expiry and scopes", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const other = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
    const issuer = "https://issuer.test";
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const handle = await serve({
      port,
      auth: { oauth: { issuer, jwks: { keys: [jwk] }, scopes: ["tools"] } },
    });
    expect(handle.url).toBe(url);
    const sign = (
      claims: Record<string, unknown>,
      options: { key?: typeof privateKey; aud?: string; iss?: string; exp?: string; typ?: string } = {},
    ) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: "k1", typ: options.typ ?? "at+jwt" })
        .setSubject("carol")
        .setIssuer(options.iss ?? issuer)
        .setAudience(options.aud ?? url)
        .setIssuedAt()
        .setExpirationTime(options.exp ?? "5m")
        .sign(options.key ?? privateKey);
    const good = await sign({ scope: "tools other" });
    const ok = await modernClient(url, good);
    expect(text(await ok.callTool({ name: "echo", arguments: { text: "jwt" } }))).toBe("jwt");
    const refused = {
      "wrong key": await sign({ scope: "tools" }, { key: other.privateKey }),
      "wrong issuer": await sign({ scope: "tools" }, { iss: "https://evil.test" }),
      "wrong audience": await sign({ scope: "tools" }, { aud: "http://127.0.0.1:1/mcp" }),
      expired: await sign({ scope: "tools" }, { exp: "-1m" }),
      "typed JWT, not at+jwt": await sign({ scope: "tools" }, { typ: "JWT" }),
    };
    for (const [why, token] of Object.entries(refused)) {
      const response = await post(url, { authorization: `Bearer ${token}` });
      expect(response.status, why).toBe(401);
    }
    const noScope = await post(url, { authorization: `Bearer ${await sign({ scope: "other" })}` });
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });

  it("answers 431 to huge headers and goes on serving", async () => {
    const handle = await serve();
    const { request } = await import("node:http");
    const url = new URL(handle.url as string);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: "/mcp",
          method: "POST",
          headers: { authorization: `Bearer ${"x".repeat(20_000)}`, "content-type": "application/json" },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(431);
    const client = await modernClient(handle.url as string, ALICE);
    expect(text(await client.callTool({ name: "echo", arguments: { text: "still" } }))).toBe("still");
  });

  it("on 0.0.0.0, names the resource metadata at the address the client used", async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && address.family === "IPv4" && !address.internal)?.address;
    const handle = await serve({ host: "0.0.0.0" });
    const hosts = [`127.0.0.1:${handle.port}`, ...(external === undefined ? [] : [`${external}:${handle.port}`])];
    for (const host of hosts) {
      const response = await post(`http://${host}/mcp`, {});
      expect(response.status).toBe(401);
      const metadataUrl = `http://${host}/.well-known/oauth-protected-resource/mcp`;
      expect(response.headers.get("www-authenticate")).toContain(`resource_metadata="${metadataUrl}"`);
      expect(await (await fetch(metadataUrl)).json()).toMatchObject({ resource: `http://${host}/mcp` });
    }
    await expect(
      serveMcp(sessionSource(), {
        transport: "http",
        port: 0,
        host: "0.0.0.0",
        auth: { oauth: { issuer: "https://issuer.test", jwks: { keys: [] } } },
      }),
    ).rejects.toMatchObject({ code: "invalid-serve-options", message: expect.stringContaining("publicUrl") });
  });

  it("refuses to serve a host that is not loopback without auth", async () => {
    await expect(serveMcp(sessionSource(), { transport: "http", port: 0, host: "0.0.0.0" })).rejects.toMatchObject({
      code: "invalid-serve-options",
    });
  });
});

describe("origins and hosts", () => {
  it("refuses an Origin that is not listed and a Host that is not this server, before any credential check", async () => {
    const handle = await serve({ allowedOrigins: ["http://app.example"] });
    const evil = await post(handle.url as string, { authorization: `Bearer ${ALICE}`, origin: "http://evil.example" });
    expect(evil.status).toBe(403);
    const listed = await post(handle.url as string, { authorization: `Bearer ${ALICE}`, origin: "http://app.example" });
    expect(listed.status).toBe(200);
    const rebinding = await new Promise<number>((resolve, reject) => {
      import("node:http").then(({ request }) => {
        const url = new URL(handle.url as string);
        const req = request(
          { host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { host: "evil.example" } },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end("{}");
      }, reject);
    });
    expect(rebinding).toBe(403);
  });
});

describe("a session per principal", () => {
  it("gives each principal its own tools (its token's policy) and its own state", async () => {
    const made: Principal[] = [];
    const handle = await serve({}, made);
    const alice = await modernClient(handle.url as string, ALICE);
    const bob = await modernClient(handle.url as string, BOB);
    expect((await alice.listTools()).tools.map((tool) => tool.name)).toEqual(["bash", "counter", "echo"]);
    expect((await bob.listTools()).tools.map((tool) => tool.name)).toEqual(["counter", "echo"]);
    expect(text(await alice.callTool({ name: "counter", arguments: {} }))).toBe("1");
    expect(text(await alice.callTool({ name: "counter", arguments: {} }))).toBe("2");
    expect(text(await bob.callTool({ name: "counter", arguments: {} }))).toBe("1");
    const denied = await bob.callTool({ name: "bash", arguments: { command: "id" } });
    expect(denied.isError).toBe(true);
    expect(made.map((principal) => principal.id).sort()).toEqual(["alice", "bob"]);
    expect(handle.principals).toBe(2);
  });

  it("answers another principal's 2025 session id as not found", async () => {
    const handle = await serve();
    const { transport } = await legacyClient(handle.url as string, ALICE);
    const sessionId = transport.sessionId as string;
    const stolen = await post(
      handle.url as string,
      { authorization: `Bearer ${BOB}`, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
      { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} },
    );
    expect(stolen.status).toBe(404);
    const own = await post(
      handle.url as string,
      { authorization: `Bearer ${ALICE}`, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
      { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} },
    );
    expect(own.status).toBe(200);
  });
});

describe("approvals per principal", () => {
  it("refuses one principal's retry of another's paused call: the approval is sealed by its own session", async () => {
    const runs: string[] = [];
    const handle = await serveMcp(
      (principal: Principal) =>
        createAgentSession({
          registry: createToolRegistry({
            custom: [
              defineTool({
                name: "deploy",
                description: "Needs approval",
                inputSchema: { type: "object", properties: {} },
                execute: () => {
                  runs.push(principal.id);
                  return "deployed";
                },
              }),
            ],
          }),
          approvals: { require: ["deploy"] },
        }),
      {
        transport: "http",
        port: 0,
        auth: {
          tokens: [
            { token: ALICE, principal: "alice" },
            { token: BOB, principal: "bob" },
          ],
        },
      },
    );
    cleanups.push(() => handle.close());
    // Alice's client, whose retry of the paused call (it carries the requestState) goes out with Bob's token.
    let calls = 0;
    const swapping: typeof fetch = (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      const headers = new Headers(init?.headers);
      if (body.includes('"tools/call"') && ++calls === 2) headers.set("authorization", `Bearer ${BOB}`);
      return fetch(input, { ...init, headers });
    };
    const client = new ModernClient({ name: "t", version: "1" }, { ...MODERN, capabilities: { elicitation: {} } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept" }));
    await client.connect(
      new ModernHttpTransport(new URL(handle.url as string), {
        requestInit: { headers: { authorization: `Bearer ${ALICE}` } },
        fetch: swapping,
      }),
    );
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: "deploy", arguments: {} });
    expect(calls).toBe(2);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("not valid");
    expect(runs).toEqual([]);
    // Alice's own retry works.
    calls = 10;
    const own = await client.callTool({ name: "deploy", arguments: {} });
    expect(text(own)).toBe("deployed");
    expect(runs).toEqual(["alice"]);
  });
});

describe("session lifecycle and limits", () => {
  it("caps sessions per principal and in all with 429 and Retry-After, and releases one on DELETE", async () => {
    const handle = await serve({ sessions: { maxPerPrincipal: 2, max: 3 } });
    const first = await legacyClient(handle.url as string, ALICE);
    await legacyClient(handle.url as string, ALICE);
    const third = await post(handle.url as string, { authorization: `Bearer ${ALICE}` }, initializeRequest());
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await legacyClient(handle.url as string, BOB);
    const overAll = await post(handle.url as string, { authorization: `Bearer ${BOB}` }, initializeRequest());
    expect(overAll.status).toBe(429);
    expect(handle.sessions).toBe(3);
    await first.transport.terminateSession();
    expect(handle.sessions).toBe(2);
    await legacyClient(handle.url as string, ALICE);
    expect(handle.sessions).toBe(3);
  });

  it("caps one principal at 100 open sessions when no cap is configured, leaving room for the others", async () => {
    const handle = await serve();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 110) {
          next++;
          const response = await post(handle.url as string, { authorization: `Bearer ${ALICE}` }, initializeRequest());
          statuses.push(response.status);
          if (response.status === 429) {
            expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
            expect(await response.text()).toContain(
              "Too many sessions: alice has as many open MCP sessions as allowed",
            );
          } else await response.body?.cancel();
        }
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    expect(handle.sessions).toBe(100);
    await legacyClient(handle.url as string, BOB);
    expect(handle.sessions).toBe(101);
  });

  it("expires idle 2025 sessions and idle principals", async () => {
    // Long enough that a busy machine opens all five before the first expires (200 ms was not, once).
    const handle = await serve({ sessions: { idleTimeoutMs: 2_000 } });
    for (let index = 0; index < 5; index++) {
      const response = await post(handle.url as string, { authorization: `Bearer ${ALICE}` }, initializeRequest());
      expect(response.status).toBe(200);
      await response.body?.cancel();
    }
    expect(handle.sessions).toBe(5);
    await waitFor(() => handle.sessions === 0 && handle.principals === 0, 15_000);
  });

  it("limits tool calls per principal with 429 and Retry-After, while another principal goes on", async () => {
    const handle = await serve({ rateLimit: { callsPerMinute: 3 } });
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await post(
        handle.url as string,
        { authorization: `Bearer ${ALICE}` },
        callRequest(index, "echo", { text: "x" }),
      );
      statuses.push(response.status);
      if (response.status === 429) expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      await response.body?.cancel();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const listing = await post(handle.url as string, { authorization: `Bearer ${ALICE}` });
    expect(listing.status).toBe(200);
    const bob = await post(
      handle.url as string,
      { authorization: `Bearer ${BOB}` },
      callRequest(1, "echo", { text: "y" }),
    );
    expect(bob.status).toBe(200);
  });
});

describe("audit", () => {
  /** A temporary folder for one test's audit log, removed after the test (after the server it serves closes). */
  const auditFolder = async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-audit-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };

  it("writes one JSON line per call with the documented fields and no credential, all of them by the end of close()", async () => {
    const dir = await auditFolder();
    const file = join(dir, "audit.jsonl");
    const handle = await serveMcp(sessionSource(), {
      transport: "http",
      port: 0,
      auth: { tokens: [{ token: ALICE, principal: "alice" }] },
      audit: { file },
    });
    const client = await modernClient(handle.url as string, ALICE);
    for (let index = 0; index < 20; index++) await client.callTool({ name: "echo", arguments: { text: `n${index}` } });
    await client.callTool({ name: "nope", arguments: {} });
    await client.close();
    await handle.close();
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(21);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(entries[0] ?? {}).sort()).toEqual(
      ["durationMs", "inputDigest", "outcome", "principal", "time", "tool", "toolCallId"].sort(),
    );
    expect(entries[0]).toMatchObject({ principal: "alice", tool: "echo", outcome: "ok" });
    expect(entries[20]).toMatchObject({ tool: "nope", outcome: "tool-not-found" });
    expect(lines.join("\n")).not.toContain(ALICE);
    expect(lines.join("\n")).not.toContain("n3");
  });

  it.runIf(FIFO_RUNS)(
    "holds a call's answer while the audit queue is full (whenFull wait), and answers it once a reader drains the FIFO",
    async () => {
      const dir = await auditFolder();
      const fifo = makeFifo(join(dir, "audit.fifo"));
      const handle = await serveMcp(sessionSource(), {
        transport: "http",
        port: 0,
        auth: { tokens: [{ token: ALICE, principal: "alice" }] },
        audit: { file: fifo, maxQueueEntries: 1 },
        onWarning: () => {},
      });
      cleanups.push(() => handle.close({ now: true }));
      const client = await modernClient(handle.url as string, ALICE);
      expect(text(await client.callTool({ name: "echo", arguments: { text: "first" } }))).toBe("first");
      let answered = false;
      const second = client.callTool({ name: "echo", arguments: { text: "second" } }).then((result) => {
        answered = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      const reader = readFifo(fifo, join(dir, "out.jsonl"));
      cleanups.push(async () => reader.stop());
      expect(text(await second)).toBe("second");
    },
  );

  it("writes each call's input too with inputs: true", async () => {
    const dir = await auditFolder();
    const file = join(dir, "audit.jsonl");
    const handle = await serveMcp(sessionSource(), {
      transport: "http",
      port: 0,
      auth: { tokens: [{ token: BOB, principal: "bob" }] },
      audit: { file, inputs: true },
    });
    const client = await modernClient(handle.url as string, BOB);
    await client.callTool({ name: "echo", arguments: { text: "kept" } });
    await client.callTool({ name: "nope", arguments: { command: "id" } });
    await client.close();
    await handle.close();
    const entries = (await readFile(file, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toMatchObject([
      { principal: "bob", tool: "echo", input: { text: "kept" }, outcome: "ok" },
      { principal: "bob", tool: "nope", input: { command: "id" }, outcome: "tool-not-found" },
    ]);
  });
});

function initializeRequest() {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
}

async function waitFor(condition: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
