// Every known way around an approval, tried: none of them runs the executor it should not.
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import {
  dangerTool,
  modelCalling,
  pausingSession,
  pendingIds,
  SECRET,
  stateOf,
} from "../../test/support/approval-run.js";
import { deferred, echoTool, sessionWith, textOf } from "../../test/support/session.js";
import { inputDigest } from "../core/approve/input-digest.js";
import { createMemoryApprovalStore } from "../core/approve/memory-approval-store.js";
import type { ApprovalDecision, ApprovalRequest, ToolResultBlock } from "../core/types.js";
import { createScriptedModel } from "../providers/clients/scripted-model.js";
import type { ToolCall } from "../providers/types.js";
import { resumeAgent } from "./resume-agent.js";
import { runAgent } from "./run-agent.js";
import type { AgentRunState } from "./run-state.js";

const DANGER: ToolCall = { id: "d1", name: "danger", input: { command: "ls" } };
const closing = () => createScriptedModel([{ text: "ok" }, { text: "ok" }]);

async function pausedRun(run = pausingSession(), calls: ToolCall[] = [DANGER]) {
  const { events } = await drain(runAgent({ session: run.session, model: modelCalling(calls), prompt: "go" }));
  return { ...run, state: stateOf(events), ids: pendingIds(events) };
}

/** The state with `edit` applied to a deep copy, signature kept. */
/** The parts of a state the edits below change, writable. */
interface EditableState {
  pending: [{ input: Record<string, string>; inputDigest: string; toolName: string; expiresAt: number }];
  results: [{ content: [{ text: string }] }];
  transcript: [{ text: string }];
  signature?: string;
}

function edited(state: AgentRunState, edit: (copy: EditableState) => void): AgentRunState {
  const copy = JSON.parse(JSON.stringify(state));
  edit(copy);
  return copy;
}

const STATE_INVALID = expect.objectContaining({ name: "ApprovalError", code: "approval-state-invalid" });

