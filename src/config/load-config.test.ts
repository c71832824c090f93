// loadConfig over real files: valid configs load frozen; every kind of bad config is a ConfigError naming path and
// expectation.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConfigIssue } from "./config-issue.js";
import { ConfigError, loadConfig, MAX_CONFIG_BYTES, parseConfig } from "./load-config.js";
import { MAX_CONFIG_DEPTH, readConfigSchema, validateConfig } from "./validate-config.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(value: unknown, name = "toolwire.config.json"): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return file;
}

async function failure(path: string): Promise<ConfigError> {
  try {
    await loadConfig(path);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const FULL = {
  $schema: "./node_modules/toolwire/schema/toolwire.config.schema.json",
  workspace: ".",
  builtins: { enabled: true },
  allowedTools: ["read", "notes_add"],
  policy: [
    { label: "global", deny: ["group:runtime"] },
    { label: "team", allow: ["group:fs", "plugin:notes"] },
  ],
  plugins: [{ id: "notes", module: "./plugins/notes.mjs", enabled: true, options: { max: 3 } }],
  mcpServers: [
    { id: "fs", command: "node", args: ["server.js"], env: { A: "1" }, cwd: "servers", include: ["read_*"] },
    { id: "remote", url: "http://127.0.0.1:8080/mcp", headers: { Authorization: "Bearer x" }, timeoutMs: 5000 },
  ],
  availability: {
    authProviders: ["github"],
    config: { notes: { dir: "./notes" } },
    env: ["NOTES_TOKEN"],
    context: { channel: "cli", verbose: true, level: 2, none: null },
  },
  skills: ["./skills"],
};

describe("loadConfig", () => {
  it("loads a full valid config, frozen, with its file and folder", async () => {
    const file = await write(FULL);
    const loaded = await loadConfig(file);
    expect(loaded).toEqual({ config: FULL, file, dir, mcpServersForm: "list" });
    expect(Object.isFrozen(loaded.config)).toBe(true);
    expect(Object.isFrozen(loaded.config.policy?.[0]?.deny)).toBe(true);
  });

  it("loads an empty object (everything is optional), and a file with a byte order mark", async () => {
    expect((await loadConfig(await write("{}"))).config).toEqual({});
    expect((await loadConfig(await write('\uFEFF{"skills": []}'))).config).toEqual({ skills: [] });
  });

  it("throws config-not-found for a missing file", async () => {
    const error = await failure(join(dir, "nope.json"));
    expect(error).toMatchObject({ code: "config-not-found", file: join(dir, "nope.json") });
    expect(error.message).toBe(`Cannot read config ${join(dir, "nope.json")}: no such file`);
  });

  it("throws invalid-json with the line and column of the fault", async () => {
    const file = await write('{\n  "policy": [\n    { "label": "a", },\n  ]\n}');
    const error = await failure(file);
    expect(error.code).toBe("invalid-json");
    expect(error.issues).toEqual([
      { path: "line 3, column 19", line: 3, column: 19, message: 'trailing comma: remove the "," before "}"' },
    ]);
    expect(error.message).toBe(
      `Invalid JSON in ${file} at line 3, column 19: trailing comma: remove the "," before "}"`,
    );
  });

  it("throws invalid-config listing every bad path and what was expected", async () => {
    const file = await write({
      builtins: { enabled: "yes" },
      allowedTools: ["read", "bad name"],
      policy: [{ allow: "read" }, { label: "", deny: [3] }],
      plugins: [{ enabled: true }],
      mcpServers: [{ id: "fs" }, { id: "web", url: "ftp://x" }],
      availability: { env: ["1BAD"], context: { x: { nested: true } } },
      skils: ["./skills"],
    });
    const error = await failure(file);
    expect(error.code).toBe("invalid-config");
    const expected: ConfigIssue[] = [
      {
        path: "skils",
        message:
          'unknown property (did you mean "skills"?); expected one of: $schema, workspace, maxResultChars, maxSpillBytes, telemetry, builtins, allowedTools, policy, defer, deferBudgetTokens, executors, plugins, approvals, flow, codeMode, journal, mcpServers, pins, availability, skills, serve',
      },
      { path: "builtins.enabled", message: 'must be true or false, got the string "yes"' },
      {
        path: "allowedTools[1]",
        message: 'must be a tool name (letters, digits, _ and -, 1 to 64 characters), got the string "bad name"',
      },
      { path: "policy[0].label", message: "is required (expected a string)" },
      { path: "policy[0].allow", message: 'must be a list, got the string "read"' },
      { path: "policy[1].label", message: "must not be empty" },
      { path: "policy[1].deny[0]", message: "must be a string, got number 3" },
      { path: "plugins[0].module", message: "is required (expected a string)" },
      { path: "mcpServers[0].command", message: "is required (expected a string)" },
      { path: "mcpServers[1].url", message: 'must be an http:// or https:// URL, got the string "ftp://x"' },
      {
        path: "availability.env[0]",
        message:
          'must be an environment variable name (letters, digits and _, not starting with a digit), got the string "1BAD"',
      },
      {
        path: "availability.context.x",
        message: "must be a string or a number or true or false or null, got an object",
      },
    ];
    expect([...error.issues].sort(byPath)).toEqual([...expected].sort(byPath));
    for (const issue of expected) expect(error.message).toContain(`- ${issue.path}: ${issue.message}`);
  });

  it("names a typo'd property inside a layer", () => {
    expect(validateConfig({ policy: [{ label: "a", alow: ["read"] }] })).toEqual([
      {
        path: "policy[0].alow",
        message: 'unknown property (did you mean "allow"?); expected one of: label, allow, deny',
      },
    ]);
  });

  it("refuses a config that is not an object", () => {
    expect(validateConfig([])).toEqual([{ path: "(root)", message: "must be an object, got a list" }]);
  });

  it("refuses repeated layer labels, plugin ids and server ids, naming both places", () => {
    expect(
      validateConfig({
        policy: [{ label: "a" }, { label: "b" }, { label: "a" }],
        plugins: [
          { id: "p", module: "./a.mjs" },
          { id: "p", module: "./b.mjs" },
        ],
        mcpServers: [
          { id: "fs", command: "x" },
          { id: "fs", url: "http://127.0.0.1:1/mcp" },
        ],
        executors: [
          { id: "fleet", kind: "bullmq", connection: "redis://127.0.0.1:6379", tools: ["bash"] },
          { id: "fleet", kind: "bullmq", connection: "env:REDIS_URL", tools: ["read"] },
        ],
      }),
    ).toEqual([
      { path: "policy[2].label", message: 'duplicate layer label "a" (also at policy[0])' },
      { path: "plugins[1].id", message: 'duplicate plugin id "p" (also at plugins[0])' },
      { path: "mcpServers[1].id", message: 'duplicate server id "fs" (also at mcpServers[0])' },
      { path: "executors[1].id", message: 'duplicate executor id "fleet" (also at executors[0])' },
    ]);
  });

  it("judges any JSON value without throwing, each issue naming a path inside the value", () => {
    const key = fc.constantFrom(
      "policy",
      "plugins",
      "mcpServers",
      "availability",
      "skills",
      "builtins",
      "label",
      "id",
      "x",
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (candidate) => {
        const issues = validateConfig(candidate);
        for (const issue of issues) {
          expect(issue.path).toMatch(/^(\(root\)|[A-Za-z_$][\w$]*|\[)/);
          expect(issue.message.length).toBeGreaterThan(0);
        }
        const text = JSON.stringify(candidate);
        // The object form of mcpServers loads as the list form, each entry with its key as id.
        const servers = (candidate as { mcpServers?: unknown } | null)?.mcpServers;
        const listed =
          typeof servers === "object" && servers !== null && !Array.isArray(servers)
            ? { ...(candidate as object), mcpServers: Object.entries(servers).map(([id, entry]) => ({ id, ...entry })) }
            : candidate;
        if (issues.length === 0) expect(JSON.stringify(parseConfig(text))).toBe(JSON.stringify(listed));
        else expect(() => parseConfig(text)).toThrow(ConfigError);
      }),
      { numRuns: 300 },
    );
  });

  it("validates against the schema file the package ships", () => {
    const schema = readConfigSchema();
    expect(schema.title).toBe("toolwire.config.json");
    expect(Object.keys(schema.properties as object)).toContain("mcpServers");
  });

  it("parseConfig gives the same verdicts without a file", () => {
    expect(() => parseConfig("{ nope")).toThrow(expect.objectContaining({ code: "invalid-json", file: undefined }));
    expect(parseConfig('{"skills":["a"]}')).toEqual({ skills: ["a"] });
  });
});

describe("loadConfig refuses what is not a config file, without blocking", () => {
  it("a FIFO with no writer is refused as not a regular file, at once (reading it would wait forever)", async () => {
    const fifo = join(dir, "toolwire.config.json");
    execFileSync("mkfifo", [fifo]);
    const started = performance.now();
    const error = await failure(fifo);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(error.code).toBe("config-not-a-file");
    expect(error.message).toBe(`Cannot read config ${fifo}: it is a FIFO (named pipe), not a regular file`);
  });

  it("a symlink to a FIFO, and a device such as /dev/zero, are refused the same way", async () => {
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    await symlink(fifo, join(dir, "link.json"));
    expect((await failure(join(dir, "link.json"))).code).toBe("config-not-a-file");
    const zero = await failure("/dev/zero");
    expect(zero.code).toBe("config-not-a-file");
    expect(zero.message).toBe("Cannot read config /dev/zero: it is a device, not a regular file");
  });

  it("a Unix socket is refused as a socket (it cannot even be opened)", async () => {
    const path = join(dir, "sock.json");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const error = await failure(path);
      expect(error.code).toBe("config-not-a-file");
      expect(error.message).toBe(`Cannot read config ${path}: it is a socket, not a regular file`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a folder is not a file", async () => {
    const error = await failure(dir);
    expect(error.code).toBe("config-not-a-file");
    expect(error.message).toBe(`Cannot read config ${dir}: it is a folder`);
  });

  it("a file larger than 4 MiB is refused; one just under loads", async () => {
    const padding = (size: number) => `{"skills": []${" ".repeat(size - 14)}}`;
    expect(padding(100)).toHaveLength(100);
    const big = await write(padding(MAX_CONFIG_BYTES + 1), "big.json");
    const error = await failure(big);
    expect(error.code).toBe("config-too-large");
    expect(error.message).toBe(`Cannot read config ${big}: it is larger than 4 MiB`);
    expect((await loadConfig(await write(padding(MAX_CONFIG_BYTES), "fits.json"))).config).toEqual({ skills: [] });
  });
});

describe("deeply nested values", () => {
  const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const nestedList = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

  it("plugin options nested 100,000 levels deep are an invalid-config naming the path, not a stack overflow", async () => {
    const file = await write(`{"plugins":[{"module":"./p.mjs","options":${nestedObject(100_000)}}]}`);
    const error = await failure(file);
    expect(error.code).toBe("invalid-config");
    expect(error.issues).toHaveLength(1);
    const [issue] = error.issues as [ConfigIssue];
    expect(issue.path.startsWith("plugins[0].options.a.a.a")).toBe(true);
    expect(issue.path.length).toBeLessThanOrEqual(121);
    expect(issue.message).toBe(`nests deeper than ${MAX_CONFIG_DEPTH} levels of lists and objects; flatten this value`);
  });

  it("lists nested 100,000 levels deep anywhere are refused the same way", () => {
    const text = `{"availability":{"config":{"x":${nestedList(100_000)}}}}`;
    expect(() => parseConfig(text)).toThrow(
      expect.objectContaining({
        code: "invalid-config",
        message: expect.stringContaining("availability.config.x[0][0]"),
      }),
    );
    expect(validateConfig(JSON.parse(nestedList(100_000)))).toHaveLength(1);
  });

  it("exactly 64 levels load (frozen all the way down); 65 do not", () => {
    // the root object, plugins, the entry and options are 4 levels: options' value adds the rest
    const at = (depth: number) => `{"plugins":[{"module":"./p.mjs","options":${nestedObject(depth - 3)}}]}`;
    const loaded = parseConfig(at(MAX_CONFIG_DEPTH));
    let node: unknown = loaded.plugins?.[0]?.options;
    while (typeof node === "object" && node !== null) {
      expect(Object.isFrozen(node)).toBe(true);
      node = (node as { a?: unknown }).a;
    }
    expect(() => parseConfig(at(MAX_CONFIG_DEPTH + 1))).toThrow(expect.objectContaining({ code: "invalid-config" }));
  });
});

describe("new fields", () => {
  it("approvals.store: a redis:// or rediss:// address, or env:NAME", () => {
    for (const store of ["redis://127.0.0.1:6379", "rediss://user:pw@cache.internal:6380/2", "env:APPROVALS_REDIS"]) {
      expect(validateConfig({ approvals: { require: ["bash"], store } })).toEqual([]);
    }
    expect(validateConfig({ approvals: { require: ["bash"], store: "memory" } })).toEqual([
      {
        path: "approvals.store",
        message: 'must be a redis:// or rediss:// address, or env:NAME, got the string "memory"',
      },
    ]);
  });

  it("never repeats the user and password of an address it refuses", () => {
    const issues = validateConfig({
      approvals: { require: ["bash"], store: "ftp://user:hunter22@cache.internal" },
      executors: [{ id: "a", kind: "bullmq", connection: "https://:sekrit@queue.internal", tools: ["x"] }],
    });
    expect(issues.map((issue) => issue.message)).toEqual([
      'must be a redis:// or rediss:// address, or env:NAME, got the string "https://…@queue.internal"',
      'must be a redis:// or rediss:// address, or env:NAME, got the string "ftp://…@cache.internal"',
    ]);
  });

  it("builtins.env: pass takes names and globs, set takes variable names to strings", () => {
    expect(validateConfig({ builtins: { env: { pass: ["GITHUB_*", "HOME"], set: { CI: "1", _X: "" } } } })).toEqual([]);
    const issues = validateConfig({
      builtins: { env: { pass: ["a b", 3], set: { "1X": "v", "A=B": "v", OK: "a\u0000b", N: 3 }, extra: true } },
    });
    expect([...issues].sort(byPath)).toEqual(
      [
        { path: "builtins.env.extra", message: "unknown property; expected one of: pass, set" },
        {
          path: "builtins.env.pass[0]",
          message:
            'must be a variable name or glob (letters, digits, _ and *, 1 to 128 characters), got the string "a b"',
        },
        { path: "builtins.env.pass[1]", message: "must be a string, got number 3" },
        {
          path: 'builtins.env.set["1X"]',
          message: "the name must be an environment variable name (letters, digits and _, not starting with a digit)",
        },
        {
          path: 'builtins.env.set["A=B"]',
          message: "the name must be an environment variable name (letters, digits and _, not starting with a digit)",
        },
        { path: "builtins.env.set.OK", message: 'must be a string without NUL characters, got the string "a\\u0000b"' },
        { path: "builtins.env.set.N", message: "must be a string, got number 3" },
      ].sort(byPath),
    );
  });

  it('builtins.sandbox and mcpServers[].sandbox: "off" or sandbox options, each fault named by its path', () => {
    const sandbox = {
      mode: "required",
      network: { allowHosts: ["packages.example.com", "*.github.com", "127.0.0.1"] },
      writable: ["~/.cache"],
      readOnly: [".git", "secrets"],
      denyRead: [".ssh"],
      maxProcesses: 256,
      tmpSizeBytes: 64 * 1024 * 1024,
    };
    expect(validateConfig({ builtins: { sandbox } })).toEqual([]);
    expect(validateConfig({ builtins: { sandbox: "off" } })).toEqual([]);
    expect(validateConfig({ builtins: { sandbox: { network: "on" } } })).toEqual([]);
    expect(validateConfig({ mcpServers: [{ id: "fs", command: "x", sandbox: {} }] })).toEqual([]);
    expect(validateConfig({ builtins: { sandbox: "on" } })).toEqual([
      { path: "builtins.sandbox", message: 'must be "off" or an object, got the string "on"' },
    ]);
    const issues = validateConfig({
      builtins: { sandbox: { mode: "always", network: { allowHosts: ["a b"] }, networks: "on" } },
      mcpServers: [{ id: "fs", command: "x", sandbox: { maxProcesses: 2, network: "lan" } }],
    });
    expect([...issues].sort(byPath)).toEqual(
      [
        { path: "builtins.sandbox.mode", message: 'must be one of "auto", "required", got the string "always"' },
        {
          path: "builtins.sandbox.network.allowHosts[0]",
          message:
            'must be a host name or IP address (such as packages.example.com), or *. and a domain, got the string "a b"',
        },
        {
          path: "builtins.sandbox.networks",
          message:
            'unknown property (did you mean "network"?); expected one of: mode, network, writable, readOnly, denyRead, maxProcesses, tmpSizeBytes',
        },
        { path: "mcpServers[0].sandbox.maxProcesses", message: "must be at least 8, got number 2" },
        { path: "mcpServers[0].sandbox.network", message: 'must be one of "off", "on", got the string "lan"' },
      ].sort(byPath),
    );
  });

  it("builtins.web: allowHosts (required) with host patterns, two switches and three limits", () => {
    const web = {
      allowHosts: ["docs.example.com", "*.github.com", "127.0.0.1"],
      allowPrivateAddresses: false,
      allowPost: true,
      maxBytes: 65536,
      timeoutMs: 10_000,
      maxRedirects: 0,
    };
    expect(validateConfig({ builtins: { web } })).toEqual([]);
    const issues = validateConfig({
      builtins: { web: { allowHosts: ["https://docs.example.com/"], maxBytes: 0, maxRedirects: 50, allowPost: "yes" } },
    });
    expect([...issues].sort(byPath)).toEqual(
      [
        {
          path: "builtins.web.allowHosts[0]",
          message:
            'must be a host name or IP address (such as packages.example.com), or *. and a domain, got the string "https://docs.example.com/"',
        },
        { path: "builtins.web.allowPost", message: 'must be true or false, got the string "yes"' },
        { path: "builtins.web.maxBytes", message: "must be at least 1, got number 0" },
        { path: "builtins.web.maxRedirects", message: "must be at most 20, got number 50" },
      ].sort(byPath),
    );
    expect(validateConfig({ builtins: { web: {} } })).toEqual([
      { path: "builtins.web.allowHosts", message: "is required (expected a list)" },
    ]);
  });

  it("pins: true or false, nothing else", () => {
    expect(parseConfig('{"pins": true}')).toEqual({ pins: true });
    expect(parseConfig('{"pins": false}')).toEqual({ pins: false });
    expect(() => parseConfig('{"pins": "toolwire.pins.json"}')).toThrow(
      expect.objectContaining({
        code: "invalid-config",
        issues: [{ path: "pins", message: 'must be true or false, got the string "toolwire.pins.json"' }],
      }),
    );
  });

  it("timeouts are positive and fit a timer (at most 2147483647 ms)", () => {
    expect(
      validateConfig({
        plugins: [{ module: "./p.mjs", loadTimeoutMs: 500 }],
        mcpServers: [{ id: "s", command: "node", timeoutMs: 500, connectTimeoutMs: 200 }],
      }),
    ).toEqual([]);
    expect(
      validateConfig({
        plugins: [{ module: "./p.mjs", loadTimeoutMs: 1e12 }],
        mcpServers: [{ id: "s", url: "http://127.0.0.1:1/mcp", connectTimeoutMs: 0 }],
      }),
    ).toEqual([
      { path: "plugins[0].loadTimeoutMs", message: "must be at most 2147483647, got number 1000000000000" },
      { path: "mcpServers[0].connectTimeoutMs", message: "must be greater than 0, got number 0" },
    ]);
  });
});

function byPath(a: ConfigIssue, b: ConfigIssue): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

describe("mcpServers[].auth", () => {
  const withAuth = (auth: unknown) =>
    validateConfig({ mcpServers: [{ id: "remote", url: "https://mcp.example/mcp", auth }] });

  it("accepts a login, client credentials with a secret or a key, and a bearer token, each naming variables", () => {
    expect(withAuth({ type: "oauth" })).toEqual([]);
    expect(
      withAuth({
        type: "oauth",
        scopes: ["read", "write"],
        clientId: "toolwire-ci",
        clientSecretEnv: "MCP_CLIENT_SECRET",
        clientMetadataUrl: "https://toolwire.dev/client.json",
        redirectPort: 8765,
        authorizationTimeoutMs: 60_000,
      }),
    ).toEqual([]);
    expect(withAuth({ type: "client_credentials", clientId: "job", clientSecretEnv: "JOB_SECRET" })).toEqual([]);
    expect(
      withAuth({ type: "client_credentials", clientId: "job", privateKeyEnv: "JOB_KEY", algorithm: "ES256" }),
    ).toEqual([]);
    expect(withAuth({ type: "bearer", tokenEnv: "MCP_TOKEN" })).toEqual([]);
  });

  it("refuses a secret written in the config: only a variable name has a place", () => {
    expect(withAuth({ type: "oauth", clientId: "c", clientSecret: "s3cret" })).toEqual([
      {
        path: "mcpServers[0].auth.clientSecret",
        message: expect.stringMatching(/^unknown property/),
      },
    ]);
    expect(withAuth({ type: "bearer", tokenEnv: "sk-live-123" })).toEqual([
      {
        path: "mcpServers[0].auth.tokenEnv",
        message:
          'must be an environment variable name (letters, digits and _, not starting with a digit), got the string "sk-live-123"',
      },
    ]);
  });

  it("names the bad field: an unknown type, a port, a metadata URL, a scope with a space", () => {
    expect(withAuth({ type: "magic" })).toEqual([
      {
        path: "mcpServers[0].auth.type",
        message: 'must be one of "oauth", "client_credentials", "bearer", got the string "magic"',
      },
    ]);
    expect(withAuth({ type: "oauth", redirectPort: 70_000 })).toEqual([
      { path: "mcpServers[0].auth.redirectPort", message: "must be at most 65535, got number 70000" },
    ]);
    expect(withAuth({ type: "oauth", clientMetadataUrl: "http://toolwire.dev/client.json" })).toEqual([
      {
        path: "mcpServers[0].auth.clientMetadataUrl",
        message: 'must be an https:// URL with a path, got the string "http://toolwire.dev/client.json"',
      },
    ]);
    expect(withAuth({ type: "oauth", scopes: ["read write"] })).toEqual([
      {
        path: "mcpServers[0].auth.scopes[0]",
        message: 'must be a scope name without spaces, got the string "read write"',
      },
    ]);
  });

  it("client credentials need exactly one of a secret and a key", () => {
    const issue = {
      path: "mcpServers[0].auth",
      message:
        "needs exactly one of clientSecretEnv (the variable with a client secret) or privateKeyEnv (with a PEM private key)",
    };
    expect(withAuth({ type: "client_credentials", clientId: "job" })).toEqual([issue]);
    expect(withAuth({ type: "client_credentials", clientId: "job", clientSecretEnv: "A", privateKeyEnv: "B" })).toEqual(
      [issue],
    );
  });

  it("a stdio server has no auth", () => {
    expect(validateConfig({ mcpServers: [{ id: "local", command: "srv", auth: { type: "oauth" } }] })).toEqual([
      { path: "mcpServers[0].auth", message: expect.stringMatching(/^unknown property/) },
    ]);
  });
});

describe("serve", () => {
  it("accepts tokens with principals and policy, OAuth, origins, hosts, sessions, a rate limit and an audit file", () => {
    expect(
      validateConfig({
        serve: {
          auth: {
            tokens: [
              { token: "env:OPS_TOKEN", principal: "ops" },
              { token: "a-literal-token", principal: "ci", policy: [{ label: "ci", deny: ["bash"] }] },
            ],
            oauth: {
              issuer: "https://login.example.com",
              jwksUri: "https://login.example.com/jwks",
              scopes: ["mcp"],
              allowedTypes: ["at+jwt", "JWT"],
            },
          },
          allowedOrigins: ["https://app.example.com"],
          allowedHosts: ["tools.internal", "tools.internal:8808"],
          sessions: { idleTimeoutMs: 60_000, maxPerPrincipal: 4, max: 100 },
          rateLimit: { callsPerMinute: 120 },
          audit: {
            file: "audit.jsonl",
            inputs: false,
            maxQueueEntries: 5_000,
            maxQueueBytes: 4_194_304,
            whenFull: "drop",
            closeTimeoutMs: 2_000,
          },
          publicUrl: "https://tools.example.com/mcp",
          tasks: { afterMs: 0, ttlMs: 600_000, pollIntervalMs: 500, store: "memory" },
        },
      }),
    ).toEqual([]);
    expect(
      validateConfig({
        serve: { auth: { oauth: { issuer: "https://login.example.com", jwks: { keys: [] }, allowedTypes: "any" } } },
      }),
    ).toEqual([]);
    for (const store of ["redis://:secret@10.0.0.5:6379/2", "rediss://tasks.internal:6380", "env:TASKS_REDIS"]) {
      expect(validateConfig({ serve: { tasks: { store } } })).toEqual([]);
    }
  });

  it("takes serve.tasks.require as a list of policy patterns, and names anything else", () => {
    expect(validateConfig({ serve: { tasks: { require: ["build", "mcp:ci"] } } })).toEqual([]);
    for (const require of ["build", [""], [3]]) {
      const paths = validateConfig({ serve: { tasks: { require } } }).map((issue) => issue.path);
      expect(paths.some((path) => path.startsWith("serve.tasks.require"))).toBe(true);
    }
  });

  it("names a bad audit bound, whenFull or allowedTypes", () => {
    const paths = validateConfig({
      serve: {
        auth: { oauth: { issuer: "https://login.example.com", jwks: { keys: [] }, allowedTypes: [] } },
        audit: { file: "audit.jsonl", maxQueueEntries: 0, maxQueueBytes: 1.5, whenFull: "block", closeTimeoutMs: 0 },
      },
    }).map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "serve.auth.oauth.allowedTypes",
        "serve.audit.maxQueueEntries",
        "serve.audit.maxQueueBytes",
        "serve.audit.whenFull",
        "serve.audit.closeTimeoutMs",
      ]),
    );
  });

  it("names each fault: a token without a principal, OAuth without keys, an origin with a path, a zero limit", () => {
    const issues = validateConfig({
      serve: {
        auth: { tokens: [{ token: "t" }], oauth: { issuer: "https://login.example.com" } },
        allowedOrigins: ["https://app.example.com/path"],
        rateLimit: { callsPerMinute: 0 },
        tasks: { afterMs: -1, store: "memcached://elsewhere:11211" },
      },
    });
    const paths = issues.map((issue) => issue.path);
    expect(paths).toContain("serve.tasks.afterMs");
    expect(issues).toContainEqual({
      path: "serve.tasks.store",
      message: expect.stringContaining("memory, a redis:// or rediss:// address, or env:NAME"),
    });
    expect(paths).toContain("serve.auth.tokens[0].principal");
    expect(paths.some((path) => path.startsWith("serve.auth.oauth"))).toBe(true);
    expect(paths).toContain("serve.allowedOrigins[0]");
    expect(paths).toContain("serve.rateLimit.callsPerMinute");
  });
});
