// serveMcp's tasks (the io.modelcontextprotocol/tasks extension) over raw 2026-07-28 JSON-RPC on a real HTTP gateway:
// a slow call becomes a task and completes, cancel aborts the executor, an approval is answered through tasks/update,
// another principal cannot see a task, and a client without the extension gets the blocking answer; and toolwire serve
// takes serve.tasks from its config.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import { type McpServerHandle, serveMcp } from "../../src/mcp/api.js";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";
import { modernMeta } from "./helpers/modern-meta.js";
import { type ModernAnswer, modernRpc } from "./helpers/modern-rpc.js";
import { serveUrlOf } from "./helpers/serve-url.js";

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef";
const TASKS = "io.modelcontextprotocol/tasks";

const deploys: unknown[] = [];
const aborted: string[] = [];

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    });
  });

const tools = [
  defineTool({
    name: "slow",
    description: "Takes three seconds",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    execute: async ({ text }, context) => {
      await sleep(3_000, context.signal);
      return { content: [{ type: "text", text: `slow ${String(text)}` }], details: { structuredContent: { n: 3 } } };
    },
  }),
  defineTool({
    name: "hang",
    description: "Runs until aborted",
    inputSchema: { type: "object", properties: { label: { type: "string" } } },
    execute: async ({ label }, context) => {
      await new Promise<void>((resolve) => context.signal?.addEventListener("abort", () => resolve()));
      aborted.push(String(label));
      return "stopped";
    },
  }),
  defineTool({
    // Asks two questions at once through its call's approver, as a program's nested calls do.
    name: "pair",
    description: "Goes on once two questions, asked together, are answered",
    inputSchema: { type: "object", properties: {} },
    execute: async (_input, context) => {
      const approver = context.nestedDispatchOptions?.().approver;
      if (approver === undefined) throw new Error("nobody to ask");
      const ask = (step: string) =>
        approver(
          {
            approvalId: `${context.toolCallId}-${step}`,
            toolCallId: context.toolCallId,
            toolName: "pair",
            input: { step },
            inputDigest: "sha256:-",
            descriptor: { name: "pair", description: "", inputSchema: { type: "object" }, owner: { kind: "core" } },
            expiresAt: Date.now() + 60_000,
          },
          { signal: context.signal },
        );
      const answers = await Promise.all([ask("first"), ask("second")]);
      return answers.map((answer) => (answer.approve ? "yes" : "no")).join(", ");
    },
  }),
  defineTool({
    // A fault of the server, not of the tool's work: what it returns is not a tool result.
    name: "broken",
    description: "Returns a number after `ms`",
    inputSchema: { type: "object", properties: { ms: { type: "number" } } },
    execute: async ({ ms }) => {
      await sleep(Number(ms ?? 0));
      return 42 as never;
    },
  }),
  defineTool({
    name: "deploy",
    description: "Needs a person's approval",
    inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
    execute: (input) => {
      deploys.push(input);
      return `deployed ${String(input.env)}`;
    },
  }),
];

let served: McpServerHandle;
beforeAll(async () => {
  served = await serveMcp(
    () => createAgentSession({ registry: createToolRegistry({ custom: tools }), approvals: { require: ["deploy"] } }),
    {
      transport: "http",
      port: 0,
      auth: {
        tokens: [
          { token: ALICE, principal: "alice" },
          { token: BOB, principal: "bob" },
        ],
      },
    },
  );
});
afterAll(() => served.close());

/** One raw 2026-07-28 request to `url` as `token`; `capabilities` are the request's own (tasks, by default). */
function rpcAt(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { extensions: { [TASKS]: {} } },
): Promise<ModernAnswer> {
  return modernRpc(url, method, params, { token, capabilities });
}

/** The same, to the server of this file. */
function rpc(
  token: string,
  method: string,
  params: Record<string, unknown>,
  capabilities?: Record<string, unknown>,
): Promise<ModernAnswer> {
  return rpcAt(served.url as string, token, method, params, capabilities);
}

