// Pausing a run for approval and resuming it: the events, the signed state, and what runs when.
import { describe, expect, it } from "vitest";
import { drain, eventTrace } from "../../test/support/agent-harness.js";
import {
  dangerTool,
  modelCalling,
  pausingSession,
  pendingIds,
  SECRET,
  stateOf,
} from "../../test/support/approval-run.js";
import { echoTool, sessionWith, textOf } from "../../test/support/session.js";
import { defineTool } from "../core/register/define-tool.js";
import type { ToolResultBlock } from "../core/types.js";
import { createScriptedModel } from "../providers/clients/scripted-model.js";
import type { ModelClient, TranscriptMessage } from "../providers/clients/types.js";
import type { ToolCall } from "../providers/types.js";
import { AgentLoopError } from "./errors.js";
import { resumeAgent } from "./resume-agent.js";
import { runAgent } from "./run-agent.js";

const ECHO: ToolCall = { id: "e1", name: "echo", input: { text: "hi" } };
const DANGER: ToolCall = { id: "d1", name: "danger", input: { command: "ls" } };
const TURN = [ECHO, DANGER];

function toolResults(transcript: readonly TranscriptMessage[]): ToolResultBlock[][] {
  return transcript.flatMap((message) => (message.role === "tool" ? [[...message.results]] : []));
}

describe("runAgent without an approver", () => {
  it("pauses: the calls needing no approval run first, then approval_required and done with a signed JSON state", async () => {
    const { session, runs, requested, ends } = pausingSession();
    const { events, done } = await drain(runAgent({ session, model: modelCalling(TURN), prompt: "go" }));
    expect(eventTrace(events)).toEqual([
      "turn_start",
      "tool_call:echo",
      "tool_call:danger",
      "tool_result:ok",
      "approval_required",
      "done:awaiting_approval",
    ]);
    expect(runs).toEqual([]);
    expect(ends.map((end) => end.toolCallId)).toEqual(["e1"]); // the paused call has not ended
    const pause = events.find((event) => event.type === "approval_required");
    expect(pause).toEqual({ type: "approval_required", turn: 1, requests: requested });
    const state = stateOf(events);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    expect(state).toMatchObject({ version: 1, turn: 1, stopReason: "tool_use" });
    expect(state.signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(state.results.map((result) => result?.tool_use_id ?? null)).toEqual(["e1", null]);
    expect(state.pending).toEqual(requested);
    expect(state.pending[0]).toMatchObject({ toolCallId: "d1", toolName: "danger", input: { command: "ls" } });
    expect(done.transcript.at(-1)).toMatchObject({ role: "assistant", toolCalls: TURN });
  });

  it("asks the session's approver when it has one, and never pauses", async () => {
    const { session, runs } = pausingSession({
      approvals: { require: ["danger"], approver: () => ({ approve: true }) },
    });
    const { events } = await drain(runAgent({ session, model: modelCalling(TURN), prompt: "go" }));
    expect(eventTrace(events)).not.toContain("approval_required");
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "completed" });
    expect(runs).toEqual([{ command: "ls" }]);
  });

  it("a session without approvals never pauses", async () => {
    const session = sessionWith([echoTool()]);
    const { done } = await drain(runAgent({ session, model: modelCalling([ECHO]), prompt: "go" }));
    expect(done.reason).toBe("completed");
    expect(done.state).toBeUndefined();
  });

  it("aborted while an approval waits: the waiting call gets an aborted result, unrun", async () => {
    const controller = new AbortController();
    const stop = defineTool({
      name: "stop",
      description: "aborts the run",
      inputSchema: { type: "object", properties: {} },
      execute: () => {
        controller.abort();
        return "stopped";
      },
    });
    const { tool, runs } = dangerTool();
    const session = sessionWith([tool, stop], { approvals: { require: ["danger"] } });
    const model = modelCalling([
      { id: "d1", name: "danger", input: { command: "ls" } },
      { id: "s1", name: "stop", input: {} },
    ]);
    const { events, transcript, done } = await drain(
      runAgent({ session, model, prompt: "go", signal: controller.signal }),
    );
    expect(done.reason).toBe("aborted");
    expect(done.state).toBeUndefined();
    const waited = events.find((event) => event.type === "tool_result" && event.call.id === "d1");
    expect(waited).toMatchObject({ errorCode: "aborted", result: { is_error: true } });
    expect(
      toolResults(transcript)
        .at(-1)
        ?.map((result) => result.tool_use_id),
    ).toEqual(["d1", "s1"]);
    expect(runs).toEqual([]);
  });

  it("a state that cannot be kept as JSON ends the waiting calls with approval-required, and the run goes on", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let turn = 0;
    const model: ModelClient = {
      name: "cyclic",
      complete: async () =>
        turn++ === 0
          ? {
              text: "",
              toolCalls: [DANGER],
              stopReason: "tool_use",
              providerMessage: { provider: "test", value: cyclic },
            }
          : { text: "ok", toolCalls: [], stopReason: "end" },
    };
    const { session, runs } = pausingSession();
    const { events, done } = await drain(runAgent({ session, model, prompt: "go" }));
    expect(done.reason).toBe("completed");
    expect(events.find((event) => event.type === "tool_result")).toMatchObject({ errorCode: "approval-required" });
    expect(runs).toEqual([]);
  });
});

