// The bridge against a 2026-07-28 server that asks for input (input_required, SEP-2322) and answers with tasks
// (io.modelcontextprotocol/tasks): the questions reach onElicitation, the tasks are followed to one result.
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ToolCallError } from "../../src/core/errors.js";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool, ToolCallContext, ToolResult } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import {
  connectMcpServer,
  type McpConnection,
  type McpConnectOptions,
  type McpElicitation,
  type McpServerHandle,
  serveMcp,
} from "../../src/mcp/api.js";
import { minimalEnv } from "./helpers/mcp-servers.js";

const SERVER = fileURLToPath(new URL("./helpers/mcp-task-server.mjs", import.meta.url));

const open: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

/** The fixture server, bridged; its stderr (the methods it got) collected in `heard`. */
async function taskServer(options: McpConnectOptions = {}) {
  const heard: string[] = [];
  const connection = await connectMcpServer(
    { id: "tasks", command: process.execPath, args: [SERVER], env: minimalEnv() },
    { onStderr: (text) => heard.push(text), ...options },
  );
  open.push(connection);
  expect(connection.protocol?.version).toBe("2026-07-28");
  const tool = (name: string) =>
    connection.tools.find((each) => each.descriptor.name === `tasks__${name}`) as AgentTool;
  return { connection, tool, heard: () => heard.join("") };
}

function context(signal = new AbortController().signal, id = "c1"): ToolCallContext {
  return { toolCallId: id, signal, onUpdate: () => {} };
}

async function callError(promise: Promise<unknown>): Promise<ToolCallError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolCallError);
  return error as ToolCallError;
}

function textOf(result: string | ToolResult): string {
  if (typeof result === "string") return result;
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("input_required (request state) through the bridge", () => {
  it("answers the server's elicitation with onElicitation and retries with the request state", async () => {
    const asked: McpElicitation[] = [];
    const { tool } = await taskServer({
      onElicitation: (request) => {
        asked.push(request);
        return { action: "accept", content: { note: "from a person" } };
      },
    });
    const result = await tool("confirm").execute({}, context());
    expect(textOf(result)).toBe("confirmed: from a person");
    expect(typeof result === "string" ? undefined : result.isError).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      serverId: "tasks",
      toolName: "tasks__confirm",
      toolCallId: "c1",
      params: { mode: "form", message: "Add a note to the confirmation" },
    });
  });

  it("fills an accept without content from the form's defaults", async () => {
    const { tool } = await taskServer({ onElicitation: () => ({ action: "accept" }) });
    expect(textOf(await tool("confirm").execute({}, context()))).toBe("confirmed: default note");
  });

  it("ends the call with approval-declined when the answer is decline", async () => {
    const { tool, heard } = await taskServer({ onElicitation: () => ({ action: "decline" }) });
    const error = await callError(tool("confirm").execute({}, context()));
    expect(error.code).toBe("approval-declined");
    expect(error.message).toContain("Add a note to the confirmation");
    expect(error.message).toContain("declined");
    // No retry after a decline: the server got one call (its stderr may reach us after the call ended).
    await expect.poll(() => heard().match(/got tools\/call/g)?.length).toBe(1);
  });

  it("ends the call with approval-required when nobody can answer", async () => {
    const { tool } = await taskServer();
    const error = await callError(tool("confirm").execute({}, context()));
    expect(error.code).toBe("approval-required");
    expect(error.message).toContain("onElicitation");
  });

  it("ends the call with approval-declined when the handler throws", async () => {
    const { tool } = await taskServer({
      onElicitation: () => {
        throw new Error("the prompt broke");
      },
    });
    const error = await callError(tool("confirm").execute({}, context()));
    expect(error.code).toBe("approval-declined");
    expect(error.message).toContain("the prompt broke");
  });
});

