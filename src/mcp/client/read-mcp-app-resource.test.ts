import { afterEach, describe, expect, it } from "vitest";
import { memoryMcpServer } from "../../../test/support/memory-mcp-server.js";
import { connectMcpEndpoint } from "./connect-mcp-server.js";
import { appResourceUriOf } from "./mcp-app.js";
import type { McpConnection } from "./mcp-connection.js";

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe("readAppResource", () => {
  it("is not-found, not a protocol error, on a server that serves no resources at all", async () => {
    const connection = await connectMcpEndpoint(memoryMcpServer().endpoint);
    open.push(connection);
    await expect(connection.readAppResource("ui://charts/chart.html")).rejects.toMatchObject({
      code: "mcp-app-not-found",
      serverId: "mem",
    });
  });

  it("refuses a URI that is not ui:// before sending anything, and after close says the connection is closed", async () => {
    const connection = await connectMcpEndpoint(memoryMcpServer().endpoint);
    await expect(connection.readAppResource("https://example.com/app.html")).rejects.toMatchObject({
      code: "mcp-app-invalid-uri",
    });
    await connection.close();
    await expect(connection.readAppResource("ui://charts/chart.html")).rejects.toMatchObject({ code: "mcp-closed" });
  });
});

describe("appResourceUriOf", () => {
  it("reads _meta.ui.resourceUri first, then the older _meta['ui/resourceUri'], and only ui:// URIs", () => {
    expect(appResourceUriOf({ ui: { resourceUri: "ui://a" }, "ui/resourceUri": "ui://b" })).toBe("ui://a");
    expect(appResourceUriOf({ "ui/resourceUri": "ui://b" })).toBe("ui://b");
    expect(appResourceUriOf({ ui: { resourceUri: "https://example.com" } })).toBeUndefined();
    expect(appResourceUriOf({ ui: { visibility: ["app"] } })).toBeUndefined();
    expect(appResourceUriOf(undefined)).toBeUndefined();
  });
});
