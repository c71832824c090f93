import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NginxBalancer, nginxAvailable, startNginxBalancer } from "./nginx.js";

// CI installs nginx (.ci/run): there these tests must run, and fail when it is missing.
const runs = nginxAvailable() !== undefined || process.env.CI === "true";
const title = "nginx as a round-robin balancer";

/** An upstream that answers its own name and what it was sent; `/sse` sends one event and holds the stream open. */
async function upstream(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((request: IncomingMessage, response) => {
    if (request.url === "/sse") {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(`data: ${name}\n\n`);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        name,
        url: request.url,
        host: request.headers.host,
        authorization: request.headers.authorization,
        origin: request.headers.origin,
        sessionId: request.headers["mcp-session-id"],
        protocolVersion: request.headers["mcp-protocol-version"],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.skipIf(!runs)(runs ? title : `${title} (skipped: nginx is not installed)`, () => {
  let a: { server: Server; port: number };
  let b: { server: Server; port: number };
  let nginx: NginxBalancer;

  beforeAll(async () => {
    [a, b] = await Promise.all([upstream("a"), upstream("b")]);
    nginx = await startNginxBalancer([a.port, b.port]);
  });

  afterAll(async () => {
    await nginx?.stop();
    for (const { server } of [a, b]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  it("alternates requests between the upstreams, even on one connection with one session id and cookie", async () => {
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${nginx.url}/mcp`, {
        method: "POST",
        headers: { "mcp-session-id": "same-session", cookie: "sticky=1", "content-type": "application/json" },
        body: "{}",
      });
      names.push(((await response.json()) as { name: string }).name);
    }
    expect(names.filter((name) => name === "a")).toHaveLength(3);
    for (let i = 1; i < names.length; i++) expect(names[i]).not.toBe(names[i - 1]);
  });

  it("passes Host as the client sent it, and Authorization, Origin and Mcp-* headers, through", async () => {
    const response = await fetch(`${nginx.url}/mcp?x=1`, {
      headers: {
        authorization: "Bearer token-1",
        origin: "http://localhost:3000",
        "mcp-session-id": "s-1",
        "mcp-protocol-version": "2025-11-25",
      },
    });
    expect(await response.json()).toMatchObject({
      url: "/mcp?x=1",
      host: `127.0.0.1:${nginx.port}`,
      authorization: "Bearer token-1",
      origin: "http://localhost:3000",
      sessionId: "s-1",
      protocolVersion: "2025-11-25",
    });
  });

  it("passes an SSE event on as soon as the upstream writes it, the stream still open", async () => {
    const abort = new AbortController();
    const response = await fetch(`${nginx.url}/sse`, { signal: abort.signal });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const first = await Promise.race([
      reader.read(),
      new Promise<"buffered">((resolve) => setTimeout(() => resolve("buffered"), 2_000).unref()),
    ]);
    expect(first).not.toBe("buffered");
    expect(new TextDecoder().decode((first as { value: Uint8Array }).value)).toMatch(/^data: [ab]\n\n$/);
    abort.abort();
  });

  it("with proxyPath, passes on only that path", async () => {
    const scoped = await startNginxBalancer([a.port], { proxyPath: "/mcp" });
    try {
      expect(((await (await fetch(`${scoped.url}/mcp`)).json()) as { name: string }).name).toBe("a");
      expect((await fetch(`${scoped.url}/elsewhere`)).status).toBe(404);
    } finally {
      await scoped.stop();
    }
  });

  it("stops its master by pid, closes the port and removes its folder, without waiting for an open SSE stream", async () => {
    const own = await startNginxBalancer([a.port]);
    try {
      // nginx rewrites its command line; its open error log says where its folder is.
      const log = readdirSync(`/proc/${own.pid}/fd`)
        .map((fd) => readlinkSync(`/proc/${own.pid}/fd/${fd}`))
        .find((target) => target.endsWith("/error.log"))!;
      const folder = log.slice(0, -"error.log".length);
      expect(readFileSync(`${folder}nginx.pid`, "utf8").trim()).toBe(String(own.pid));
      const stream = await fetch(`${own.url}/sse`);
      await stream.body!.getReader().read();
      const started = performance.now();
      await own.stop();
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(alive(own.pid)).toBe(false);
      expect(await refuses(own.port)).toBe(true);
      expect(() => readFileSync(`${folder}nginx.conf`)).toThrow(/ENOENT/);
    } finally {
      await own.stop();
    }
  });

  it("rejects with the end of nginx's error log when nginx refuses its config", async () => {
    await expect(startNginxBalancer([a.port], { proxyPath: "/x {" })).rejects.toThrow(
      /nginx did not start: nginx exited \(code 1\)[\s\S]*error\.log:[\s\S]*emerg/,
    );
  });
});