describe("tasks through the bridge", () => {
  it("follows a task to its result with tasks/get, as one call", async () => {
    const { tool, heard } = await taskServer();
    const started = performance.now();
    const result = await tool("slow").execute({}, context());
    expect(textOf(result)).toBe("slow done");
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
    const polls = () => (heard().match(/got tasks\/get/g) ?? []).length;
    // About 1 s at 200 ms: a handful of polls, not a busy loop.
    await expect.poll(polls).toBeGreaterThanOrEqual(2);
    expect(polls()).toBeLessThan(20);
  });

  it("answers a task's input request with onElicitation through tasks/update", async () => {
    const { tool, heard } = await taskServer({ onElicitation: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect(textOf(await tool("ask_later").execute({}, context()))).toBe("hello Ada");
    await expect.poll(heard).toContain("got tasks/update task-ask_later-");
  });

  it("ends a task whose input request is declined with approval-declined, and cancels the task", async () => {
    const { tool, heard } = await taskServer({ onElicitation: () => ({ action: "decline" }) });
    const error = await callError(tool("ask_later").execute({}, context()));
    expect(error.code).toBe("approval-declined");
    expect(error.message).toContain("What is your name?");
    await expect.poll(heard).toContain("cancelled task-ask_later-");
  });

  it("sends tasks/cancel when the call is aborted, and ends it aborted", async () => {
    const { tool, heard } = await taskServer();
    const abort = new AbortController();
    const call = tool("forever").execute({}, context(abort.signal));
    await expect.poll(heard).toContain("got tasks/get task-forever-");
    abort.abort(new Error("the user pressed stop"));
    const error = await callError(call);
    expect(error.code).toBe("aborted");
    await expect.poll(heard).toContain("cancelled task-forever-");
  });

  it("sends tasks/cancel when the session's timeout ends the call", async () => {
    const { connection, heard } = await taskServer();
    const session = createAgentSession({
      registry: createToolRegistry({ extensions: [connection] }),
      toolTimeoutMs: 1_000,
    });
    const result = await session.dispatch({ id: "t1", name: "tasks__forever", input: {} });
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toContain("timed out");
    await expect.poll(heard).toContain("cancelled task-forever-");
  });

  it("ends a failed task with execution-failed naming the server's error", async () => {
    const { tool } = await taskServer();
    const error = await callError(tool("fails").execute({}, context()));
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain("disk full");
    expect((error.cause as { code?: string }).code).toBe("mcp-task-failed");
  });
});

describe("bridging a toolwire server whose calls need approval", () => {
  const runs: unknown[] = [];
  let served: McpServerHandle;
  beforeAll(async () => {
    const danger = defineTool({
      name: "danger",
      description: "needs approval",
      inputSchema: { type: "object", properties: { command: { type: "string" } } },
      execute: (input) => {
        runs.push(input);
        return `ran ${input.command}`;
      },
    });
    const session = createAgentSession({
      registry: createToolRegistry({ custom: [danger] }),
      approvals: { require: ["danger"] },
    });
    served = await serveMcp(session, { transport: "http", host: "127.0.0.1", port: 0 });
  });
  afterAll(() => served.close());

  async function gateway(protocol: "2025" | "2026-07-28", options: McpConnectOptions) {
    const connection = await connectMcpServer({ id: "gw", url: served.url as string }, { protocol, ...options });
    open.push(connection);
    return connection.tools.find((tool) => tool.descriptor.name === "gw__danger") as AgentTool;
  }

  for (const protocol of ["2025", "2026-07-28"] as const) {
    it(`asks onElicitation for the approval and runs the call once, on ${protocol}`, async () => {
      runs.length = 0;
      const asked: McpElicitation[] = [];
      const tool = await gateway(protocol, {
        onElicitation: (request) => {
          asked.push(request);
          return { action: "accept" };
        },
      });
      expect(textOf(await tool.execute({ command: "ls" }, context()))).toBe("ran ls");
      expect(runs).toEqual([{ command: "ls" }]);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.params.message).toMatch(/^Approve the call danger \{"command":"ls"\}\?/);
      expect(asked[0]).toMatchObject({ toolName: "gw__danger", toolCallId: "c1" });
    });
  }

  it("tells a 2025 server the person's decline: its declined result ends the call, and nothing runs", async () => {
    runs.length = 0;
    const tool = await gateway("2025", { onElicitation: () => ({ action: "decline" }) });
    const result = await tool.execute({ command: "rm" }, context());
    expect(typeof result === "string" ? undefined : result.isError).toBe(true);
    expect(textOf(result)).toBe("Tool call declined: declined by the MCP client's user");
    expect(runs).toEqual([]);
  });

  it("answers a 2025 server's question with cancel when nobody can answer, not with -32601", async () => {
    runs.length = 0;
    const tool = await gateway("2025", {});
    const result = await tool.execute({ command: "rm" }, context());
    expect(textOf(result)).toBe("Tool call declined: cancelled by the MCP client's user");
    expect(runs).toEqual([]);
  });
});
