// tool_call_phase: each stretch of a call's life, in order, with its start and length; gaps become `queued`.
import { describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { ToolCallPhaseEvent } from "../types.js";
import type { AgentSession } from "./session.js";

function recordPhases(session: AgentSession): ToolCallPhaseEvent[] {
  const phases: ToolCallPhaseEvent[] = [];
  session.on("tool_call_phase", (event) => phases.push(event));
  return phases;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function slowTool(name: string, ms: number) {
  return defineTool({
    name,
    description: `Takes ${ms} ms`,
    inputSchema: { type: "object" },
    execute: async () => {
      await sleep(ms);
      return "done";
    },
  });
}

describe("tool_call_phase", () => {
  it("reports hooks, the approval wait and the executor in the order they ran", async () => {
    const session = sessionWith([slowTool("slow", 20)], {
      beforeToolCall: [
        async () => {
          await sleep(5);
        },
      ],
      afterToolCall: [() => undefined],
      approvals: { require: ["slow"], approver: () => sleep(10).then(() => ({ approve: true }) as const) },
    });
    const phases = recordPhases(session);
    let startedAt = 0;
    session.on("tool_execution_start", (event) => {
      startedAt = event.startedAt;
    });
    await session.dispatch({ id: "c1", name: "slow", input: {} });
    // A busy machine may pass the call on slowly between phases: such a wait shows as queued.
    const worked = phases.filter((phase) => phase.phase !== "queued");
    expect(worked.map((phase) => phase.phase)).toEqual([
      "validate",
      "before_hooks",
      "approval",
      "execute",
      "after_hooks",
    ]);
    expect(phases.every((phase) => phase.toolCallId === "c1" && phase.toolName === "slow")).toBe(true);
    const [validate, before, approval, execute] = worked as [
      ToolCallPhaseEvent,
      ToolCallPhaseEvent,
      ToolCallPhaseEvent,
      ToolCallPhaseEvent,
    ];
    expect(before.durationMs).toBeGreaterThanOrEqual(4);
    expect(approval.durationMs).toBeGreaterThanOrEqual(9);
    expect(execute.durationMs).toBeGreaterThanOrEqual(19);
    expect(Math.abs(startedAt - Date.now())).toBeLessThan(5_000);
    for (let i = 1; i < phases.length; i++) {
      const previous = phases[i - 1] as ToolCallPhaseEvent;
      expect((phases[i] as ToolCallPhaseEvent).startedAt).toBeGreaterThanOrEqual(
        previous.startedAt + previous.durationMs - 0.01,
      );
    }
    expect(validate.startedAt).toBeCloseTo(startedAt, 3);
  });

  it("a call that waits for a sequential one before it reports the wait as queued", async () => {
    const alone = defineTool({
      name: "alone",
      description: "Runs alone",
      inputSchema: { type: "object" },
      executionMode: "sequential",
      execute: () => sleep(15).then(() => "done"),
    });
    const session = sessionWith([alone, echoTool()]);
    const phases = recordPhases(session);
    await session.dispatchAll([
      { id: "a", name: "alone", input: {} },
      { id: "b", name: "alone", input: {} },
    ]);
    const second = phases.filter((phase) => phase.toolCallId === "b").map((phase) => phase.phase);
    expect(second).toEqual(["validate", "queued", "execute"]);
    const queued = phases.find((phase) => phase.toolCallId === "b" && phase.phase === "queued");
    expect(queued?.durationMs).toBeGreaterThanOrEqual(14);
    const first = phases.filter((phase) => phase.toolCallId === "a" && phase.phase !== "queued");
    expect(first.map((phase) => phase.phase)).toEqual(["validate", "execute"]); // queued only for b's validation
  });

  it("a phase the executor reports lies inside execute and is not counted as a wait", async () => {
    const staged = defineTool({
      name: "staged",
      description: "Reports its warm-up",
      inputSchema: { type: "object" },
      execute: async (_input, call) => {
        const start = performance.now();
        await sleep(5);
        call.phase?.("warm_up", start);
        return "ok";
      },
    });
    const session = sessionWith([staged]);
    const phases = recordPhases(session);
    await session.dispatch({ id: "s", name: "staged", input: {} });
    const worked = phases.filter((phase) => phase.phase !== "queued"); // a busy machine's wait between phases
    expect(worked.map((phase) => phase.phase)).toEqual(["validate", "warm_up", "execute"]);
    const [, warm, execute] = worked as [ToolCallPhaseEvent, ToolCallPhaseEvent, ToolCallPhaseEvent];
    expect(warm.startedAt).toBeGreaterThanOrEqual(execute.startedAt - 0.01);
    expect(warm.startedAt + warm.durationMs).toBeLessThanOrEqual(execute.startedAt + execute.durationMs + 0.01);
  });

  it("carries the error code of the phase a call failed in", async () => {
    const session = sessionWith([echoTool()], { beforeToolCall: [() => ({ block: true, reason: "no" })] });
    const phases = recordPhases(session);
    await session.dispatch({ id: "x", name: "echo", input: { text: "a" } });
    const worked = phases.filter((phase) => phase.phase !== "queued"); // a busy machine's wait between phases
    expect(worked).toEqual([
      expect.objectContaining({ phase: "validate" }),
      expect.objectContaining({ phase: "before_hooks", errorCode: "blocked-by-hook" }),
    ]);
    expect(worked[0]?.errorCode).toBeUndefined();
  });

  it("a refused call ends in validate, with its error code", async () => {
    const session = sessionWith([echoTool()]);
    const phases = recordPhases(session);
    await session.dispatch({ id: "x", name: "missing", input: {} });
    await session.dispatch({ id: "y", name: "echo", input: { text: 1 } });
    expect(phases.map(({ phase, errorCode }) => [phase, errorCode])).toEqual([
      ["validate", "tool-not-found"],
      ["validate", "invalid-input"],
    ]);
  });
});
