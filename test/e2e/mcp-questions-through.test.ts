// A bridged server's questions (input_required and task input requests) go to the call's caller: the MCP client that
// made the call when toolwire serves (a 2025 client's elicitation, a 2026-07-28 client's input_required result, or its
// task's input request once the call is a task), else the session's approver; a config-file server served by
// `toolwire serve` reaches the client the same way.
import { fileURLToPath } from "node:url";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { ApprovalRequest, LiveToolSource, ToolResultBlock } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { connectMcpServer, type McpConnection, type McpServerHandle, serveMcp } from "../../src/mcp/api.js";
import { tempWorkspace } from "./helpers/cli.js";
import { minimalEnv } from "./helpers/mcp-servers.js";
import { modernRpc } from "./helpers/modern-rpc.js";
import { serveStdio } from "./helpers/serve-stdio.js";

const SERVER = fileURLToPath(new URL("./helpers/mcp-task-server.mjs", import.meta.url));
const TASKS = "io.modelcontextprotocol/tasks";

let upstream: McpConnection;
let served: McpServerHandle;
beforeAll(async () => {
  // No onElicitation: the questions go to whoever called.
  upstream = await connectMcpServer({ id: "up", command: process.execPath, args: [SERVER], env: minimalEnv() });
  served = await serveMcp(
    () => createAgentSession({ registry: createToolRegistry({ extensions: [upstream as LiveToolSource] }) }),
    { transport: "http", host: "127.0.0.1", port: 0, tasks: { afterMs: 60_000 } },
  );
});
afterAll(async () => {
  await served?.close();
  await upstream?.close();
});

const textOf = (block: object) =>
  ((block as { content: { type: string; text?: string }[] }).content ?? []).map((part) => part.text ?? "").join("");

describe("a bridged server's question reaches the MCP client that made the call", { timeout: 30_000 }, () => {
  it("a 2025 client gets the upstream's form as an elicitation, and its answer reaches the upstream", async () => {
    const asked: unknown[] = [];
    const client = new Client({ name: "asker", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { note: "from the client" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url as string)));
    try {
      const result = await client.callTool({ name: "up__confirm", arguments: {} });
      expect(textOf(result)).toBe("confirmed: from the client");
      expect(asked).toEqual([
        expect.objectContaining({
          message: "Add a note to the confirmation",
          requestedSchema: { type: "object", properties: { note: { type: "string", default: "default note" } } },
        }),
      ]);
    } finally {
      await client.close();
    }
  });

  it("a 2026-07-28 client that takes no tasks gets it as input_required; the call waits here for the retry", async () => {
    const asked: unknown[] = [];
    const client = new ModernClient(
      { name: "modern-http", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { note: "over http" } };
    });
    await client.connect(new ModernHttpTransport(new URL(served.url as string)));
    try {
      const result = await client.callTool({ name: "up__confirm", arguments: {} });
      expect(textOf(result)).toBe("confirmed: over http");
      expect(asked).toEqual([expect.objectContaining({ message: "Add a note to the confirmation" })]);
    } finally {
      await client.close();
    }
  });

  it("a retry naming a held call that is not there is refused with -32602, and nothing runs again", async () => {
    const answer = await modernRpc(
      served.url as string,
      "tools/call",
      {
        name: "up__confirm",
        arguments: {},
        requestState: `held.${Buffer.from(JSON.stringify({ held: "no-such-call", round: 1 })).toString("base64url")}`,
        inputResponses: { confirm: { action: "accept" } },
      },
      { capabilities: { elicitation: {} } },
    );
    expect(answer.result).toBeUndefined();
    expect(answer.error).toMatchObject({ code: -32602 });
    expect(answer.error?.message).toContain("is no longer waiting here");
  });

  it("a requestState this server never gave (and no approvals to read it) runs nothing: an error result says so", async () => {
    const { result = {} } = await modernRpc(
      served.url as string,
      "tools/call",
      { name: "up__confirm", arguments: {}, requestState: "not-from-here", inputResponses: {} },
      { capabilities: { elicitation: {} } },
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("The requestState of this call to up__confirm is not valid");
  });

  it("over raw 2026-07-28: the upstream's own key; a retry without the answer is asked again; a changed state is refused", async () => {
    const call = async (params: Record<string, unknown>) =>
      modernRpc(
        served.url as string,
        "tools/call",
        { name: "up__confirm", arguments: {}, ...params },
        {
          capabilities: { elicitation: {} },
        },
      );
    const asked = (await call({})).result ?? {};
    expect(asked).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    expect(Object.keys(asked.inputRequests as object)).toEqual(["confirm"]);
    // No answer for the open question (a wrong key): the same question, the same state.
    const again = (await call({ requestState: asked.requestState, inputResponses: { other: { action: "accept" } } }))
      .result;
    expect(again).toEqual(asked);
    const tampered = await call({
      requestState: `${String(asked.requestState)}x`,
      inputResponses: { confirm: { action: "accept", content: { note: "forged" } } },
    });
    expect(tampered.error).toMatchObject({ code: -32602 });
    const answered = await call({
      requestState: asked.requestState,
      inputResponses: { confirm: { action: "accept", content: { note: "raw" } } },
    });
    expect(textOf(answered.result ?? {})).toBe("confirmed: raw");
  });

  it("a 2026-07-28 client that takes tasks, asked before the call is a task, gets input_required; the retry brings the answer", async () => {
    const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
    const call = async (params: Record<string, unknown>) =>
      (await modernRpc(served.url as string, "tools/call", params, { capabilities })).result ?? {};
    // afterMs is a minute here: the upstream asks long before the call would become a task.
    const asked = await call({ name: "up__ask_later", arguments: {} });
    expect(asked).toMatchObject({ resultType: "input_required" });
    expect(asked).not.toHaveProperty("taskId");
    const requests = asked.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
    const [key = "", ...others] = Object.keys(requests);
    expect(others).toEqual([]);
    expect(requests[key]).toMatchObject({ method: "elicitation/create", params: { message: "What is your name?" } });
    const answered = await call({
      name: "up__ask_later",
      arguments: {},
      requestState: asked.requestState,
      inputResponses: { [key]: { action: "accept", content: { name: "Grace" } } },
    });
    expect(answered).not.toHaveProperty("taskId");
    expect(textOf(answered)).toBe("hello Grace");
  });

  it("a 2026-07-28 client that takes tasks, asked once the call is one, gets the task's input request, answered with tasks/update", async () => {
    const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
    // afterMs 0: every call of a client that takes tasks is a task at once, before the upstream asks.
    const tasking = await serveMcp(
      () => createAgentSession({ registry: createToolRegistry({ extensions: [upstream as LiveToolSource] }) }),
      { transport: "http", host: "127.0.0.1", port: 0, tasks: { afterMs: 0 } },
    );
    onTestFinished(() => tasking.close());
    const rpc = async (method: string, params: Record<string, unknown>) =>
      (await modernRpc(tasking.url as string, method, params, { capabilities })).result ?? {};
    const tasked = await rpc("tools/call", { name: "up__ask_later", arguments: {} });
    expect(tasked).toMatchObject({ resultType: "task" });
    const taskId = String(tasked.taskId);
    let waiting = await rpc("tasks/get", { taskId });
    for (let tries = 0; waiting.status !== "input_required" && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiting = await rpc("tasks/get", { taskId });
    }
    const requests = waiting.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
    const [key = "", ...others] = Object.keys(requests);
    expect(others).toEqual([]);
    expect(requests[key]).toMatchObject({
      method: "elicitation/create",
      params: { message: "What is your name?", requestedSchema: { required: ["name"] } },
    });
    await rpc("tasks/update", { taskId, inputResponses: { [key]: { action: "accept", content: { name: "Ada" } } } });
    let done = waiting;
    for (let tries = 0; done.status !== "completed" && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = await rpc("tasks/get", { taskId });
    }
    expect(done.status).toBe("completed");
    expect(textOf(done.result as { content: unknown })).toBe("hello Ada");
  });
});

