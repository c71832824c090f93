// An MCP server's tools under flow rules: untrusted by default, and a config entry's trust and effects override it.
import { describe, expect, it } from "vitest";
import { memoryMcpServer } from "../../../test/support/memory-mcp-server.js";
import { createToolRegistry } from "../../core/register/registry.js";
import { createAgentSession } from "../../create-agent-session.js";
import { connectMcpEndpoint } from "./connect-mcp-server.js";

async function bridged(options: { trust?: "trusted" | "untrusted"; effects?: "none" | "local" | "external" }) {
  const server = memoryMcpServer({ tools: ["lookup"] });
  const connection = await connectMcpEndpoint(server.endpoint, options);
  const registry = createToolRegistry({ extensions: [connection] });
  const session = createAgentSession({ registry, flow: { whenTainted: "block" } });
  return { connection, session };
}

describe("a real MCP server's tools", () => {
  it("taint the session by default, and are guarded", async () => {
    const { connection, session } = await bridged({});
    try {
      expect(connection.tools[0]?.descriptor).not.toHaveProperty("trust");
      await session.dispatch({ id: "l1", name: "mem__lookup", input: {} });
      expect(session.flow.sources).toEqual([{ toolCallId: "l1", toolName: "mem__lookup" }]);
      expect((await session.dispatchDetailed({ id: "l2", name: "mem__lookup", input: {} })).errorCode).toBe(
        "flow-blocked",
      );
    } finally {
      session.close();
      await connection.close();
    }
  });

  it("follow the server entry's trust and effects", async () => {
    const { connection, session } = await bridged({ trust: "trusted", effects: "none" });
    try {
      expect(connection.tools[0]?.descriptor).toMatchObject({ trust: "trusted", effects: "none" });
      await session.dispatch({ id: "l1", name: "mem__lookup", input: {} });
      expect(session.flow.tainted).toBe(false);
    } finally {
      session.close();
      await connection.close();
    }
  });
});
