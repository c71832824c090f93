// The object form of mcpServers (Claude Desktop's, keyed by server id): loads as the list form does, faults named by
// key.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseConfig } from "./load-config.js";
import { validateConfig } from "./validate-config.js";

const id = fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/);
const text = fc.string({ maxLength: 8 });
const timeout = fc.integer({ min: 1, max: 2_147_483_647 });
const common = {
  enabled: fc.boolean(),
  include: fc.array(text, { maxLength: 2 }),
  exclude: fc.array(text, { maxLength: 2 }),
  timeoutMs: timeout,
  connectTimeoutMs: timeout,
  protocol: fc.constantFrom("auto", "2025", "2026-07-28"),
};
const variable = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,8}$/);
const stdio = fc.record(
  {
    type: fc.constant("stdio"),
    command: fc.string({ minLength: 1, maxLength: 12 }),
    args: fc.array(text, { maxLength: 3 }),
    env: fc.dictionary(variable, text, { maxKeys: 2 }),
    cwd: fc.string({ minLength: 1, maxLength: 8 }),
    sandbox: fc.constant("off"),
    ...common,
  },
  { requiredKeys: ["command"] },
);
const http = fc.record(
  {
    type: fc.constant("http"),
    url: fc.webUrl().filter((url) => /^https?:\/\//.test(url)),
    headers: fc.dictionary(fc.stringMatching(/^[A-Za-z-]{1,10}$/), text, { maxKeys: 2 }),
    auth: fc.record({ type: fc.constant("bearer"), tokenEnv: variable }),
    ...common,
  },
  { requiredKeys: ["url"] },
);
/** Servers as [id, entry] pairs with distinct ids. */
const servers = fc.uniqueArray(fc.tuple(id, fc.oneof(stdio, http)), { maxLength: 4, selector: ([key]) => key });

const listForm = (pairs: [string, object][]) => ({ mcpServers: pairs.map(([key, entry]) => ({ id: key, ...entry })) });
const objectForm = (pairs: [string, object][]) => ({ mcpServers: Object.fromEntries(pairs) });

describe("mcpServers in object form", () => {
  it("a list config and the equivalent object config load to the same servers", () => {
    fc.assert(
      fc.property(servers, (pairs) => {
        // JSON objects keep their keys' order, except that keys of digits come first: list the pairs that way.
        const ordered = Object.keys(objectForm(pairs).mcpServers).map((key) => pairs.find(([k]) => k === key)) as [
          string,
          object,
        ][];
        const fromList = parseConfig(JSON.stringify(listForm(ordered)));
        const fromObject = parseConfig(JSON.stringify(objectForm(pairs)));
        expect(fromObject).toEqual(fromList);
        expect(fromObject.mcpServers?.map((server) => server.id)).toEqual(ordered.map(([key]) => key));
        // `type` only restates what command or url says: neither form passes it on.
        for (const server of fromObject.mcpServers ?? []) expect(server).not.toHaveProperty("type");
      }),
    );
  });

  it("every fault of an entry is named at its key, as the list form names it at its index", () => {
    const fault = fc.constantFrom<[string, unknown]>(
      ["command", ""],
      ["args", [1]],
      ["env", { A: 1 }],
      ["timeoutMs", 0],
      ["connectTimeoutMs", -1],
      ["protocol", "2024"],
      ["include", "x"],
      ["enabled", "yes"],
      ["sandbox", { maxProcesses: 2 }],
      ["headers", { A: 1 }],
      ["url", "ftp://x"],
      ["auth", { type: "bearer" }],
      ["auth", { type: "client_credentials", clientId: "c" }],
      ["comand", "x"],
    );
    fc.assert(
      fc.property(servers, fc.nat(), fault, (pairs, which, [field, bad]) => {
        fc.pre(pairs.length > 0);
        const index = which % pairs.length;
        const [key, entry] = pairs[index] as [string, object];
        // A stdio field on an HTTP entry (or the reverse) is an unknown property: a fault either way.
        const broken = pairs.map((pair, at) => (at === index ? [key, { ...entry, [field]: bad }] : pair)) as [
          string,
          object,
        ][];
        const fromList = validateConfig(listForm(broken));
        const fromObject = validateConfig(objectForm(broken));
        expect(fromList.length).toBeGreaterThan(0);
        const at = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)
          ? `mcpServers.${key}`
          : /^\d+$/.test(key)
            ? `mcpServers[${key}]`
            : `mcpServers[${JSON.stringify(key)}]`;
        expect(fromObject).toEqual(
          fromList.map((issue) => ({ ...issue, path: issue.path.replace(`mcpServers[${index}]`, at) })),
        );
      }),
    );
  });

  it("an entry's id must equal its key; the message names both", () => {
    expect(validateConfig({ mcpServers: { fs: { id: "fs", command: "x" } } })).toEqual([]);
    expect(validateConfig({ mcpServers: { fs: { id: "files", command: "x" } } })).toEqual([
      {
        path: "mcpServers.fs.id",
        message:
          'is "files" but the entry\'s key is "fs": the key is the server\'s id; drop "id" or make the two the same',
      },
    ]);
  });

  it("a key that is not an id is named, and so is a value that is neither a list nor an object", () => {
    expect(validateConfig({ mcpServers: { "my server": { command: "x" } } })).toEqual([
      {
        path: 'mcpServers["my server"]',
        message: "the name must be an id (letters, digits, _, . and -, 1 to 64 characters)",
      },
    ]);
    expect(validateConfig({ mcpServers: "fs" })).toEqual([
      { path: "mcpServers", message: 'must be a list or an object, got the string "fs"' },
    ]);
  });

  it("the list form still needs an id in each entry", () => {
    expect(validateConfig({ mcpServers: [{ command: "x" }] })).toEqual([
      { path: "mcpServers[0].id", message: "is required (expected an id: letters, digits, _, . and -)" },
    ]);
  });
});

