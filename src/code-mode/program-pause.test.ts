// A program whose nested call needs approval, under runAgent without an approver: it pauses, and resumes by replay.
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import { modelCalling, SECRET, stateOf } from "../../test/support/approval-run.js";
import { sessionWith, textOf } from "../../test/support/session.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { ApprovalError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { ApprovalDecision, ToolResultBlock } from "../core/types.js";
import { resumeAgent } from "../loop/resume-agent.js";
import { runAgent } from "../loop/run-agent.js";
import type { AgentRunState } from "../loop/run-state.js";
import type { AgentEvent } from "../loop/types.js";
import { createCodeMode } from "./create-code-mode.js";
import type { ProgramLedger } from "./program-ledger.js";

/** A code-mode session: `note` (free) and `danger` (needs approval), each counting the inputs it ran with. */
function codeSession() {
  const runs: { tool: string; input: unknown }[] = [];
  const counted = (name: string) =>
    defineTool({
      name,
      description: `${name}: records its input`,
      inputSchema: { type: "object", properties: { n: { type: "number" } }, additionalProperties: true },
      execute: (input) => {
        runs.push({ tool: name, input });
        return `${name} ${JSON.stringify(input)}`;
      },
    });
  const tools = [counted("note"), counted("danger")];
  const session = sessionWith(tools, { approvals: { require: ["danger"], secret: SECRET } });
  const codeMode = createCodeMode(session);
  session.registry.refresh({ custom: [...tools, codeMode.source] });
  return { session, runs };
}

const run = (code: string) => [{ id: "r1", name: "run_code", input: { code } }];

async function pauseRun(session: AgentSession, code: string) {
  const { events } = await drain(runAgent({ session, model: modelCalling(run(code)), prompt: "go" }));
  return { events, state: stateOf(events) };
}

async function resume(session: AgentSession, state: AgentRunState, decision: ApprovalDecision) {
  const approvalId = (state.pending[0] as { approvalId: string }).approvalId;
  const model = modelCalling([], { text: "done" });
  const { events } = await drain(resumeAgent({ session, model, state, decisions: { [approvalId]: decision } }));
  return events;
}

function runCodeResult(events: readonly AgentEvent[]): { block: ToolResultBlock; errorCode?: string } {
  const found = events.find((event) => event.type === "tool_result" && event.call.id === "r1");
  if (found?.type !== "tool_result") throw new Error("run_code has no result");
  return found.errorCode === undefined ? { block: found.result } : { block: found.result, errorCode: found.errorCode };
}

const ledgerOf = (state: AgentRunState) => Object.values(state.continuations ?? {})[0] as unknown as ProgramLedger;

const TWO_GATES = `
  const a = await tools.note({ n: 1 });
  const t = Date.now(), r = Math.random();
  const b = await tools.danger({ n: 2 });
  const c = await tools.note({ n: 3 });
  const d = await tools.danger({ n: 4 });
  return { a, b, c, d, t, r };
`;

