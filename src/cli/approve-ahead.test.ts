// `--approve` answers ahead for the tools it names, but never for a call flow rules ask about.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../core/types.js";
import { approveAhead } from "./approve-ahead.js";

function request(reason?: "untrusted-content"): ApprovalRequest {
  return {
    approvalId: "a1",
    toolCallId: "c1",
    toolName: "bash",
    input: {},
    inputDigest: "sha256:00",
    descriptor: { name: "bash", description: "", inputSchema: { type: "object" }, owner: { kind: "core" } },
    expiresAt: Date.now() + 60_000,
    ...(reason === undefined ? {} : { reason, sources: [{ toolCallId: "p1", toolName: "page" }] }),
  };
}

describe("approveAhead", () => {
  it("approves the tools it names", () => {
    expect(approveAhead(["bash"])(request())).toEqual({ approve: true });
    expect(approveAhead(["all"])(request())).toEqual({ approve: true });
  });

  it("declines a call flow rules ask about, even with all, saying a terminal asks", () => {
    const decision = approveAhead(["all"])(request("untrusted-content"));
    expect(decision).toMatchObject({ approve: false, reason: expect.stringContaining("untrusted content") });
  });

  it("hands a call flow rules ask about to the page that asks a person", async () => {
    const asked: ApprovalRequest[] = [];
    const approver = approveAhead(["bash"], (pending) => {
      asked.push(pending);
      return { approve: false, reason: "from the page" };
    });
    const decision = await approver(request("untrusted-content"), { signal: new AbortController().signal });
    expect(decision).toEqual({ approve: false, reason: "from the page" });
    expect(asked).toHaveLength(1);
  });
});