/** Polls tasks/get at the task's interval until it ends (or `until` says so), at most `limitMs`. */
async function pollTask(
  token: string,
  taskId: string,
  until = (task: Record<string, unknown>) => ["completed", "failed", "cancelled"].includes(String(task.status)),
  limitMs = 20_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const answer = await rpc(token, "tasks/get", { taskId });
    expect(answer.error).toBeUndefined();
    const task = answer.result as Record<string, unknown>;
    if (until(task) || Date.now() > deadline) return task;
    await sleep(Math.min(Number(task.pollIntervalMs), 200));
  }
}

const withoutMeta = (result: Record<string, unknown> | undefined) => {
  const { _meta, resultType, ...rest } = result ?? {};
  return rest;
};

describe("serve answers with tasks, for clients that declare the extension", { timeout: 30_000 }, () => {
  it("a 3-second call becomes a task that completes with the blocking answer; without the extension it blocks", async () => {
    const [tasked, blocking] = await Promise.all([
      rpc(ALICE, "tools/call", { name: "slow", arguments: { text: "a" } }),
      rpc(ALICE, "tools/call", { name: "slow", arguments: { text: "a" } }, {}),
    ]);
    expect(blocking.result?.resultType).toBe("complete");
    expect(tasked.result).toMatchObject({ resultType: "task", status: "working", ttlMs: null, pollIntervalMs: 1000 });
    const taskId = String(tasked.result?.taskId);
    expect(Date.parse(String(tasked.result?.createdAt))).not.toBeNaN();
    const done = await pollTask(ALICE, taskId);
    expect(done).toMatchObject({ resultType: "complete", taskId, status: "completed" });
    expect(done.result).toEqual(withoutMeta(blocking.result));
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "slow a" }], structuredContent: { n: 3 } });
    // An ended task says when it will be forgotten: an hour after it ended, counted from its creation.
    expect(Number(done.ttlMs)).toBeGreaterThanOrEqual(3_600_000);
  });

  it("a quick call is answered at once, as a plain result, even for a client that takes tasks", async () => {
    const answer = await rpc(ALICE, "tools/call", { name: "deploy", arguments: { env: "x" } }, {});
    expect(answer.result?.resultType).toBe("complete");
    expect(answer.result?.isError).toBe(true); // no elicitation: approval-required, as before
  });

  it("tasks/cancel aborts the call's executor, and the task ends cancelled", async () => {
    const tasked = await rpc(ALICE, "tools/call", { name: "hang", arguments: { label: "cancel-me" } });
    expect(tasked.result?.resultType).toBe("task");
    const taskId = String(tasked.result?.taskId);
    const cancel = await rpc(ALICE, "tasks/cancel", { taskId });
    expect(cancel.result?.resultType).toBe("complete");
    const task = await pollTask(ALICE, taskId);
    expect(task.status).toBe("cancelled");
    await expect.poll(() => aborted, { timeout: 5_000 }).toContain("cancel-me");
  });

  it("an approval is asked as input_required and answered with tasks/update: the call runs once", async () => {
    const asking = { elicitation: {}, extensions: { [TASKS]: {} } };
    const tasked = await rpc(ALICE, "tools/call", { name: "deploy", arguments: { env: "prod" } }, asking);
    expect(tasked.result).toMatchObject({ resultType: "task", status: "input_required" });
    const taskId = String(tasked.result?.taskId);
    const waiting = await rpc(ALICE, "tasks/get", { taskId }, asking);
    expect(waiting.result?.status).toBe("input_required");
    const requests = waiting.result?.inputRequests as Record<string, { method: string; params: { message: string } }>;
    const [key, ...others] = Object.keys(requests);
    expect(others).toEqual([]);
    expect(requests[key as string]?.method).toBe("elicitation/create");
    expect(requests[key as string]?.params.message).toMatch(
      /^Approve the call deploy \{"env":"prod"\}\? \(input sha256:/,
    );
    expect(deploys).toEqual([]);

    const update = await rpc(ALICE, "tasks/update", {
      taskId,
      inputResponses: { [key as string]: { action: "accept" } },
    });
    expect(update.result?.resultType).toBe("complete");
    const done = await pollTask(ALICE, taskId);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ content: [{ type: "text", text: "deployed prod" }] });
    // A second answer to the same question finds nothing open: it is ignored, and the call does not run again.
    await rpc(ALICE, "tasks/update", { taskId, inputResponses: { [key as string]: { action: "accept" } } });
    await sleep(200);
    expect(deploys).toEqual([{ env: "prod" }]);
    expect((await rpc(ALICE, "tasks/get", { taskId })).result?.result).toEqual(done.result);
  });

  it("two questions open at once: answering one leaves the other open, and the call goes on once both are", async () => {
    const asking = { elicitation: {}, extensions: { [TASKS]: {} } };
    const tasked = await rpc(ALICE, "tools/call", { name: "pair", arguments: {} }, asking);
    const taskId = String(tasked.result?.taskId);
    const both = await pollTask(ALICE, taskId, (task) => Object.keys(Object(task.inputRequests)).length === 2);
    expect(both.status).toBe("input_required");
    const [first, second] = Object.keys(both.inputRequests as object) as [string, string];
    await rpc(ALICE, "tasks/update", { taskId, inputResponses: { [first]: { action: "accept" } } });
    const one = (await rpc(ALICE, "tasks/get", { taskId })).result ?? {};
    expect(one.status).toBe("input_required");
    expect(Object.keys(one.inputRequests as object)).toEqual([second]);
    await rpc(ALICE, "tasks/update", { taskId, inputResponses: { [second]: { action: "decline" } } });
    const done = await pollTask(ALICE, taskId);
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "yes, no" }] } });
  });

  it("a declined approval never runs the call; the task completes with the refusal", async () => {
    const asking = { elicitation: {}, extensions: { [TASKS]: {} } };
    const tasked = await rpc(ALICE, "tools/call", { name: "deploy", arguments: { env: "staging" } }, asking);
    const taskId = String(tasked.result?.taskId);
    const waiting = await rpc(ALICE, "tasks/get", { taskId });
    const key = Object.keys(waiting.result?.inputRequests as object)[0] as string;
    await rpc(ALICE, "tasks/update", {
      taskId,
      inputResponses: { [key]: { action: "decline", content: { reason: "not today" } } },
    });
    const done = await pollTask(ALICE, taskId);
    expect(done.result).toMatchObject({ isError: true, content: [{ text: "Tool call declined: not today" }] });
    expect(deploys).toEqual([{ env: "prod" }]);
  });

  it("another principal's task is not found, as an unknown id is not; it cannot cancel it either", async () => {
    const tasked = await rpc(ALICE, "tools/call", { name: "hang", arguments: { label: "alice-only" } });
    const taskId = String(tasked.result?.taskId);
    const unknown = await rpc(BOB, "tasks/get", { taskId: "no-such-task" });
    for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
      const answer = await rpc(BOB, method, { taskId, inputResponses: {} });
      expect(answer.error).toEqual(unknown.error);
    }
    expect(unknown.error).toMatchObject({ code: -32602, message: "Failed to retrieve task: Task not found" });
    expect((await rpc(ALICE, "tasks/get", { taskId })).result?.status).toBe("working");
    expect(aborted).not.toContain("alice-only");
    await rpc(ALICE, "tasks/cancel", { taskId });
  });

  it("tasks/get from a request that does not declare the extension is refused with -32021", async () => {
    const answer = await rpc(ALICE, "tasks/get", { taskId: "whatever" }, {});
    expect(answer.error?.code).toBe(-32021);
    expect(answer.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
  });

  it("a result that is not a tool result: an isError result at once, a task failed with -32603 later", async () => {
    const quick = await rpc(ALICE, "tools/call", { name: "broken", arguments: { ms: 0 } });
    expect(quick.result?.isError).toBe(true);
    expect(JSON.stringify(quick.result?.content)).toContain("Tool broken returned an invalid result");
    const tasked = await rpc(ALICE, "tools/call", { name: "broken", arguments: { ms: 1_500 } });
    expect(tasked.result?.resultType).toBe("task");
    const failed = await pollTask(ALICE, String(tasked.result?.taskId));
    expect(failed).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect(String((failed.error as { message?: unknown }).message)).toContain("Tool broken returned an invalid result");
    expect(failed).not.toHaveProperty("result");
  });

  it("server/discover advertises the extension", async () => {
    const answer = await rpc(ALICE, "server/discover", {});
    expect(answer.result?.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
  });
});

