// serveMcp asks the MCP client that made a call for approval through elicitation, when the client can answer one:
// a 2025 client over HTTP, and a 2026-07-28 client over HTTP and over stdio.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { type McpServerHandle, serveMcp } from "../../src/mcp/api.js";
import { tempWorkspace } from "./helpers/cli.js";
import { serveStdio } from "./helpers/serve-stdio.js";

const runs: unknown[] = [];
const danger = defineTool({
  name: "danger",
  description: "needs approval",
  inputSchema: { type: "object", properties: { command: { type: "string" } } },
  execute: (input) => {
    runs.push(input);
    return `ran ${input.command}`;
  },
});

let served: McpServerHandle;
beforeAll(async () => {
  const session = createAgentSession({
    registry: createToolRegistry({ custom: [danger] }),
    approvals: { require: ["danger"] },
  });
  served = await serveMcp(session, { transport: "http", host: "127.0.0.1", port: 0 });
});
afterAll(() => served.close());

async function client(answer?: (message: string) => ElicitResult): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const mcp = new Client(
    { name: "approving", version: "1.0.0" },
    answer === undefined ? {} : { capabilities: { elicitation: {} } },
  );
  if (answer !== undefined) {
    mcp.setRequestHandler(ElicitRequestSchema, (request) => {
      const message = String(request.params.message);
      asked.push(message);
      return answer(message);
    });
  }
  await mcp.connect(new StreamableHTTPClientTransport(new URL(served.url as string)));
  return { client: mcp, asked };
}

const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join("");

describe("serveMcp and approvals", () => {
  it("asks the calling client through elicitation, with the input and its digest; accept runs the call", async () => {
    const { client: mcp, asked } = await client(() => ({ action: "accept", content: {} }));
    const result = await mcp.callTool({ name: "danger", arguments: { command: "ls" } });
    expect(text(result)).toBe("ran ls");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Approve the call danger \{"command":"ls"\}\? \(input sha256:[0-9a-f]{64}\)$/);
    expect(runs).toEqual([{ command: "ls" }]);
    await mcp.close();
  });

  it("a 2026-07-28 SDK client over HTTP is asked through input_required and its retry runs the call once", async () => {
    runs.length = 0;
    const asked: string[] = [];
    const modern = new ModernClient(
      { name: "modern-http-approver", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: {} } },
    );
    modern.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept" };
    });
    await modern.connect(new ModernHttpTransport(new URL(served.url as string)));
    try {
      expect(modern.getProtocolEra()).toBe("modern");
      const result = await modern.callTool({ name: "danger", arguments: { command: "deploy" } });
      expect(result.content).toEqual([{ type: "text", text: "ran deploy" }]);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^Approve the call danger \{"command":"deploy"\}\? \(input sha256:[0-9a-f]{64}\)$/);
      expect(runs).toEqual([{ command: "deploy" }]);
    } finally {
      await modern.close();
    }
  });

  it("decline (with the user's reason) never runs the call", async () => {
    const { client: mcp } = await client(() => ({ action: "decline", content: { reason: "not on prod" } }));
    const result = await mcp.callTool({ name: "danger", arguments: { command: "rm" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("Tool call declined: not on prod");
    expect(runs).toHaveLength(1);
    await mcp.close();
  });

  it("a client that cannot answer an elicitation gets approval-required, and the call does not run", async () => {
    const { client: mcp } = await client();
    const result = await mcp.callTool({ name: "danger", arguments: { command: "rm" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/needs a person's approval, and nobody here can give it/);
    expect(runs).toHaveLength(1);
    await mcp.close();
  });
});

/** A plugin whose `deploy` tool notes each run in runs.txt, so a test can count them. */
const DEPLOY_PLUGIN = `import { appendFileSync } from "node:fs";
export default {
  id: "deploys",
  tools: (ctx) => [
    ctx.defineTool({
      name: "deploy",
      description: "Needs a person's approval.",
      inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
      execute: ({ env }) => {
        appendFileSync("runs.txt", env + "\\n");
        return "deployed " + env;
      },
    }),
  ],
};
`;

describe("toolwire serve over stdio, a 2026-07-28 client", { timeout: 60_000 }, () => {
  it("asks a client that declares elicitation in its requests' _meta, and runs the call once it accepts", async () => {
    const project = await tempWorkspace({
      "plugins/deploys.mjs": DEPLOY_PLUGIN,
      "toolwire.config.json": JSON.stringify({
        builtins: { enabled: false },
        plugins: [{ module: "./plugins/deploys.mjs" }],
        approvals: { require: ["deploy"] },
      }),
    });
    const asked: string[] = [];
    const modern = new ModernClient(
      { name: "modern-stdio-approver", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: {} } },
    );
    modern.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept" };
    });
    try {
      await modern.connect(new ModernStdioTransport(serveStdio(project.path)));
      expect(modern.getProtocolEra()).toBe("modern");
      const result = await modern.callTool({ name: "deploy", arguments: { env: "prod" } });
      expect(result.content).toEqual([{ type: "text", text: "deployed prod" }]);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^Approve the call deploy \{"env":"prod"\}\? \(input sha256:[0-9a-f]{64}\)$/);
      expect(await readFile(join(project.path, "runs.txt"), "utf8")).toBe("prod\n");
    } finally {
      await modern.close();
      await project.remove();
    }
  });
});