describe("a bridged server's question in a library session goes to its approver", { timeout: 30_000 }, () => {
  it("a yes answers the form with its defaults; a form that needs a field without one is not asked", async () => {
    const requests: ApprovalRequest[] = [];
    const session = createAgentSession({
      registry: createToolRegistry({ extensions: [upstream as LiveToolSource] }),
      approvals: {
        require: [],
        approver: (request) => {
          requests.push(request);
          return { approve: true };
        },
      },
    });
    const confirmed: ToolResultBlock = await session.dispatch({ id: "q1", name: "up__confirm", input: {} });
    expect(textOf(confirmed)).toBe("confirmed: default note");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      toolCallId: "q1",
      toolName: "up__confirm",
      question: { message: "Add a note to the confirmation" },
    });
    const named = await session.dispatchDetailed({ id: "q2", name: "up__ask_later", input: {} });
    expect(named.errorCode).toBe("approval-required");
    expect(textOf(named.block)).toContain('asked "What is your name?", which needs name');
    expect(requests).toHaveLength(1);
  });
});

describe("toolwire serve over stdio, a config-file server's question", { timeout: 60_000 }, () => {
  it("reaches a 2026-07-28 desktop-style client's elicitation, the call held across its retry", async () => {
    const project = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({
        builtins: { enabled: false },
        mcpServers: { up: { command: process.execPath, args: [SERVER] } },
      }),
    });
    const asked: string[] = [];
    const client = new ModernClient(
      { name: "desktop", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: {} } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String(request.params.message));
      return { action: "accept", content: { note: "desktop note" } };
    });
    try {
      await client.connect(new ModernStdioTransport(serveStdio(project.path)));
      const result = await client.callTool({ name: "up__confirm", arguments: {} });
      expect(textOf(result)).toBe("confirmed: desktop note");
      expect(asked).toEqual(["Add a note to the confirmation"]);
    } finally {
      await client.close();
      await project.remove();
    }
  });
});
