// Content blocks (docs/core.md) end to end: every MCP content type travels from an upstream server through the bridge, the registry and serveMcp to the official SDK client unchanged.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, type McpConnection, type McpServerHandle, serveMcp } from "../../src/mcp/api.js";
import { everythingServer } from "./helpers/mcp-servers.js";

const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** One block of each type, with the annotations, `_meta` and resource-link fields MCP defines. */
const EVERY_BLOCK = [
  { type: "text", text: "every type:", annotations: { audience: ["user"], priority: 0.9 }, _meta: { step: 1 } },
  { type: "image", data: PNG, mimeType: "image/png", annotations: { lastModified: "2025-06-18T12:00:00Z" } },
  { type: "audio", data: WAV, mimeType: "audio/wav", _meta: { seconds: 0 } },
  { type: "resource", resource: { uri: "test://notes.txt", mimeType: "text/plain", text: "notes", _meta: { v: 2 } } },
  { type: "resource", resource: { uri: "test://report.pdf", mimeType: "application/pdf", blob: "JVBERi0=" } },
  {
    type: "resource_link",
    uri: "test://big.csv",
    name: "big.csv",
    title: "Big table",
    description: "too big to embed",
    mimeType: "text/csv",
    size: 1048576,
    icons: [{ src: "https://example.com/csv.png", mimeType: "image/png", sizes: ["48x48"] }],
    annotations: { audience: ["assistant"], priority: 0.1 },
  },
];

interface Served {
  readonly client: Client;
  close(): Promise<void>;
}

/** A session over `connection` served by serveMcp over HTTP, and the official SDK client connected to it. */
async function serveAndConnect(registry: ReturnType<typeof createToolRegistry>): Promise<Served> {
  const handle: McpServerHandle = await serveMcp(createAgentSession({ registry }), { transport: "http", port: 0 });
  const client = new Client({ name: "content-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
  return {
    client,
    close: async () => {
      await client.close();
      await handle.close();
    },
  };
}

describe("server-everything bridged and served again, to the official SDK client", () => {
  let direct: Client;
  let bridge: McpConnection;
  let served: Served;

  beforeAll(async () => {
    const config = everythingServer();
    direct = new Client({ name: "content-test-direct", version: "1.0.0" });
    await direct.connect(
      new StdioClientTransport({ command: config.command, args: [...(config.args ?? [])], env: config.env }),
    );
    bridge = await connectMcpServer(everythingServer());
    served = await serveAndConnect(createToolRegistry({ extensions: [bridge] }));
  });
  afterAll(async () => {
    await served?.close();
    await bridge?.close();
    await direct?.close();
  });

  /** The content of a direct call and of the same call through toolwire, as JSON text. */
  async function both(name: string, input: Record<string, unknown>): Promise<[string, string]> {
    const upstream = await direct.callTool({ name, arguments: input });
    const through = await served.client.callTool({ name: `everything__${name}`, arguments: input });
    expect(through.isError).toBeFalsy();
    return [JSON.stringify(upstream.content), JSON.stringify(through.content)];
  }

  /** The resources say when they were made, to the second: a pair of calls that straddles a second runs again. */
  async function expectIdentical(name: string, input: Record<string, unknown>): Promise<unknown[]> {
    let [upstream, through] = await both(name, input);
    for (let retry = 0; retry < 2 && upstream !== through; retry++) [upstream, through] = await both(name, input);
    expect(through).toBe(upstream);
    return JSON.parse(through) as unknown[];
  }

  it("resource links arrive byte-identical", async () => {
    const content = await expectIdentical("get-resource-links", { count: 4 });
    expect(content.filter((block) => (block as { type: string }).type === "resource_link")).toHaveLength(4);
  });

  it("an embedded text resource arrives byte-identical", async () => {
    const content = await expectIdentical("get-resource-reference", { resourceType: "Text", resourceId: 1 });
    expect(content).toContainEqual(
      expect.objectContaining({ type: "resource", resource: expect.objectContaining({ text: expect.any(String) }) }),
    );
  });

  it("an embedded blob resource arrives byte-identical", async () => {
    const content = await expectIdentical("get-resource-reference", { resourceType: "Blob", resourceId: 2 });
    expect(content).toContainEqual(
      expect.objectContaining({ type: "resource", resource: expect.objectContaining({ blob: expect.any(String) }) }),
    );
  });

  it("annotated text and image blocks arrive byte-identical, annotations included", async () => {
    const content = await expectIdentical("get-annotated-message", { messageType: "error", includeImage: true });
    expect(content[0]).toMatchObject({ annotations: { priority: 1, audience: ["user", "assistant"] } });
    expect(content.some((block) => (block as { type: string }).type === "image")).toBe(true);
  });
});

describe("every content type through serveMcp, and through a bridge of it served again", () => {
  const tool = defineTool({
    name: "every_block",
    description: "Returns one content block of each type.",
    inputSchema: { type: "object", properties: {} },
    execute: () => ({ content: EVERY_BLOCK as never }),
  });
  let inner: Served & { url: string };
  let bridge: McpConnection;
  let outer: Served;

  beforeAll(async () => {
    const handle = await serveMcp(createAgentSession({ registry: createToolRegistry({ custom: [tool] }) }), {
      transport: "http",
      port: 0,
    });
    const client = new Client({ name: "content-test-inner", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(handle.url as string)));
    inner = {
      client,
      url: handle.url as string,
      close: async () => {
        await client.close();
        await handle.close();
      },
    };
    bridge = await connectMcpServer({ id: "inner", url: inner.url });
    outer = await serveAndConnect(createToolRegistry({ extensions: [bridge] }));
  });
  afterAll(async () => {
    await outer?.close();
    await bridge?.close();
    await inner?.close();
  });

  // The SDK parses a result with its schemas, which put an object's keys in the schema's order: a block the
  // client gets equals what the tool returned, and its bytes are those of the same block read from the tool directly.
  it("a tool's blocks reach the SDK client unchanged", async () => {
    const result = await inner.client.callTool({ name: "every_block", arguments: {} });
    expect(result.content).toEqual(EVERY_BLOCK);
  });

  it("the bridge hands the same blocks to the registry, and serve hands them on byte-identical", async () => {
    const bridged = bridge.tools.find((candidate) => candidate.descriptor.name === "inner__every_block");
    const call = await bridged?.execute({}, { toolCallId: "c", signal: new AbortController().signal, onUpdate() {} });
    expect(call).toEqual({ content: EVERY_BLOCK });
    const direct = await inner.client.callTool({ name: "every_block", arguments: {} });
    const result = await outer.client.callTool({ name: "inner__every_block", arguments: {} });
    expect(JSON.stringify(result.content)).toBe(JSON.stringify(direct.content));
  });
});
