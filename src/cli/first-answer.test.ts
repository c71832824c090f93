// firstAnswer (the terminal and the inspector's page asked at once) and approveAhead with a fallback approver.
import { describe, expect, it } from "vitest";
import { defineTool } from "../core/register/define-tool.js";
import type { ApprovalDecision, ApprovalRequest } from "../core/types.js";
import { approveAhead } from "./approve-ahead.js";
import { firstAnswer } from "./first-answer.js";

const tool = defineTool({ name: "edit", description: "Edits", inputSchema: { type: "object" }, execute: () => "ok" });
const request: ApprovalRequest = {
  approvalId: "a1",
  toolCallId: "c1",
  toolName: "edit",
  input: {},
  inputDigest: "sha256:00",
  descriptor: tool.descriptor,
  expiresAt: Date.now() + 60_000,
};

/** An approver that waits until its answer is given or its signal aborts, noting why it stopped. */
function waitingApprover() {
  let answer: (decision: ApprovalDecision) => void = () => {};
  const seen: { reason?: unknown } = {};
  const approver = (_request: ApprovalRequest, { signal }: { signal: AbortSignal }) =>
    new Promise<ApprovalDecision>((resolve) => {
      answer = resolve;
      signal.addEventListener("abort", () => {
        seen.reason = signal.reason;
        resolve({ approve: false, reason: "withdrawn" });
      });
    });
  return { approver, answer: (decision: ApprovalDecision) => answer(decision), seen };
}

describe("firstAnswer", () => {
  it("takes the first answer and withdraws the other question with the reason answered elsewhere", async () => {
    const terminal = waitingApprover();
    const page = waitingApprover();
    const decision = firstAnswer([terminal.approver, page.approver])(request, { signal: new AbortController().signal });
    await Promise.resolve();
    page.answer({ approve: true });
    expect(await decision).toEqual({ approve: true });
    expect(terminal.seen.reason).toBe("answered elsewhere");
    expect(page.seen.reason).toBeUndefined();
  });

  it("goes on with the others when one approver throws, and declines when all do", async () => {
    const page = waitingApprover();
    const broken = () => {
      throw new Error("no terminal");
    };
    const decision = firstAnswer([broken, page.approver])(request, { signal: new AbortController().signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    page.answer({ approve: false, reason: "no" });
    expect(await decision).toEqual({ approve: false, reason: "no" });
    const none = firstAnswer([broken, broken])(request, { signal: new AbortController().signal });
    expect(await none).toMatchObject({ approve: false });
  });
});

describe("approveAhead with a fallback", () => {
  it("approves what the patterns name and asks the fallback about the rest", async () => {
    const asked: string[] = [];
    const ahead = approveAhead(["read"], (next) => {
      asked.push(next.toolName);
      return { approve: false, reason: "asked" };
    });
    const signal = new AbortController().signal;
    expect(await ahead({ ...request, toolName: "read" }, { signal })).toEqual({ approve: true });
    expect(await ahead(request, { signal })).toEqual({ approve: false, reason: "asked" });
    expect(asked).toEqual(["edit"]);
  });
});
