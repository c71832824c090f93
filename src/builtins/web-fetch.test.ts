import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/support/free-port.js";
import { textOf } from "../../test/support/session.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { AgentTool, JsonObject, ToolResult } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";
import { createBuiltinTools } from "./create-builtin-tools.js";
import { createWebFetchTool, type WebFetchDetails } from "./web-fetch.js";
import type { WebFetchOptions } from "./web-fetch-options.js";

const HTML =
  '<html><head><title>T</title></head><body><h1>Docs</h1><p>Some <b>bold</b> text and <a href="/x">a link</a>.</p></body></html>';

const SLOW_UNIT =
  '<div><p>Some <b>bold</b> and <a href="/x">link</a> text in a paragraph.</p><ul><li>one</li><li>two</li></ul></div>';

/** Requests the server saw, newest last, with their headers and bodies. */
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
const open = new Set<ServerResponse>();
let server: Server;
let port: number;
let base: string;

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? "/", "http://x");
  switch (url.pathname) {
    case "/page.html":
      return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(HTML);
    case "/slow-to-convert.html":
      // About 450 KB of ordinary markup that node-html-markdown needs over a minute for (measured: 70 s).
      return void res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<html><body>${SLOW_UNIT.repeat(4000)}</body></html>`);
    case "/deep.html":
      return void res
        .writeHead(200, { "content-type": "text/html" })
        .end(`${"<div>".repeat(50_000)}deep${"</div>".repeat(50_000)}`);
    case "/notes.txt":
      return void res.writeHead(200, { "content-type": "text/plain" }).end("plain notes\n");
    case "/data.json":
      return void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    case "/latin1":
      return void res
        .writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    case "/big": {
      const big = "a".repeat(3 * 1024 * 1024);
      return void res.writeHead(200, { "content-type": "text/plain", "content-length": big.length }).end(big);
    }
    case "/gzip":
      return void res
        .writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" })
        .end(gzipSync("z".repeat(1024 * 1024)));
    case "/drip": {
      res.writeHead(200, { "content-type": "text/plain" });
      open.add(res);
      const timer = setInterval(() => res.write("."), 100);
      res.on("close", () => clearInterval(timer));
      return;
    }
    case "/binary":
      return void res
        .writeHead(200, { "content-type": "application/octet-stream" })
        .end(Buffer.from([0, 1, 2, 0xff, 0, 3]));
    case "/untyped-binary":
      return void res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    case "/missing":
      return void res.writeHead(404, { "content-type": "text/plain" }).end("no such page");
    case "/redirect":
      return void res
        .writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/" })
        .end();
    case "/echo":
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ method: req.method, body }));
    default: {
      const hop = /^\/loop\/(\d+)$/.exec(url.pathname);
      if (hop !== null) return void res.writeHead(302, { location: `/loop/${Number(hop[1]) + 1}` }).end();
      return void res.writeHead(404).end();
    }
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      route(req, res, body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** web_fetch allowed to reach the test server by its address, and only that. */
function loopbackTool(options: Partial<WebFetchOptions> = {}): AgentTool {
  return createWebFetchTool({ allowHosts: ["127.0.0.1"], ...options });
}

async function call(tool: AgentTool, input: JsonObject, signal = new AbortController().signal) {
  const result = (await tool.execute(input, {
    toolCallId: "c1",
    signal,
    onUpdate() {},
  })) as ToolResult<WebFetchDetails>;
  const block = result.content[0];
  return { result, text: block?.type === "text" ? block.text : "", details: result.details as WebFetchDetails };
}

describe("web_fetch: what it is", () => {
  it("is untrusted, owned by core, effects none for GET and external with POST", () => {
    const get = loopbackTool().descriptor;
    expect(get).toMatchObject({ name: "web_fetch", owner: { kind: "core" }, trust: "untrusted", effects: "none" });
    expect(get.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(get.inputSchema.properties as object)).toEqual(["url"]);
    const post = loopbackTool({ allowPost: true }).descriptor;
    expect(post).toMatchObject({ trust: "untrusted", effects: "external" });
  });

  it("is not among the built-ins unless web options are given, and comes last when they are", () => {
    const root = process.cwd();
    expect(createBuiltinTools({ root, sandbox: "off" }).map((tool) => tool.descriptor.name)).not.toContain("web_fetch");
    const names = createBuiltinTools({ root, sandbox: "off", web: { allowHosts: ["docs.example.com"] } }).map(
      (tool) => tool.descriptor.name,
    );
    expect(names.at(-1)).toBe("web_fetch");
  });

  it("refuses options it cannot use with invalid-option naming the field", () => {
    const bad: unknown[] = [
      {},
      { allowHosts: "docs.example.com" },
      { allowHosts: ["http://docs.example.com/"] },
      { allowHosts: [], maxBytes: 0 },
      { allowHosts: [], timeoutMs: -1 },
      { allowHosts: [], maxRedirects: 1.5 },
      { allowHosts: [], timeoutMs: 2 ** 31 },
      { allowHosts: [], allowPost: "yes" },
    ];
    for (const options of bad) {
      expect(() => createWebFetchTool(options as WebFetchOptions), JSON.stringify(options)).toThrow(BuiltinToolsError);
    }
    expect(() => createWebFetchTool({ allowHosts: [], maxBytes: 0 })).toThrow(/web\.maxBytes/);
  });
});

describe("web_fetch: hosts and addresses", () => {
  it("fetches from a host allowHosts lists by its loopback address", async () => {
    const { result, text, details } = await call(loopbackTool(), { url: `${base}/notes.txt` });
    expect(result.isError).toBeUndefined();
    expect(text).toContain("plain notes");
    expect(text.split("\n")[0]).toBe(`200 OK from ${base}/notes.txt (text/plain, 12 B).`);
    expect(details).toMatchObject({
      status: 200,
      contentType: "text/plain",
      bytes: 12,
      truncated: false,
      form: "text",
    });
  });

  it("refuses loopback by default even when allowHosts names the host (allowPrivateAddresses is off)", async () => {
    const before = seen.length;
    const { details, text } = await call(createWebFetchTool({ allowHosts: ["localhost"] }), {
      url: `http://localhost:${port}/notes.txt`,
    });
    expect(details.code).toBe("address-not-allowed");
    expect(text).toContain("localhost resolves to");
    expect(text).toContain("loopback");
    expect(seen.length).toBe(before);
  });

  it("with allowPrivateAddresses, a name resolving to loopback is fetched", async () => {
    const tool = createWebFetchTool({ allowHosts: ["localhost"], allowPrivateAddresses: true });
    const { text, details } = await call(tool, { url: `http://localhost:${port}/notes.txt` });
    expect(details.status).toBe(200);
    expect(text).toContain("plain notes");
  });

  it("refuses a host allowHosts does not list, naming the host and the setting", async () => {
    const before = seen.length;
    const { result, text, details } = await call(loopbackTool(), { url: `http://docs.example.com:${port}/` });
    expect(result.isError).toBe(true);
    expect(details.code).toBe("host-not-allowed");
    expect(text).toContain("docs.example.com is not in web_fetch's allowHosts (127.0.0.1)");
    expect(seen.length).toBe(before);
  });

  it("refuses a name that resolves to loopback, checked on the resolved address (a resolver standing in for DNS)", async () => {
    const asked: string[] = [];
    const tool = createWebFetchTool({
      allowHosts: ["docs.example.com"],
      lookupHost: async (hostname) => {
        asked.push(hostname);
        return ["127.0.0.1"];
      },
    });
    const before = seen.length;
    const { details, text } = await call(tool, { url: `http://docs.example.com:${port}/notes.txt` });
    expect(asked).toEqual(["docs.example.com"]);
    expect(details.code).toBe("address-not-allowed");
    expect(text).toContain("docs.example.com resolves to 127.0.0.1");
    expect(seen.length).toBe(before);
  });

  it("connects only to the addresses that passed when a name resolves to both kinds", async () => {
    // The metadata address stays refused; with private addresses allowed, 127.0.0.1 passes and answers.
    const tool = createWebFetchTool({
      allowHosts: ["docs.example.com"],
      allowPrivateAddresses: true,
      lookupHost: async () => ["169.254.169.254", "127.0.0.1"],
    });
    const { details } = await call(tool, { url: `http://docs.example.com:${port}/notes.txt` });
    expect(details.status).toBe(200);
  });

  it("refuses the metadata address even with allowPrivateAddresses, in IPv4-mapped form too", async () => {
    const tool = createWebFetchTool({
      allowHosts: ["metadata.internal"],
      allowPrivateAddresses: true,
      lookupHost: async () => ["::ffff:169.254.169.254"],
    });
    const { details, text } = await call(tool, { url: "http://metadata.internal/latest/meta-data/" });
    expect(details.code).toBe("address-not-allowed");
    expect(text).toContain("cloud metadata");
    expect(text).toContain("169.254.169.254");
  });

  it("says fetch-failed when a name does not resolve or nothing listens", async () => {
    const unresolved = createWebFetchTool({
      allowHosts: ["docs.example.com"],
      lookupHost: async () => {
        throw Object.assign(new Error("no such host"), { code: "ENOTFOUND" });
      },
    });
    const missing = await call(unresolved, { url: "http://docs.example.com/" });
    expect(missing.details.code).toBe("fetch-failed");
    expect(missing.text).toContain("could not find the host docs.example.com (ENOTFOUND)");
    const closed = await freePort();
    const refused = await call(loopbackTool(), { url: `http://127.0.0.1:${closed}/` });
    expect(refused.details.code).toBe("fetch-failed");
    expect(refused.text).toContain("the connection was refused");
  });

  it("refuses URLs that are not http(s) and URLs carrying credentials", async () => {
    const tool = loopbackTool();
    for (const url of [
      "file:///etc/passwd",
      "ftp://127.0.0.1/",
      "not a url",
      `http://user:secret@127.0.0.1:${port}/`,
    ]) {
      const { details, text } = await call(tool, { url });
      expect(details.code, url).toBe("invalid-url");
      expect(text).not.toContain("secret");
    }
  });
});