describe("resumeAgent", () => {
  async function paused(options: Parameters<typeof pausingSession>[0] = {}) {
    const run = pausingSession(options);
    const { events } = await drain(runAgent({ session: run.session, model: modelCalling(TURN), prompt: "go" }));
    return { ...run, state: JSON.parse(JSON.stringify(stateOf(events))), ids: pendingIds(events) };
  }

  it("from the state's JSON: the approved call runs exactly its input, the turn ends with every result in order, the run goes on", async () => {
    const { session, runs, resolved, state, ids } = await paused();
    const model = createScriptedModel([
      {
        text: "all done",
        expect: {
          toolResults: [
            { id: "e1", isError: false, equals: "hi" },
            { id: "d1", isError: false, equals: 'ran {"command":"ls"}' },
          ],
        },
      },
    ]);
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    const { events, transcript, done } = await drain(resumeAgent({ session, model, state, decisions }));
    expect(eventTrace(events)).toEqual([
      "tool_result:ok",
      "turn_end",
      "turn_start",
      "model_text_delta",
      "model_text",
      "turn_end",
      "done:completed",
    ]);
    expect(events[1]).toEqual({ type: "turn_end", turn: 1, stopReason: "tool_use", toolCalls: 2 });
    expect(done.turns).toBe(2);
    expect(runs).toEqual([{ command: "ls" }]);
    expect(resolved).toEqual([{ approvalId: ids.d1, toolCallId: "d1", toolName: "danger", outcome: "approved" }]);
    expect(toolResults(transcript)[0]?.map((result) => [result.tool_use_id, textOf(result)])).toEqual([
      ["e1", "hi"],
      ["d1", 'ran {"command":"ls"}'],
    ]);
  });

  it("the model turns it runs stream text and tool-call deltas as runAgent's do", async () => {
    const { session, state, ids } = await paused();
    const model: ModelClient = {
      name: "streaming",
      async complete(request) {
        request.onToolCallDelta?.({ index: 0, id: "e2", name: "echo", argumentsDelta: '{"text":"again"}' });
        request.onTextDelta?.("Once more.");
        return { text: "Once more.", toolCalls: [], stopReason: "end" };
      },
    };
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    const { events } = await drain(resumeAgent({ session, model, state, decisions }));
    expect(eventTrace(events).slice(2, 6)).toEqual([
      "turn_start",
      "model_tool_call_delta",
      "model_text_delta",
      "model_text",
    ]);
    expect(events[3]).toEqual({
      type: "model_tool_call_delta",
      turn: 2,
      index: 0,
      id: "e2",
      name: "echo",
      argumentsDelta: '{"text":"again"}',
    });
  });

  it("a declined call never runs: the model reads `Tool call declined: <reason>`", async () => {
    const { session, runs, resolved, state, ids } = await paused();
    const decisions = { [ids.d1 as string]: { approve: false as const, reason: "not on main" } };
    const { events } = await drain(
      resumeAgent({ session, model: createScriptedModel([{ text: "ok" }]), state, decisions }),
    );
    const result = events.find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ errorCode: "approval-declined", result: { is_error: true } });
    expect(result?.type === "tool_result" && textOf(result.result)).toBe("Tool call declined: not on main");
    expect(runs).toEqual([]);
    expect(resolved[0]?.outcome).toBe("declined");
  });

  it("calls without a decision pause again, in a new state that carries the decided results", async () => {
    const { session, runs } = pausingSession();
    const model = modelCalling([
      { id: "d1", name: "danger", input: { command: "one" } },
      { id: "d2", name: "danger", input: { command: "two" } },
    ]);
    const first = await drain(runAgent({ session, model, prompt: "go" }));
    const ids = pendingIds(first.events);
    const second = await drain(
      resumeAgent({
        session,
        model,
        state: stateOf(first.events),
        decisions: { [ids.d2 as string]: { approve: true } },
      }),
    );
    expect(eventTrace(second.events)).toEqual(["tool_result:ok", "approval_required", "done:awaiting_approval"]);
    const again = stateOf(second.events);
    expect(again.pending.map((request) => request.approvalId)).toEqual([ids.d1]);
    expect(again.results.map((result) => result?.tool_use_id ?? null)).toEqual([null, "d2"]);
    const third = await drain(
      resumeAgent({ session, model, state: again, decisions: { [ids.d1 as string]: { approve: true } } }),
    );
    expect(third.done.reason).toBe("completed");
    expect(runs).toEqual([{ command: "two" }, { command: "one" }]);
    expect(toolResults(third.transcript)[0]?.map((result) => textOf(result))).toEqual([
      'ran {"command":"one"}',
      'ran {"command":"two"}',
    ]);
  });

  it("maxTurns counts the turns before the pause; resumeAgent's own wins", async () => {
    const { session, state, ids } = await paused();
    const { done } = await drain(
      resumeAgent({
        session,
        model: createScriptedModel([]),
        state,
        decisions: { [ids.d1 as string]: { approve: true } },
        maxTurns: 1,
      }),
    );
    expect(done.reason).toBe("max_turns");
    expect(done.turns).toBe(1);
  });

  it("resumes in another session built the same way with the same secret, and fails in one with another secret", async () => {
    const { state, ids } = await paused();
    const elsewhere = pausingSession();
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    const { done } = await drain(
      resumeAgent({ session: elsewhere.session, model: createScriptedModel([{ text: "ok" }]), state, decisions }),
    );
    expect(done.reason).toBe("completed");
    expect(elsewhere.runs).toEqual([{ command: "ls" }]);
    const stranger = pausingSession({ approvals: { require: ["danger"], secret: `${SECRET}!` } });
    expect(() => resumeAgent({ session: stranger.session, model: createScriptedModel([]), state, decisions })).toThrow(
      expect.objectContaining({ name: "ApprovalError", code: "approval-state-invalid" }),
    );
    expect(stranger.runs).toEqual([]);
  });

  it("refuses bad options at once with AgentLoopError", async () => {
    const { session, state } = await paused();
    const model = createScriptedModel([]);
    const bad = [
      { session, model, state, decisions: "yes" },
      { session, model: {}, state, decisions: {} },
      { session, model, state, decisions: {}, maxTurns: 0 },
    ];
    for (const options of bad) {
      expect(() => resumeAgent(options as never)).toThrow(AgentLoopError);
    }
  });
});
