// A session's active tools as LangChain tools: createAgent or ToolNode calls them, the session dispatches every call.
import type { StructuredTool } from "@langchain/core/tools";
import type { AgentSession } from "../../core/dispatch/session.js";
import type { ApprovalOptions } from "../../core/types.js";
import { SessionStructuredTool } from "./session-structured-tool.js";

/** What `toLangChainTools` takes besides the session. */
export interface ToLangChainToolsOptions {
  /**
   * Who approves calls that the session's approvals require; wins over `approvals.approver` (see
   * `DispatchOptions.approver`).
   */
  readonly approver?: ApprovalOptions["approver"];
}

/**
 * The session's active tools, in order, as LangChain structured tools for `createAgent`, LangGraph's `ToolNode` or a
 * chat model's `bindTools`. Each has the tool's name, description and JSON Schema; a call runs
 * `session.dispatchDetailed` with the tool call's id (a fresh `call_<uuid>` without one) and the RunnableConfig's
 * abort signal, so the session's policy, validation, hooks, approvals and timeouts apply. Invoked with a ToolCall,
 * a tool answers with a ToolMessage whose `artifact` is the result's `details` and whose `status` is `"error"` for
 * an error result, its content the session's error text; progress goes to the run's callbacks (LangGraph's
 * `streamMode: "tools"`); an abort rejects with the signal's reason, as LangChain's own tools do. The list is a
 * snapshot: call again after the active set changes.
 */
export function toLangChainTools(session: AgentSession, options: ToLangChainToolsOptions = {}): StructuredTool[] {
  const dispatchOptions = options.approver === undefined ? {} : { approver: options.approver };
  return [...session.activeTools.values()].map(
    (tool) => new SessionStructuredTool(session, tool.descriptor, dispatchOptions),
  );
}
