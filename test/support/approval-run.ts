// A run that pauses for approval: a counted `danger` tool, a harmless `echo`, and sessions sharing a secret.
import type { AgentSession, AgentSessionOptions } from "../../src/core/dispatch/session.js";
import { defineTool } from "../../src/core/register/define-tool.js";
import type { ApprovalRequest, ApprovalResolvedEvent, ToolExecutionEndEvent } from "../../src/core/types.js";
import type { AgentEvent } from "../../src/loop/types.js";
import { createScriptedModel, type ScriptedTurn } from "../../src/providers/clients/scripted-model.js";
import { echoTool, sessionWith } from "./session.js";

export const SECRET = "a secret the test processes share";

/** `danger` needs approval; it counts its runs and echoes the input it ran with. */
export function dangerTool() {
  const runs: unknown[] = [];
  const tool = defineTool({
    name: "danger",
    description: "Runs a command (needs approval)",
    inputSchema: { type: "object", properties: { command: { type: "string" } }, additionalProperties: true },
    execute: (input) => {
      runs.push(input);
      return `ran ${JSON.stringify(input)}`;
    },
  });
  return { tool, runs };
}

/** A session over `danger` and `echo`, `danger` needing approval, no approver: runs pause. */
export function pausingSession(options: Omit<AgentSessionOptions, "registry"> = {}) {
  const danger = dangerTool();
  const session = sessionWith([danger.tool, echoTool()], {
    ...options,
    approvals: { require: ["danger"], secret: SECRET, ...options.approvals },
  });
  return { session, runs: danger.runs, ...recordApprovalEvents(session) };
}

/** The session's approval requests, their resolutions and the calls' ends, as they happen. */
export function recordApprovalEvents(session: AgentSession) {
  const requested: ApprovalRequest[] = [];
  const resolved: ApprovalResolvedEvent[] = [];
  const ends: ToolExecutionEndEvent[] = [];
  session.on("approval_requested", (event) => requested.push(event));
  session.on("approval_resolved", (event) => resolved.push(event));
  session.on("tool_execution_end", (event) => ends.push(event));
  return { requested, resolved, ends };
}

/** A scripted model: the given turn of calls, then a closing text turn (more turns can follow). */
export function modelCalling(calls: ScriptedTurn["toolCalls"], ...after: ScriptedTurn[]) {
  return createScriptedModel([{ toolCalls: calls }, ...(after.length > 0 ? after : [{ text: "done" }])]);
}

/** The `done` event's state, which must be there. */
export function stateOf(events: readonly AgentEvent[]) {
  const done = events.at(-1);
  if (done?.type !== "done" || done.state === undefined)
    throw new Error(`the run did not pause: ${JSON.stringify(done)}`);
  return done.state;
}

/** The approval ids a paused run waits for, by the tool call's id. */
export function pendingIds(events: readonly AgentEvent[]): Record<string, string> {
  return Object.fromEntries(stateOf(events).pending.map((request) => [request.toolCallId, request.approvalId]));
}
