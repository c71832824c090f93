// A session's active tools as pi AgentTools: pi's agent loop calls them, the session dispatches every call.
import type { AgentSession } from "../../core/dispatch/session.js";
import type { ApprovalOptions, JsonObject } from "../../core/types.js";
import { ToolCallFailedError } from "../tool-call-failed-error.js";
import type { PiAgentTool, PiToolResult } from "./pi-agent-tool.js";
import { piReadsErrorResults } from "./pi-reads-error-results.js";
import { toPiContent } from "./to-pi-content.js";

/** What `toPiTools` takes besides the session. */
export interface ToPiToolsOptions {
  /**
   * Who approves calls that the session's approvals require; wins over `approvals.approver` (see
   * `DispatchOptions.approver`).
   */
  readonly approver?: ApprovalOptions["approver"];
}

/**
 * The session's active tools, in order, as pi `AgentTool`s for pi's `Agent` or `agentLoop`. Each `execute` runs
 * `session.dispatchDetailed` with pi's tool call id and abort signal, so the session's policy, validation, hooks,
 * approvals and timeouts apply, and its `tool_execution_update` progress reaches pi's `onUpdate`. A result comes
 * back as `{ content, details }` (audio, resources and links as text, which is all pi's results carry besides
 * images). An error result goes back as one with `isError: true` under pi 1; under pi 0.73, which reads a failure
 * only from a throw, it is thrown as `ToolCallFailedError`, and pi's loop turns it into an error result with that
 * text. The list is a snapshot: call again after the active set changes.
 */
export function toPiTools(session: AgentSession, options: ToPiToolsOptions = {}): PiAgentTool[] {
  const dispatchOptions = options.approver === undefined ? {} : { approver: options.approver };
  return [...session.activeTools.values()].map((tool): PiAgentTool => {
    const { descriptor } = tool;
    const { name } = descriptor;
    return {
      name,
      label: descriptor.title ?? name,
      description: descriptor.description,
      // Plain JSON Schema: pi sends it to the model and checks arguments with it, as it does a TypeBox schema.
      parameters: descriptor.inputSchema,
      ...(tool.executionMode === undefined ? {} : { executionMode: tool.executionMode }),
      async execute(toolCallId, params, signal, onUpdate) {
        const outcome = await session.dispatchDetailed(
          { id: toolCallId, name, input: params as JsonObject },
          {
            ...dispatchOptions,
            ...(signal === undefined ? {} : { signal }),
            ...(onUpdate === undefined
              ? {}
              : {
                  onUpdate: (partial) => onUpdate({ content: toPiContent(partial.content), details: partial.details }),
                }),
          },
        );
        const { result } = outcome;
        const piResult: PiToolResult = { content: toPiContent(result.content), details: result.details };
        if (result.isError !== true) return piResult;
        if (!(await piReadsErrorResults())) throw new ToolCallFailedError(name, toolCallId, outcome);
        return { ...piResult, isError: true };
      },
    };
  });
}
