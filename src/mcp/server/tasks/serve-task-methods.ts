// tasks/get, tasks/update and tasks/cancel on one server instance, for the principal it serves.
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { isRecord } from "../../../core/json.js";
import type { ServedTasks } from "./served-tasks.js";
import { taskOnTheWire } from "./task-record.js";

/** The extension's identifier, in capabilities (the server's, and each request's client capabilities). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The tasks a server instance serves: the server's tasks, seen as one principal. */
export interface PrincipalTasks {
  readonly principal: string;
  readonly served: ServedTasks;
}

/** Whether a 2026-07-28 request declared the tasks extension in its client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  const declared = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY];
  return isRecord(declared) && isRecord(declared.extensions) && isRecord(declared.extensions[TASKS_EXTENSION]);
}

type TaskParams = { readonly taskId: string; readonly inputResponses?: Record<string, unknown> };

/** The params of the three methods: a `taskId` string, and for tasks/update an `inputResponses` object. */
const TASK_PARAMS = {
  "~standard": {
    version: 1 as const,
    vendor: "toolwire",
    types: undefined as unknown as { readonly input: unknown; readonly output: TaskParams },
    validate(value: unknown) {
      if (!isRecord(value) || typeof value.taskId !== "string") {
        return { issues: [{ message: "params.taskId must be a string" }] };
      }
      if (value.inputResponses !== undefined && !isRecord(value.inputResponses)) {
        return { issues: [{ message: "params.inputResponses must be an object" }] };
      }
      return { value: value as TaskParams };
    },
  },
};

/** Registers the three methods; each refuses a client that did not declare the extension (-32021). */
export function registerTaskMethods(server: Server, tasks: PrincipalTasks): void {
  const { principal, served } = tasks;
  const checked = (ctx: ServerContext) => {
    if (!declaresTasks(ctx)) {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `Missing required client capability: declare the ${TASKS_EXTENSION} extension to use tasks`,
      );
    }
  };
  const notFound = () => new ProtocolError(ProtocolErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
  server.setRequestHandler("tasks/get", { params: TASK_PARAMS }, async (params, ctx) => {
    checked(ctx);
    const record = await served.get(principal, params.taskId);
    if (record === undefined) throw notFound();
    return taskOnTheWire(record);
  });
  server.setRequestHandler("tasks/update", { params: TASK_PARAMS }, async (params, ctx) => {
    checked(ctx);
    // The SDK lifts a request's inputResponses out of its params (as it does for a multi round-trip retry).
    const responses = params.inputResponses ?? (ctx.mcpReq.inputResponses as Record<string, unknown> | undefined) ?? {};
    if (!(await served.update(principal, params.taskId, responses))) throw notFound();
    return {};
  });
  server.setRequestHandler("tasks/cancel", { params: TASK_PARAMS }, async (params, ctx) => {
    checked(ctx);
    if (!(await served.cancel(principal, params.taskId))) throw notFound();
    return {};
  });
}