describe("tasks.require: tools whose calls always run as tasks", { timeout: 30_000 }, () => {
  const reports: unknown[] = [];
  let only: McpServerHandle;
  let auditDir: string;
  beforeAll(async () => {
    auditDir = await mkdtemp(join(tmpdir(), "toolwire-tasks-audit-"));
    const report = defineTool({
      name: "report",
      description: "Quick, but served as a task only",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        reports.push("ran");
        return "report ready";
      },
    });
    const interview = defineTool({
      name: "interview",
      description: "Asks for a name first, then answers (served as a task only)",
      inputSchema: { type: "object", properties: {} },
      execute: async (_input, context) => {
        const answer = await context.ask?.({
          message: "Your name?",
          schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        });
        return answer?.action === "accept" ? `hired ${String(answer.content?.name)}` : "no answer";
      },
    });
    only = await serveMcp(() => createAgentSession({ registry: createToolRegistry({ custom: [report, interview] }) }), {
      transport: "http",
      port: 0,
      auth: { tokens: [{ token: ALICE, principal: "alice" }] },
      tasks: { require: ["report", "interview"], afterMs: 60_000 },
      audit: { file: join(auditDir, "audit.jsonl") },
    });
  });
  afterAll(async () => {
    await only.close();
    await rm(auditDir, { recursive: true, force: true });
  });

  it("a request that does not declare the extension is refused with -32021 naming it, and the tool does not run", async () => {
    const answer = await rpcAt(only.url as string, ALICE, "tools/call", { name: "report", arguments: {} }, {});
    expect(answer.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    expect(answer.error?.message).toContain("report runs only as a task");
    expect(reports).toEqual([]);
    const audited = () => readFile(join(auditDir, "audit.jsonl"), "utf8").catch(() => "");
    await expect.poll(audited, { timeout: 5_000 }).toMatch(/"tool":"report".*"outcome":"task-required"/);
  });

  it("a declaring client is answered with a task, however quick the call and long afterMs", async () => {
    const tasked = await rpcAt(only.url as string, ALICE, "tools/call", { name: "report", arguments: {} });
    expect(tasked.result).toMatchObject({ resultType: "task" });
    const taskId = String(tasked.result?.taskId);
    let task: Record<string, unknown> = {};
    for (let tries = 0; tries < 100 && task.status !== "completed"; tries++) {
      task = (await rpcAt(only.url as string, ALICE, "tasks/get", { taskId })).result ?? {};
      if (task.status !== "completed") await sleep(50);
    }
    expect(task).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "report ready" }] } });
    expect(reports).toEqual(["ran"]);
  });

  it("a question before the task comes as input_required, without a task; the retry that answers it gets the task", async () => {
    const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
    const call = (params: Record<string, unknown>) =>
      modernRpc(only.url as string, "tools/call", params, { token: ALICE, capabilities });
    const asked = (await call({ name: "interview", arguments: {} })).result ?? {};
    expect(asked).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    expect(asked).not.toHaveProperty("taskId");
    const [key = ""] = Object.keys(asked.inputRequests as object);
    const tasked = (
      await call({
        name: "interview",
        arguments: {},
        requestState: asked.requestState,
        inputResponses: { [key]: { action: "accept", content: { name: "Ada" } } },
      })
    ).result;
    expect(tasked).toMatchObject({ resultType: "task", taskId: expect.any(String) });
    expect(tasked).not.toHaveProperty("requestState");
    expect(tasked).not.toHaveProperty("inputRequests");
    const done = (await rpcAt(only.url as string, ALICE, "tasks/get", { taskId: String(tasked?.taskId) })).result;
    expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "hired Ada" }] } });
  });
});