describe("a program paused for approval", () => {
  it("pauses run_code with the nested call's request; resumed, earlier calls are replayed, the approved one runs once, later ones live", async () => {
    const { session, runs } = codeSession();
    const code = `
      const a = await tools.note({ n: 1 });
      const t = Date.now(), r = Math.random();
      const b = await tools.danger({ n: 2 });
      const c = await tools.note({ n: 3 });
      return { a, b, c, t, r, t2: Date.now() >= t };
    `;
    const { state } = await pauseRun(session, code);
    expect(runs).toEqual([{ tool: "note", input: { n: 1 } }]);
    expect(state.pending).toHaveLength(1);
    expect(state.pending[0]).toMatchObject({
      toolCallId: "r1.2",
      toolName: "danger",
      input: { n: 2 },
      parentToolCallId: "r1",
    });
    const ledger = ledgerOf(state);
    expect(ledger).toMatchObject({ v: 1, paused: { seq: 2, tool: "danger" } });
    expect(ledger.steps.map((step) => step.seq)).toEqual([1]);
    expect(ledger.clock.now).toHaveLength(1);
    expect(ledger.clock.random).toHaveLength(1);

    const events = await resume(session, state, { approve: true });
    expect(runs).toEqual([
      { tool: "note", input: { n: 1 } },
      { tool: "danger", input: { n: 2 } },
      { tool: "note", input: { n: 3 } },
    ]);
    const { block, errorCode } = runCodeResult(events);
    expect(errorCode).toBeUndefined();
    const value = JSON.parse(textOf(block));
    expect(value).toMatchObject({ a: 'note {"n":1}', b: 'danger {"n":2}', c: 'note {"n":3}' });
    expect(value.t).toBe(ledger.clock.now[0]);
    expect(value.r).toBe(ledger.clock.random[0]);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "completed" });
  });

  it("pauses again at a second gated call, with the ledger extended, and completes after the second decision", async () => {
    const { session, runs } = codeSession();
    const first = await pauseRun(session, TWO_GATES);
    const again = await resume(session, first.state, { approve: true });
    const second = stateOf(again);
    expect(second.pending[0]).toMatchObject({ toolCallId: "r1.4", toolName: "danger", input: { n: 4 } });
    const ledger = ledgerOf(second);
    expect(ledger.steps.map((step) => step.seq)).toEqual([1, 2, 3]);
    expect(ledger.clock).toEqual(ledgerOf(first.state).clock);
    const last = await resume(session, second, { approve: true });
    expect(runs.map((entry) => `${entry.tool}${(entry.input as { n: number }).n}`)).toEqual([
      "note1",
      "danger2",
      "note3",
      "danger4",
    ]);
    const value = JSON.parse(textOf(runCodeResult(last).block));
    expect(value.d).toBe('danger {"n":4}');
    expect(value.t).toBe(ledger.clock.now[0]);
  });

  it("declined: the program sees approval-declined, may catch it, and goes on", async () => {
    const { session, runs } = codeSession();
    const { state } = await pauseRun(
      session,
      `
      try { await tools.danger({ n: 1 }); } catch (error) { await tools.note({ n: 2 }); return error.code; }
      return "ran";
    `,
    );
    const events = await resume(session, state, { approve: false, reason: "not today" });
    expect(textOf(runCodeResult(events).block)).toBe("approval-declined");
    expect(runs).toEqual([{ tool: "note", input: { n: 2 } }]);
  });

  it("Promise.all with a gated call: the other calls of that flush end before the pause and are not run again", async () => {
    const { session, runs } = codeSession();
    const code = `
      const all = await Promise.all([tools.note({ n: 1 }), tools.danger({ n: 2 }), tools.note({ n: 3 })]);
      return all;
    `;
    const { state } = await pauseRun(session, code);
    expect(runs).toEqual([
      { tool: "note", input: { n: 1 } },
      { tool: "note", input: { n: 3 } },
    ]);
    expect(ledgerOf(state).steps.map((step) => step.seq)).toEqual([1, 3]);
    const events = await resume(session, state, { approve: true });
    expect(runs).toHaveLength(3);
    expect(JSON.parse(textOf(runCodeResult(events).block))).toEqual(['note {"n":1}', 'danger {"n":2}', 'note {"n":3}']);
  });

  it("a tampered ledger is approval-state-invalid; a decision used twice is approval-used", async () => {
    const { session, runs } = codeSession();
    const { state } = await pauseRun(session, TWO_GATES);
    const ledger = ledgerOf(state);
    const approvalId = state.pending[0]?.approvalId as string;
    const tampered = {
      ...state,
      continuations: { [approvalId]: { ...ledger, steps: [] } },
    } as unknown as AgentRunState;
    const model = modelCalling([], { text: "done" });
    expect(() =>
      resumeAgent({ session, model, state: tampered, decisions: { [approvalId]: { approve: true } } }),
    ).toThrow(expect.objectContaining({ code: "approval-state-invalid" }));
    await resume(session, state, { approve: true });
    const reused = resume(session, state, { approve: true });
    await expect(reused).rejects.toBeInstanceOf(ApprovalError);
    await expect(resume(session, state, { approve: true })).rejects.toMatchObject({ code: "approval-used" });
    expect(runs.filter((entry) => entry.tool === "danger")).toHaveLength(1);
  });

  it("a program that asks something else at a ledger step ends with code-replay-diverged, nothing run", async () => {
    const { session, runs } = codeSession();
    const { state } = await pauseRun(session, TWO_GATES);
    const ledger = ledgerOf(state);
    const request = state.pending[0] as AgentRunState["pending"][number];
    const approvals = session.approvals as NonNullable<AgentSession["approvals"]>;
    const parent = { id: "r1", name: "run_code", input: { code: TWO_GATES } };
    const changed = { ...ledger, steps: ledger.steps.map((step) => ({ ...step, inputDigest: "sha256:other" })) };
    const before = runs.length;
    const [outcome] = await approvals.resume([
      { request, decision: { approve: true }, continuation: changed as never, parent },
    ]);
    expect(outcome?.errorCode).toBe("code-replay-diverged");
    expect(runs).toHaveLength(before);
    const { state: other } = await pauseRun(session, TWO_GATES);
    const otherRequest = other.pending[0] as AgentRunState["pending"][number];
    const [differentCode] = await approvals.resume([
      {
        request: otherRequest,
        decision: { approve: true },
        continuation: ledgerOf(other) as never,
        parent: { ...parent, input: { code: `${TWO_GATES}\n// changed` } },
      },
    ]);
    expect(differentCode?.errorCode).toBe("code-replay-diverged");
    expect(runs.filter((entry) => entry.tool === "danger")).toHaveLength(0);
  });

  it("a ledger over its cap does not pause: the gated call ends with approval-required inside the program", async () => {
    const { session, runs } = codeSession();
    const { events } = await drain(
      runAgent({
        session,
        model: modelCalling(
          run(`
            for (let i = 0; i < 250000; i++) Math.random();
            try { await tools.danger({ n: 1 }); } catch (error) { return error.code; }
          `),
        ),
        prompt: "go",
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "completed" });
    expect(textOf(runCodeResult(events).block)).toBe("approval-required");
    expect(runs).toEqual([]);
  });
});