describe("web_fetch: redirects", () => {
  it("follows a redirect to an allowed host and reports the hops", async () => {
    const to = `${base}/notes.txt`;
    const { text, details } = await call(loopbackTool(), { url: `${base}/redirect?to=${encodeURIComponent(to)}` });
    expect(details).toMatchObject({ status: 200, finalUrl: to, redirects: [{ status: 302 }] });
    expect(text).toContain("Redirected:");
  });

  it("refuses a redirect to a host allowHosts does not list, before connecting to it", async () => {
    const to = `http://evil.example:${port}/notes.txt`;
    const { details, text } = await call(loopbackTool(), { url: `${base}/redirect?to=${encodeURIComponent(to)}` });
    expect(details.code).toBe("host-not-allowed");
    expect(text).toContain("evil.example");
    expect(text).toContain("reached by a redirect from");
  });

  it("refuses a redirect to an allowed name that resolves to a loopback address allowHosts does not list", async () => {
    const tool = createWebFetchTool({
      allowHosts: ["127.0.0.1", "docs.example.com"],
      lookupHost: async () => ["127.0.0.2"],
    });
    const to = `http://docs.example.com:${port}/notes.txt`;
    const { details } = await call(tool, { url: `${base}/redirect?to=${encodeURIComponent(to)}` });
    expect(details.code).toBe("address-not-allowed");
  });

  it("stops a chain longer than maxRedirects with too-many-redirects", async () => {
    const { details, text } = await call(loopbackTool({ maxRedirects: 3 }), { url: `${base}/loop/0` });
    expect(details.code).toBe("too-many-redirects");
    expect(text).toContain("at most 3 redirects");
    expect(seen.filter((request) => request.url.startsWith("/loop/")).at(-1)?.url).toBe("/loop/3");
  });

  it("refuses a redirect to another scheme", async () => {
    const { details } = await call(loopbackTool(), {
      url: `${base}/redirect?to=${encodeURIComponent("file:///etc/passwd")}`,
    });
    expect(details.code).toBe("invalid-url");
  });
});