describe("a task store that cannot keep a task", { timeout: 30_000 }, () => {
  it("the call is answered with an internal error naming the tool, not the store's error, and never hangs", async () => {
    const report = defineTool({
      name: "report",
      description: "Served as a task only",
      inputSchema: { type: "object", properties: {} },
      execute: () => "report ready",
    });
    const down = serveMcp(() => createAgentSession({ registry: createToolRegistry({ custom: [report] }) }), {
      transport: "http",
      port: 0,
      auth: { tokens: [{ token: ALICE, principal: "alice" }] },
      tasks: {
        require: ["report"],
        store: {
          create: () => Promise.reject(new Error("store down at 10.0.0.7")),
          get: async () => undefined,
          put: async () => {},
          close: async () => {},
        },
      },
    });
    const handle = await down;
    try {
      const answer = await rpcAt(handle.url as string, ALICE, "tools/call", { name: "report", arguments: {} });
      expect(answer.error).toMatchObject({ code: -32603, message: "The call to report could not be kept as a task" });
      expect(JSON.stringify(answer)).not.toContain("10.0.0.7");
    } finally {
      await handle.close();
    }
  });
});

describe("toolwire serve --http with serve.tasks in its config", { timeout: 60_000 }, () => {
  it("afterMs 0 answers every call of a declaring client with a task, kept ttlMs after it ended", async () => {
    const project = await tempWorkspace({
      "notes.md": "# Notes\n",
      "toolwire.config.json": JSON.stringify({ serve: { tasks: { afterMs: 0, ttlMs: 120_000, pollIntervalMs: 50 } } }),
    });
    const child = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
      cwd: project.path,
      env: cliEnv({ TOOLWIRE_SERVE_TOKEN: ALICE }),
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      const url = await serveUrlOf(child);
      const tasked = await rpcAt(url, ALICE, "tools/call", { name: "read", arguments: { path: "notes.md" } });
      expect(tasked.result).toMatchObject({ resultType: "task", pollIntervalMs: 50 });
      const taskId = String(tasked.result?.taskId);
      let task: Record<string, unknown> = {};
      for (let tries = 0; tries < 100 && task.status !== "completed"; tries++) {
        task = (await rpcAt(url, ALICE, "tasks/get", { taskId })).result ?? {};
        if (task.status !== "completed") await sleep(50);
      }
      expect(task).toMatchObject({ status: "completed", result: { content: [{ type: "text" }] } });
      expect(JSON.stringify(task.result)).toContain("# Notes");
      expect(Number(task.ttlMs)).toBeGreaterThanOrEqual(120_000);
      expect(Number(task.ttlMs)).toBeLessThan(180_000);
    } finally {
      child.kill("SIGTERM");
      await project.remove();
    }
  });
});

