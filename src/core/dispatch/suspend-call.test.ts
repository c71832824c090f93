// An executor that pauses its own call for a nested call's approval, and the call run again once decided.
import { describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { ToolCallResumption } from "../types.js";

/** `outer` asks `echo` (which needs approval) through the session and pauses on it; run again, it ends it. */
function suspendingSession() {
  const resumptions: ToolCallResumption[] = [];
  const outer = defineTool({
    name: "outer",
    description: "Calls echo on its call's behalf",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    execute: async (input, context) => {
      const { resumption } = context;
      if (resumption !== undefined) {
        resumptions.push(resumption);
        const nested = await resumption.runPausedCall();
        const again = await resumption.runPausedCall();
        return `${JSON.stringify(resumption.continuation)} ${nested.block.content[0]?.type === "text" ? nested.block.content[0].text : ""} ${again.errorCode}`;
      }
      const options = context.nestedDispatchOptions?.() ?? {};
      const nested = await session.dispatchDetailed({ id: `${context.toolCallId}.1`, name: "echo", input }, options);
      if (nested.pendingApproval === undefined) return "not paused";
      const paused = context.suspend?.({ request: nested.pendingApproval, continuation: { step: 1 } });
      return paused === true ? "stand-in" : "could not pause";
    },
  });
  const session = sessionWith([outer, echoTool()], { approvals: { require: ["echo"] } });
  return { session, resumptions };
}

describe("an executor that suspends its call", () => {
  it("ends the call paused with the nested request and its continuation, and runs it again with context.resumption", async () => {
    const { session, resumptions } = suspendingSession();
    const parent = { id: "o1", name: "outer", input: { text: "hi" } };
    const paused = await session.dispatchDetailed(parent, { pauseForApproval: true });
    expect(paused.errorCode).toBe("approval-required");
    expect(paused.pendingApproval).toMatchObject({ toolCallId: "o1.1", toolName: "echo", parentToolCallId: "o1" });
    expect(paused.continuation).toEqual({ step: 1 });
    const request = paused.pendingApproval as NonNullable<typeof paused.pendingApproval>;
    const approvals = session.approvals as NonNullable<typeof session.approvals>;
    const [ended] = await approvals.resume([
      { request, decision: { approve: true }, continuation: paused.continuation ?? null, parent },
    ]);
    expect(ended?.errorCode).toBeUndefined();
    expect(ended?.block).toMatchObject({ tool_use_id: "o1" });
    expect(ended?.block.content[0]).toEqual({ type: "text", text: '{"step":1} hi execution-failed' });
    expect(resumptions[0]?.decision).toEqual({ approve: true });
    await expect(
      approvals.resume([{ request, decision: { approve: true }, continuation: { step: 1 }, parent }]),
    ).rejects.toMatchObject({ code: "approval-used" });
  });

  it("offers no suspend when the caller cannot pause: the nested call ends with approval-required", async () => {
    const { session } = suspendingSession();
    const outcome = await session.dispatchDetailed({ id: "o2", name: "outer", input: { text: "hi" } });
    expect(outcome.block.content[0]).toEqual({ type: "text", text: "not paused" });
    expect(outcome.pendingApproval).toBeUndefined();
  });
});
