// List caching (2026-07-28): serve puts ttlMs and cacheScope on its listings, and the bridge does not list again
// within a listing's ttlMs unless list_changed arrives.
import { afterEach, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, serveMcp } from "../../src/mcp/api.js";
import { startRecordingProxy } from "../support/recording-proxy.js";
import { modernMeta } from "./helpers/modern-meta.js";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function tool(name: string) {
  return defineTool({
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: {} },
    execute: () => name,
  });
}

function sessionOf(...names: string[]) {
  return createAgentSession({ registry: createToolRegistry({ custom: names.map(tool) }) });
}

/** A real serve over HTTP, a recording proxy in front of it, and the bridge connected through the proxy. */
async function bridged(session: ReturnType<typeof sessionOf>, listTtlMs?: number) {
  const handle = await serveMcp(session, {
    transport: "http",
    port: 0,
    ...(listTtlMs === undefined ? {} : { listTtlMs }),
  });
  cleanups.push(() => handle.close());
  const proxy = await startRecordingProxy(handle.url as string);
  cleanups.push(() => proxy.close());
  const connection = await connectMcpServer({ id: "up", url: proxy.url, protocol: "2026-07-28" });
  cleanups.push(() => connection.close());
  return { connection, proxy, url: handle.url as string };
}

/** A raw 2026-07-28 tools/list, answered as JSON. */
async function rawList(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: modernMeta(),
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: Record<string, unknown> }).result;
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("serve's listings", () => {
  it("carry ttlMs 60000 by default, and public cacheScope when one session serves every caller", async () => {
    const handle = await serveMcp(sessionOf("a"), { transport: "http", port: 0 });
    cleanups.push(() => handle.close());
    expect(await rawList(handle.url as string)).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
  });

  it("carry the configured listTtlMs, and private cacheScope when each principal has its own session", async () => {
    const handle = await serveMcp(() => sessionOf("a"), { transport: "http", port: 0, listTtlMs: 5_000 });
    cleanups.push(() => handle.close());
    expect(await rawList(handle.url as string)).toMatchObject({ ttlMs: 5_000, cacheScope: "private" });
  });

  it("carry the cacheScope asked for", async () => {
    const handle = await serveMcp(sessionOf("a"), { transport: "http", port: 0, listCacheScope: "private" });
    cleanups.push(() => handle.close());
    expect(await rawList(handle.url as string)).toMatchObject({ cacheScope: "private" });
  });

  it("refuses a listTtlMs that is not a whole number of milliseconds, and an unknown listCacheScope", async () => {
    for (const bad of [-1, 1.5, Number.NaN, "60000"]) {
      await expect(
        serveMcp(sessionOf("a"), { transport: "http", port: 0, listTtlMs: bad as number }),
      ).rejects.toMatchObject({ code: "invalid-serve-options" });
    }
    await expect(
      serveMcp(sessionOf("a"), { transport: "stdio", listCacheScope: "shared" as "public" }),
    ).rejects.toMatchObject({ code: "invalid-serve-options", message: expect.stringContaining("listCacheScope") });
  });
});

describe("the bridge's listing cache", () => {
  it("does not list again within the listing's ttlMs", async () => {
    const { connection, proxy } = await bridged(sessionOf("a"));
    expect(proxy.calls("tools/list")).toHaveLength(1);
    expect(await connection.refreshTools()).toBe(false);
    expect(await connection.refreshTools()).toBe(false);
    expect(proxy.calls("tools/list")).toHaveLength(1);
  });

  it("lists again when list_changed arrives within the ttlMs", async () => {
    const session = sessionOf("a", "b");
    session.setActiveToolsByName(["a"]);
    const { connection, proxy } = await bridged(session);
    expect(connection.tools.map((entry) => entry.descriptor.name)).toEqual(["up__a"]);
    session.setActiveToolsByName(["a", "b"]);
    await until(() => connection.tools.length === 2, "the relist after list_changed");
    expect(proxy.calls("tools/list")).toHaveLength(2);
  });

  it("lists again once the ttlMs has passed", async () => {
    const { connection, proxy } = await bridged(sessionOf("a"), 200);
    expect(await connection.refreshTools()).toBe(false);
    expect(proxy.calls("tools/list")).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await connection.refreshTools();
    expect(proxy.calls("tools/list")).toHaveLength(2);
  });

  it("lists every time a server sends ttlMs 0", async () => {
    const { connection, proxy } = await bridged(sessionOf("a"), 0);
    await connection.refreshTools();
    await connection.refreshTools();
    expect(proxy.calls("tools/list")).toHaveLength(3);
  });
});