describe("toolwire serve over stdio with serve.tasks in its config", { timeout: 60_000 }, () => {
  it("a slow call of a declaring client becomes a task, at the config's poll interval, and completes", async () => {
    const project = await tempWorkspace({
      "slow.mjs": `export default { id: "slow", tools: (ctx) => [ctx.defineTool({
        name: "brew", description: "Takes 1.5 s", inputSchema: { type: "object", properties: {} },
        execute: () => new Promise((resolve) => setTimeout(() => resolve("brewed"), 1500)) })] };\n`,
      "toolwire.config.json": JSON.stringify({
        builtins: { enabled: false },
        plugins: [{ module: "./slow.mjs" }],
        serve: { tasks: { afterMs: 300, pollIntervalMs: 50 } },
      }),
    });
    const child = spawn(process.execPath, [CLI, "serve", "--stdio"], {
      cwd: project.path,
      env: cliEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    // Raw JSON-RPC lines, each request a 2026-07-28 one declaring the extension; answers are matched by id.
    const answers = new Map<number, Record<string, unknown>>();
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines.filter((text) => text.trim() !== "")) {
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === "number") answers.set(message.id, message);
      }
    });
    let next = 0;
    const request = async (method: string, params: Record<string, unknown>) => {
      const id = ++next;
      const _meta = modernMeta({ extensions: { [TASKS]: {} } });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } })}\n`);
      await expect.poll(() => answers.has(id), { timeout: 20_000, interval: 20 }).toBe(true);
      return answers.get(id) as { result?: Record<string, unknown>; error?: unknown };
    };
    try {
      const tasked = await request("tools/call", { name: "brew", arguments: {} });
      expect(tasked.result).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 50 });
      const taskId = String(tasked.result?.taskId);
      let task: Record<string, unknown> = {};
      for (let tries = 0; tries < 200 && task.status !== "completed"; tries++) {
        task = (await request("tasks/get", { taskId })).result ?? {};
        if (task.status !== "completed") await sleep(50);
      }
      expect(task).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "brewed" }] } });
    } finally {
      child.kill("SIGTERM");
      await project.remove();
    }
  });
});