describe("web_fetch: caps", { timeout: 20_000 }, () => {
  it("cuts an oversized answer at maxBytes and tells the model", async () => {
    const { text, details } = await call(loopbackTool({ maxBytes: 1000 }), { url: `${base}/big` });
    expect(details).toMatchObject({ bytes: 1000, truncated: true });
    expect(text).toContain("Cut at 1000 B of 3.0 MB: the rest was not read.");
    expect(text.endsWith("a".repeat(1000))).toBe(true);
  });

  it("counts decompressed bytes when the server compresses anyway", async () => {
    const { details } = await call(loopbackTool({ maxBytes: 4096 }), { url: `${base}/gzip` });
    expect(details).toMatchObject({ bytes: 4096, truncated: true, status: 200 });
  });

  it("gives up on a slow drip at timeoutMs with fetch-timeout", async () => {
    const started = performance.now();
    const { details, text } = await call(loopbackTool({ timeoutMs: 600 }), { url: `${base}/drip` });
    expect(details.code).toBe("fetch-timeout");
    expect(text).toContain("after 600 ms");
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("stops when the call is aborted, rejecting with the abort's reason", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 200);
    await expect(call(loopbackTool(), { url: `${base}/drip` }, controller.signal)).rejects.toThrow("stop");
  });
});

