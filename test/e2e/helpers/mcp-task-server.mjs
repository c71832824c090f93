// A raw JSON-RPC MCP server over stdio speaking 2026-07-28 (no SDK, so a test controls every byte): tools that ask
// for input with input_required (SEP-2322) and tools answered with tasks (io.modelcontextprotocol/tasks, SEP-2663).
// Every request it gets is written to stderr as `got <method> <taskId?>`, so a test can see what the bridge sent.
//
// Tools:
// - `confirm`: input_required with an elicitation (a form with a `note` defaulting to "default note") and
//   requestState "state-1"; the retry carrying that state and an accept answers `confirmed: <note>`; a retry with
//   any other state answers an isError result naming it.
// - `slow`: a task (poll interval 200 ms) that completes after about 1 s with `slow done`.
// - `ask_later`: a task that, at its first poll, needs a name (input_required in tasks/get); after tasks/update it
//   completes with `hello <name>`; a declined answer completes it with an isError result.
// - `forever`: a task that never ends until tasks/cancel, which the server logs as `cancelled <taskId>`.
// - `fails`: a task that fails with a JSON-RPC error (-32603 "disk full").
// A task tool called by a client that did not declare the tasks extension gets -32021.
import { createInterface } from "node:readline";

const VERSION = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const result = (id, body) => send({ id, result: { resultType: "complete", ...body } });
const text = (value, isError) => ({ content: [{ type: "text", text: value }], ...(isError ? { isError: true } : {}) });
const tool = (name) => ({ name, description: `Tool ${name}`, inputSchema: { type: "object", properties: {} } });
const NOTE_FORM = {
  mode: "form",
  message: "Add a note to the confirmation",
  requestedSchema: { type: "object", properties: { note: { type: "string", default: "default note" } } },
};
const NAME_FORM = {
  mode: "form",
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};

/** taskId → { status, startedAt, kind, result?, error?, inputRequests?, answered } */
const tasks = new Map();
let taskCount = 0;

function newTask(kind) {
  const taskId = `task-${kind}-${++taskCount}`;
  const task = { taskId, kind, status: "working", startedAt: Date.now(), answered: false };
  tasks.set(taskId, task);
  return task;
}

function view(task) {
  const now = new Date().toISOString();
  const shown = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.startedAt).toISOString(),
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 200,
  };
  if (task.status === "completed") shown.result = task.result;
  if (task.status === "failed") shown.error = task.error;
  if (task.status === "input_required") shown.inputRequests = task.inputRequests;
  return shown;
}

/** Moves a task along by the time passed and what it was told. */
function advance(task) {
  if (task.status !== "working" && task.status !== "input_required") return;
  const elapsed = Date.now() - task.startedAt;
  if (task.kind === "slow" && elapsed >= 1000) Object.assign(task, { status: "completed", result: text("slow done") });
  if (task.kind === "fails") Object.assign(task, { status: "failed", error: { code: -32603, message: "disk full" } });
  if (task.kind === "ask_later" && !task.answered) {
    Object.assign(task, {
      status: "input_required",
      inputRequests: { name: { method: "elicitation/create", params: NAME_FORM } },
    });
  }
}

function declaredTasks(params) {
  const capabilities = params?._meta?.["io.modelcontextprotocol/clientCapabilities"];
  return capabilities?.extensions?.[TASKS] !== undefined;
}

function callTool(id, params) {
  const name = params.name;
  if (name === "confirm") {
    if (params.requestState === undefined) {
      return result(id, {
        resultType: "input_required",
        inputRequests: { confirm: { method: "elicitation/create", params: NOTE_FORM } },
        requestState: "state-1",
      });
    }
    if (params.requestState !== "state-1") return result(id, text(`bad state ${params.requestState}`, true));
    const answer = params.inputResponses?.confirm;
    if (answer?.action !== "accept") return result(id, text(`not confirmed: ${answer?.action}`, true));
    return result(id, text(`confirmed: ${answer.content?.note}`));
  }
  if (["slow", "ask_later", "forever", "fails"].includes(name)) {
    if (!declaredTasks(params)) {
      return send({
        id,
        error: {
          code: -32021,
          message: "Missing required client capability",
          data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
        },
      });
    }
    const task = newTask(name);
    return send({ id, result: { resultType: "task", ...view(task) } });
  }
  return send({ id, error: { code: -32602, message: `Unknown tool ${name}` } });
}

// STARTUP_DELAY_MS: reads nothing for that long (a server slow to start); requests wait in the pipe meanwhile.
const startupDelay = Number(process.env.STARTUP_DELAY_MS ?? 0);
setTimeout(() => createInterface({ input: process.stdin }).on("line", onLine), startupDelay);

function onLine(line) {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  const { id, method, params } = message;
  process.stderr.write(`got ${method}${params?.taskId ? ` ${params.taskId}` : ""}\n`);
  if (method === "server/discover") {
    return result(id, {
      ttlMs: 0,
      cacheScope: "private",
      supportedVersions: [VERSION],
      capabilities: { tools: {}, extensions: { [TASKS]: {} } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "task-fixture", version: "1.0.0" } },
    });
  }
  if (method === "tools/list")
    return result(id, {
      tools: ["confirm", "slow", "ask_later", "forever", "fails"].map(tool),
      ttlMs: 0,
      cacheScope: "private",
    });
  if (method === "tools/call") return callTool(id, params);
  const task = tasks.get(params?.taskId);
  if (method.startsWith("tasks/") && task === undefined)
    return send({ id, error: { code: -32602, message: "Unknown task" } });
  if (method === "tasks/get") {
    advance(task);
    return result(id, view(task));
  }
  if (method === "tasks/update") {
    const answer = params.inputResponses?.name;
    if (task.status === "input_required" && answer !== undefined) {
      task.answered = true;
      Object.assign(task, {
        status: "completed",
        inputRequests: undefined,
        result:
          answer.action === "accept" ? text(`hello ${answer.content?.name}`) : text(`no name: ${answer.action}`, true),
      });
    }
    return result(id, {});
  }
  if (method === "tasks/cancel") {
    process.stderr.write(`cancelled ${task.taskId}\n`);
    if (task.status === "working" || task.status === "input_required") task.status = "cancelled";
    return result(id, {});
  }
  send({ id, error: { code: -32601, message: "Method not found" } });
}
