// Routes a tool's execution to a remote executor (docs/workers.md): the same descriptor and limits, another place to
// run.
import type { AgentTool, JsonObject, RemoteExecutor, ToolCallContext } from "../types.js";

const routed = new WeakMap<AgentTool, WeakMap<RemoteExecutor, AgentTool>>();

/**
 * The tool as it runs on `executor`: its descriptor, execution mode, timeout and result limit unchanged, `runsOn`
 * set to the executor's id, and `execute` handing the call to the executor with the call's own context (signal,
 * progress, log). The same object for the same tool and executor, however often it is asked for, so the registry's
 * one-wrapper-per-tool rule holds across refreshes.
 */
export function routeRemoteTool(tool: AgentTool, executor: RemoteExecutor): AgentTool {
  let byExecutor = routed.get(tool);
  if (byExecutor === undefined) {
    byExecutor = new WeakMap();
    routed.set(tool, byExecutor);
  }
  const known = byExecutor.get(executor);
  if (known !== undefined) return known;
  const toolName = tool.descriptor.name;
  const remote: AgentTool = Object.freeze({
    descriptor: tool.descriptor,
    ...(tool.executionMode === undefined ? {} : { executionMode: tool.executionMode }),
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    ...(tool.maxResultChars === undefined ? {} : { maxResultChars: tool.maxResultChars }),
    ...(tool.idempotent === undefined ? {} : { idempotent: tool.idempotent }),
    ...(tool.replay === undefined ? {} : { replay: tool.replay }),
    runsOn: executor.id,
    execute: (input: JsonObject, context: ToolCallContext) =>
      executor.execute({ toolName, toolCallId: context.toolCallId, input }, context),
  });
  byExecutor.set(executor, remote);
  return remote;
}
