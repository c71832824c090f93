// MCP Apps (io.modelcontextprotocol/ui) through the bridge and `toolwire serve`: a real stdio server whose tools name
// ui:// apps; the bridge keeps their `_meta.ui` and reads their HTML, and serve passes both on to an SDK client, only
// for the tools a principal can see.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import {
  connectMcpServer,
  type McpConnection,
  type McpStdioServerConfig,
  readAppFromConnections,
  serveMcp,
} from "../../src/mcp/api.js";

import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";
import { minimalEnv } from "./helpers/mcp-servers.js";

const SERVER = fileURLToPath(new URL("./helpers/mcp-app-server.mjs", import.meta.url));
const CHART = "ui://charts/chart.html";
const HTML = "<!DOCTYPE html><html><body><p id='chart'>chart app</p></body></html>";

function appServer(id = "apps"): McpStdioServerConfig {
  return { id, command: process.execPath, args: [SERVER], env: minimalEnv() };
}

async function modernClient(url: string, token?: string): Promise<Client> {
  const client = new Client(
    { name: "apps-test", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), headers ? { requestInit: { headers } } : {}));
  return client;
}

// `auto` speaks 2026-07-28 with this server unless it starts too slowly to answer server/discover (a loaded machine).
describe.each(["2025", "auto"] as const)("the bridge, protocol %s", (protocol) => {
  let connection: McpConnection;
  beforeAll(async () => {
    connection = await connectMcpServer(appServer(), { protocol });
  });
  afterAll(() => connection.close());

  it("keeps a tool's _meta.ui (and the older ui/resourceUri) on its descriptor", () => {
    const meta = Object.fromEntries(connection.tools.map((tool) => [tool.descriptor.name, tool.descriptor._meta]));
    expect(meta.apps__show_chart).toEqual({ ui: { resourceUri: CHART } });
    expect(meta.apps__legacy_chart).toEqual({ "ui/resourceUri": CHART });
    expect(meta.apps__plain).toBeUndefined();
  });

  it("reads the app a tool names: its HTML, mime type and _meta.ui", async () => {
    await expect(connection.readAppResource(CHART)).resolves.toEqual({
      uri: CHART,
      mimeType: "text/html;profile=mcp-app",
      html: HTML,
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
    });
  });

  it("refuses a missing app, an app that is not HTML and a URI that is not ui:// with their codes", async () => {
    await expect(connection.readAppResource("ui://charts/missing.html")).rejects.toMatchObject({
      code: "mcp-app-not-found",
      serverId: "apps",
    });
    await expect(connection.readAppResource("ui://charts/notes.txt")).rejects.toMatchObject({
      code: "mcp-app-not-html",
      message: expect.stringContaining("text/plain"),
    });
    await expect(connection.readAppResource("file:///etc/passwd")).rejects.toMatchObject({
      code: "mcp-app-invalid-uri",
    });
  });
});

describe("serveMcp with readAppResource", { timeout: 60_000 }, () => {
  let connection: McpConnection;
  beforeAll(async () => {
    connection = await connectMcpServer(appServer());
  });
  afterAll(() => connection.close());

  it("passes a bridged app through: _meta.ui listed, the app in resources/list and resources/read", async () => {
    const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
    const handle = await serveMcp(session, {
      transport: "http",
      port: 0,
      readAppResource: readAppFromConnections([connection]),
    });
    const client = await modernClient(handle.url as string);
    try {
      expect(client.getServerCapabilities()?.resources).toEqual({});
      expect(client.getServerCapabilities()?.extensions?.["io.modelcontextprotocol/ui"]).toEqual({
        mimeTypes: ["text/html;profile=mcp-app"],
      });
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === "apps__show_chart")?._meta).toEqual({ ui: { resourceUri: CHART } });
      const { resources } = await client.listResources();
      // Each app once, whichever tools name it; a tool's app the server lacks is listed and fails when read.
      expect(resources.map((resource) => resource.uri).sort()).toEqual([
        CHART,
        "ui://charts/missing.html",
        "ui://charts/notes.txt",
      ]);
      const read = await client.readResource({ uri: CHART });
      expect(read.contents).toEqual([
        {
          uri: CHART,
          mimeType: "text/html;profile=mcp-app",
          text: HTML,
          _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
        },
      ]);
      // A 2025-era client (the SDK's v1, a session over initialize) reads it too.
      const legacy = new LegacyClient({ name: "apps-test-2025", version: "1" });
      await legacy.connect(new LegacyHttpTransport(new URL(handle.url as string)));
      try {
        expect((await legacy.readResource({ uri: CHART })).contents[0]).toMatchObject({ uri: CHART, text: HTML });
      } finally {
        await legacy.close();
      }
      await expect(client.readResource({ uri: "ui://charts/missing.html" })).rejects.toMatchObject({ code: -32602 });
      await expect(client.readResource({ uri: "ui://charts/notes.txt" })).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining("not an app's HTML"),
      });
    } finally {
      await client.close();
      await handle.close();
      session.close();
    }
  });

  it("reads nothing a served tool does not name, and nothing of a tool the session hides", async () => {
    const registry = createToolRegistry({
      extensions: [connection],
      policy: [{ label: "no-charts", deny: ["apps__show_chart", "apps__legacy_chart"] }],
    });
    const session = createAgentSession({ registry });
    const handle = await serveMcp(session, {
      transport: "http",
      port: 0,
      readAppResource: readAppFromConnections([connection]),
    });
    const client = await modernClient(handle.url as string);
    try {
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).not.toContain(CHART);
      await expect(client.readResource({ uri: CHART })).rejects.toMatchObject({ code: -32602 });
      await expect(client.readResource({ uri: "file:///etc/passwd" })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
      await handle.close();
      session.close();
    }
  });
});

describe("toolwire serve --http with an upstream app", { timeout: 60_000 }, () => {
  const OPS = "ops-token-0123456789abcdef";
  const VIEWER = "viewer-token-0123456789abcdef";
  let project: { path: string; remove(): Promise<void> };
  let child: ChildProcess | undefined;
  let url: string;
  beforeAll(async () => {
    project = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({
        builtins: { enabled: false },
        mcpServers: [appServer()],
        serve: {
          auth: {
            tokens: [
              { token: "env:OPS_TOKEN", principal: "ops" },
              {
                token: "env:VIEWER_TOKEN",
                principal: "viewer",
                policy: [{ label: "viewer", deny: ["apps__show_chart", "apps__legacy_chart"] }],
              },
            ],
          },
        },
      }),
    });
    child = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
      cwd: project.path,
      env: cliEnv({ OPS_TOKEN: OPS, VIEWER_TOKEN: VIEWER }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    url = await new Promise<string>((resolve, reject) => {
      child?.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
        if (found?.[1] !== undefined && stderr.includes("auth:")) resolve(found[1]);
      });
      child?.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await project.remove();
  });

  it("serves the upstream's app to a principal that sees its tool", async () => {
    const client = await modernClient(url, OPS);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === "apps__show_chart")?._meta).toEqual({ ui: { resourceUri: CHART } });
      const read = await client.readResource({ uri: CHART });
      expect(read.contents[0]).toMatchObject({ uri: CHART, mimeType: "text/html;profile=mcp-app", text: HTML });
    } finally {
      await client.close();
    }
  });

  it("does not let a principal whose policy hides the tool read its app", async () => {
    const client = await modernClient(url, VIEWER);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain("apps__show_chart");
      expect((await client.listResources()).resources.map((resource) => resource.uri)).not.toContain(CHART);
      await expect(client.readResource({ uri: CHART })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });
});