describe("web_fetch: content", { timeout: 20_000 }, () => {
  it("turns HTML into Markdown", async () => {
    const { text, details } = await call(loopbackTool(), { url: `${base}/page.html` });
    expect(details.form).toBe("markdown");
    expect(text).toContain("shown as Markdown");
    expect(text).toContain("# Docs");
    expect(text).toContain("**bold**");
    expect(text).not.toContain("<p>");
  });

  it("converts in a worker: HTML too slow to convert comes back as it came when the time is up, the process free meanwhile", async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = performance.now();
    try {
      const { text, details } = await call(loopbackTool({ timeoutMs: 2000 }), { url: `${base}/slow-to-convert.html` });
      expect(details.form).toBe("html");
      expect(text).toContain("turning it into Markdown took longer than the");
      expect(text).toContain("<p>Some <b>bold</b>");
    } finally {
      clearInterval(ticker);
    }
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(ticks).toBeGreaterThan(5);
  });

  it("shows HTML nested too deeply to convert as it came, saying why", async () => {
    const { text, details } = await call(loopbackTool(), { url: `${base}/deep.html` });
    expect(details.form).toBe("html");
    expect(text).toContain("turning it into Markdown failed");
  });

  it("passes JSON as text, and decodes a declared charset", async () => {
    expect((await call(loopbackTool(), { url: `${base}/data.json` })).text).toContain('{"ok":true}');
    expect((await call(loopbackTool(), { url: `${base}/latin1` })).text).toContain("café");
  });

  it("describes binary content by type and size instead of dumping it", async () => {
    const typed = await call(loopbackTool(), { url: `${base}/binary` });
    expect(typed.details.form).toBe("none");
    expect(typed.text).toContain("application/octet-stream (6 B read), not text: it is not shown.");
    const untyped = await call(loopbackTool(), { url: `${base}/untyped-binary` });
    expect(untyped.details.form).toBe("none");
    expect(untyped.text).not.toContain("PNG");
  });

  it("reports an HTTP error status as an error result with the page", async () => {
    const { result, text, details } = await call(loopbackTool(), { url: `${base}/missing` });
    expect(result.isError).toBe(true);
    expect(details.status).toBe(404);
    expect(text).toContain("no such page");
  });
});

describe("web_fetch: requests", () => {
  it("sends a fixed User-Agent and nothing of this process: no cookie, no authorization", async () => {
    await call(loopbackTool(), { url: `${base}/echo` });
    const headers = seen.at(-1)?.headers ?? {};
    expect(headers["user-agent"]).toMatch(/^toolwire-web-fetch\//);
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });

  it("refuses POST by default: the schema has no method, and the executor refuses it too", async () => {
    const tool = loopbackTool();
    const session = createAgentSession({ registry: createToolRegistry({ custom: [tool] }) });
    const before = seen.length;
    const refused = await session.dispatch({
      id: "p1",
      name: "web_fetch",
      input: { url: `${base}/echo`, method: "POST", body: "x" },
    });
    expect(refused.is_error).toBe(true);
    expect(textOf(refused)).toContain("method");
    session.close();
    const direct = await call(tool, { url: `${base}/echo`, method: "POST", body: "x" });
    expect(direct.details.code).toBe("method-not-allowed");
    expect(seen.length).toBe(before);
  });

  it("sends a POST body when allowPost is on, and turns a 303 into a GET", async () => {
    const tool = loopbackTool({ allowPost: true });
    const { text } = await call(tool, {
      url: `${base}/echo`,
      method: "POST",
      body: '{"q":1}',
      contentType: "application/json",
    });
    expect(JSON.parse(text.split("\n\n")[1] as string)).toEqual({ method: "POST", body: '{"q":1}' });
    expect(seen.at(-1)?.headers["content-type"]).toBe("application/json");
    const redirected = await call(tool, {
      url: `${base}/redirect?status=303&to=${encodeURIComponent("/echo")}`,
      method: "POST",
      body: "x",
    });
    expect(JSON.parse(redirected.text.split("\n\n")[1] as string)).toEqual({ method: "GET", body: "" });
  });
});