describe("keys other MCP clients write", () => {
  it('type "stdio" and "http" are taken where command or url agrees; "sse" and contradictions are refused', () => {
    expect(
      validateConfig({
        mcpServers: { a: { type: "stdio", command: "x" }, b: { type: "http", url: "https://h.example/mcp" } },
      }),
    ).toEqual([]);
    expect(
      validateConfig({
        mcpServers: {
          s: { type: "sse", url: "https://h.example/sse" },
          h: { type: "http", command: "x" },
          c: { type: "stdio", url: "https://h.example/mcp" },
          w: { type: "websocket", command: "x" },
        },
      }),
    ).toEqual([
      { path: "mcpServers.w.type", message: 'must be one of "stdio", "http", "sse", got the string "websocket"' },
      {
        path: "mcpServers.s.type",
        message:
          'is "sse", the HTTP+SSE transport of MCP 2024-11-05, which toolwire does not speak: if the server also serves Streamable HTTP (its URL often ends in /mcp), write "http" with that URL',
      },
      {
        path: "mcpServers.h.type",
        message: 'is "http", which needs "url" (an http:// or https:// URL); a server started by "command" is "stdio"',
      },
      {
        path: "mcpServers.c.type",
        message: 'is "stdio", which needs "command" and no "url"; a server reached by "url" is "http"',
      },
    ]);
  });

  it("keys toolwire spells another way or lacks say what to write instead, in either form", () => {
    expect(
      validateConfig({
        mcpServers: { fs: { command: "x", disabled: true, envFile: ".env", autoApprove: ["read"] } },
      }),
    ).toEqual([
      { path: "mcpServers.fs.disabled", message: 'unknown property; toolwire writes "enabled": false' },
      {
        path: "mcpServers.fs.envFile",
        message: 'unknown property; toolwire reads no env file: list the variables in "env"',
      },
      {
        path: "mcpServers.fs.autoApprove",
        message:
          'unknown property; toolwire runs tools without asking unless the top-level "approvals.require" names them',
      },
    ]);
    expect(validateConfig({ mcpServers: [{ id: "web", serverUrl: "https://h.example/mcp" }] })).toContainEqual({
      path: "mcpServers[0].serverUrl",
      message: 'unknown property; toolwire names the server\'s Streamable HTTP address "url"',
    });
  });
});

describe("docs/config.md", () => {
  it("its object-form example loads as written", async () => {
    const doc = await readFile(new URL("../../docs/config.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf("## MCP servers keyed by id"));
    const block = /```json\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(parseConfig(block).mcpServers).toEqual([
      { id: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
      { id: "linear", url: "https://mcp.linear.app/mcp", auth: { type: "oauth" } },
    ]);
  });
});

describe("loadConfig says which form it read", () => {
  it("mcpServersForm is object, list, or absent, and the object form's config error names the file and key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-forms-"));
    try {
      const file = join(dir, "toolwire.config.json");
      await writeFile(file, JSON.stringify({ mcpServers: { fs: { command: "node", args: ["server.js"] } } }));
      const loaded = await loadConfig(file);
      expect(loaded.mcpServersForm).toBe("object");
      expect(loaded.config.mcpServers).toEqual([{ id: "fs", command: "node", args: ["server.js"] }]);
      expect(Object.isFrozen(loaded.config.mcpServers?.[0])).toBe(true);
      await writeFile(file, JSON.stringify({ mcpServers: [{ id: "fs", command: "node" }] }));
      expect((await loadConfig(file)).mcpServersForm).toBe("list");
      await writeFile(file, "{}");
      expect(await loadConfig(file)).not.toHaveProperty("mcpServersForm");
      await writeFile(file, JSON.stringify({ mcpServers: { fs: { command: "node", timeoutMs: 0 } } }));
      const error = await loadConfig(file).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).code).toBe("invalid-config");
      expect((error as ConfigError).issues).toEqual([
        { path: "mcpServers.fs.timeoutMs", message: "must be greater than 0, got number 0" },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