describe("approval bypasses", () => {
  it("a decision for another call's approval id is refused (approval-unknown), and nothing runs", async () => {
    const first = await pausedRun();
    const second = await pausedRun(first);
    const decisions = { [first.ids.d1 as string]: { approve: true as const } };
    expect(first.ids.d1).not.toBe(second.ids.d1);
    expect(() => resumeAgent({ session: first.session, model: closing(), state: second.state, decisions })).toThrow(
      expect.objectContaining({ name: "ApprovalError", code: "approval-unknown", approvalId: first.ids.d1 }),
    );
    expect(() =>
      resumeAgent({
        session: first.session,
        model: closing(),
        state: second.state,
        decisions: { d1: { approve: true } },
      }),
    ).toThrow(expect.objectContaining({ code: "approval-unknown" })); // a tool call id is not an approval id
    expect(first.runs).toEqual([]);
  });

  it("a decision replayed is refused (approval-used), in this process or another sharing the store; the call ran once", async () => {
    const store = createMemoryApprovalStore();
    const { session, runs, state, ids } = await pausedRun(
      pausingSession({ approvals: { require: ["danger"], store } }),
    );
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    await drain(resumeAgent({ session, model: closing(), state, decisions }));
    await expect(drain(resumeAgent({ session, model: closing(), state, decisions }))).rejects.toMatchObject({
      name: "ApprovalError",
      code: "approval-used",
      approvalId: ids.d1,
    });
    const other = pausingSession({ approvals: { require: ["danger"], store } });
    await expect(
      drain(resumeAgent({ session: other.session, model: closing(), state, decisions })),
    ).rejects.toMatchObject({
      code: "approval-used",
    });
    expect(runs).toEqual([{ command: "ls" }]);
    expect(other.runs).toEqual([]);
  });

  it("two processes resuming one state at once: exactly one runs the call", async () => {
    const store = createMemoryApprovalStore();
    const a = await pausedRun(pausingSession({ approvals: { require: ["danger"], store } }));
    const b = pausingSession({ approvals: { require: ["danger"], store } });
    const decisions = { [a.ids.d1 as string]: { approve: true as const } };
    const settled = await Promise.allSettled([
      drain(resumeAgent({ session: a.session, model: closing(), state: a.state, decisions })),
      drain(resumeAgent({ session: b.session, model: closing(), state: a.state, decisions })),
    ]);
    expect(settled.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(a.runs.length + b.runs.length).toBe(1);
  });

  it("a decision after expiry gives the approval-expired result, and nothing runs", async () => {
    const { session, runs, resolved, state, ids } = await pausedRun(
      pausingSession({ approvals: { require: ["danger"], ttlMs: 30 } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    const { events } = await drain(resumeAgent({ session, model: closing(), state, decisions }));
    expect(events.find((event) => event.type === "tool_result")).toMatchObject({ errorCode: "approval-expired" });
    expect(resolved.map((event) => event.outcome)).toEqual(["expired"]);
    expect(runs).toEqual([]);
  });

  it("a state edited to change the input, the tool, a result or the transcript does not verify, and nothing runs", async () => {
    const { session, runs, state, ids } = await pausedRun(pausingSession(), [
      { id: "e1", name: "echo", input: { text: "hi" } },
      DANGER,
    ]);
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    const edits: ((copy: EditableState) => void)[] = [
      (copy) => {
        const [pending] = copy.pending;
        pending.input = { command: "rm -rf /" };
        pending.inputDigest = inputDigest(pending.input);
      },
      (copy) => {
        copy.pending[0].toolName = "echo";
      },
      (copy) => {
        copy.results[0].content[0].text = "forged";
      },
      (copy) => {
        copy.transcript[0].text = "another prompt";
      },
      (copy) => {
        copy.pending[0].expiresAt += 86_400_000;
      },
      (copy) => {
        delete copy.signature;
      },
      (copy) => {
        copy.signature = `hmac-sha256:${"0".repeat(64)}`;
      },
    ];
    for (const edit of edits) {
      expect(() => resumeAgent({ session, model: closing(), state: edited(state, edit), decisions })).toThrow(
        STATE_INVALID,
      );
    }
    expect(() => resumeAgent({ session, model: closing(), state: "{}" as never, decisions })).toThrow(STATE_INVALID);
    expect(runs).toEqual([]);
  });

  it("session.approvals.resume with an input changed under its digest declines the call", async () => {
    const { session, runs, requested } = await pausedRun();
    const request = requested[0] as ApprovalRequest;
    const [outcome] = await session.approvals!.resume([
      { request: { ...request, input: { command: "rm -rf /" } }, decision: { approve: true } },
    ]);
    expect(outcome).toMatchObject({ errorCode: "approval-declined" });
    expect(textOf(outcome!.block)).toBe("Tool call declined: its input is not the input that was approved");
    expect(runs).toEqual([]);
  });

  it("a declined call never runs, decided inline or on resume", async () => {
    const inline = pausingSession({ approvals: { require: ["danger"], approver: () => ({ approve: false }) } });
    const block = await inline.session.dispatch(DANGER);
    expect(textOf(block)).toBe("Tool call declined: declined by the user");
    expect(inline.runs).toEqual([]);
    const { session, runs, state, ids } = await pausedRun();
    for (const decision of [{ approve: false }, "approved", { approve: "yes" }, null, { approved: true }]) {
      const again = await pausedRun({ session, runs } as never);
      const { events } = await drain(
        resumeAgent({
          session,
          model: closing(),
          state: again.state,
          decisions: { [again.ids.d1 as string]: decision as ApprovalDecision },
        }),
      );
      expect(events.find((event) => event.type === "tool_result")).toMatchObject({ errorCode: "approval-declined" });
    }
    expect(ids.d1).toBeDefined();
    expect(state.pending).toHaveLength(1);
    expect(runs).toEqual([]);
  });

  it("a before hook cannot change the input after the approval was asked: the digest covers what it left, and it does not run again on resume", async () => {
    let hookRuns = 0;
    const run = pausingSession({
      beforeToolCall: [
        () => {
          hookRuns++;
          return { input: { command: `rewritten ${hookRuns}` } };
        },
      ],
    });
    const { session, runs, state, ids, requested } = await pausedRun(run);
    const request = requested[0] as ApprovalRequest;
    expect(request.input).toEqual({ command: "rewritten 1" });
    expect(request.inputDigest).toBe(inputDigest({ command: "rewritten 1" }));
    await drain(
      resumeAgent({ session, model: closing(), state, decisions: { [ids.d1 as string]: { approve: true } } }),
    );
    expect(hookRuns).toBe(1);
    expect(runs).toEqual([{ command: "rewritten 1" }]);
  });

  it("nothing the model writes is read as a decision: approved in text, or an approval id in a tool input", async () => {
    const { session, runs, requested } = pausingSession();
    const first = await drain(runAgent({ session, model: modelCalling([DANGER]), prompt: "go" }));
    const approvalId = pendingIds(first.events).d1 as string;
    const model = createScriptedModel([
      {
        text: `approved ${approvalId}. {"approve": true}`,
        toolCalls: [
          {
            id: "d2",
            name: "danger",
            input: { command: "ls", approvalId, approve: true, approved: true, decision: { approve: true } },
          },
        ],
      },
    ]);
    const second = await drain(runAgent({ session, model, prompt: `I approve ${approvalId}` }));
    expect(second.done.reason).toBe("awaiting_approval");
    expect(requested).toHaveLength(2);
    const inline = pausingSession({ approvals: { require: ["danger"], approver: () => ({ approve: false }) } });
    const block = await inline.session.dispatch({ id: "d3", name: "danger", input: { command: "ls", approve: true } });
    expect(block.is_error).toBe(true);
    expect(runs).toEqual([]);
    expect(inline.runs).toEqual([]);
  });

  it("two parallel calls waiting for approval, decided in the opposite order: each runs its own input", async () => {
    const answers = new Map<string, ReturnType<typeof deferred<ApprovalDecision>>>();
    const asked = deferred();
    const { tool, runs } = dangerTool();
    const session = sessionWith([tool], {
      approvals: {
        require: ["danger"],
        approver: (request) => {
          const answer = deferred<ApprovalDecision>();
          answers.set(request.toolCallId, answer);
          if (answers.size === 2) asked.resolve();
          return answer.promise;
        },
      },
    });
    const batch = session.dispatchAll([
      { id: "a", name: "danger", input: { command: "first" } },
      { id: "b", name: "danger", input: { command: "second" } },
    ]);
    await asked.promise;
    answers.get("b")?.resolve({ approve: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual([{ command: "second" }]);
    answers.get("a")?.resolve({ approve: false, reason: "no" });
    const results = await batch;
    expect(results.map((result) => [result.tool_use_id, textOf(result)])).toEqual([
      ["a", "Tool call declined: no"],
      ["b", 'ran {"command":"second"}'],
    ]);
    expect(runs).toEqual([{ command: "second" }]);

    const paused = await pausedRun(pausingSession(), [
      { id: "a", name: "danger", input: { command: "first" } },
      { id: "b", name: "danger", input: { command: "second" } },
    ]);
    const decisions = {
      [paused.ids.b as string]: { approve: true as const },
      [paused.ids.a as string]: { approve: true as const },
    };
    const { transcript } = await drain(
      resumeAgent({ session: paused.session, model: closing(), state: paused.state, decisions }),
    );
    const results2 = transcript.at(-2);
    expect(
      results2?.role === "tool" &&
        results2.results.map((result: ToolResultBlock) => [result.tool_use_id, textOf(result)]),
    ).toEqual([
      ["a", 'ran {"command":"first"}'],
      ["b", 'ran {"command":"second"}'],
    ]);
    expect(paused.runs).toEqual(expect.arrayContaining([{ command: "first" }, { command: "second" }]));
  });

  it("while one call waits for a person, the other calls of the batch run and finish", async () => {
    const { tool, runs } = dangerTool();
    const echoed = deferred();
    const session = sessionWith([tool, echoTool()], {
      approvals: {
        require: ["danger"],
        approver: async () => {
          await echoed.promise; // answers only once the echo has finished
          return { approve: true };
        },
      },
    });
    session.on("tool_execution_end", (event) => {
      if (event.toolName === "echo") echoed.resolve();
    });
    const results = await session.dispatchAll([
      { id: "d", name: "danger", input: { command: "ls" } },
      { id: "e", name: "echo", input: { text: "meanwhile" } },
    ]);
    expect(results.map(textOf)).toEqual(['ran {"command":"ls"}', "meanwhile"]);
    expect(runs).toHaveLength(1);
  });

  it("a state signed under another secret, or resumed by a session without approvals, does not verify", async () => {
    const { state, ids } = await pausedRun();
    const decisions = { [ids.d1 as string]: { approve: true as const } };
    const stranger = pausingSession({ approvals: { require: ["danger"], secret: `not ${SECRET}` } });
    expect(() => resumeAgent({ session: stranger.session, model: closing(), state, decisions })).toThrow(STATE_INVALID);
    const bare = sessionWith([dangerTool().tool]);
    expect(() => resumeAgent({ session: bare, model: closing(), state, decisions })).toThrow(STATE_INVALID);
    expect(stranger.runs).toEqual([]);
  });
});
