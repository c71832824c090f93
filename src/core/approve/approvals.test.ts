import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dangerTool, recordApprovalEvents } from "../../../test/support/approval-run.js";
import { deferred, echoTool, sessionWith, textOf } from "../../../test/support/session.js";
import type { ApprovalDecision, ApprovalRequest, JsonObject, ToolDescriptor } from "../types.js";
import { canonicalJson, inputDigest } from "./input-digest.js";
import { createMemoryApprovalStore } from "./memory-approval-store.js";

describe("approvals", () => {
  it("asks after the before hooks, for the input they left, and runs exactly that input once approved", async () => {
    const { tool, runs } = dangerTool();
    const asked: ApprovalRequest[] = [];
    const session = sessionWith([tool], {
      beforeToolCall: [() => ({ input: { command: "rewritten" } })],
      approvals: {
        require: ["danger"],
        approver: (request) => {
          asked.push(request);
          return { approve: true };
        },
      },
    });
    const events = recordApprovalEvents(session);
    const before = Date.now();
    const result = await session.dispatch({ id: "c1", name: "danger", input: { command: "original" } });
    expect(textOf(result)).toBe('ran {"command":"rewritten"}');
    expect(runs).toEqual([{ command: "rewritten" }]);
    const request = asked[0] as ApprovalRequest;
    expect(request).toMatchObject({ toolCallId: "c1", toolName: "danger", input: { command: "rewritten" } });
    expect(request.inputDigest).toBe(`sha256:${createHash("sha256").update('{"command":"rewritten"}').digest("hex")}`);
    expect(request.expiresAt).toBeGreaterThanOrEqual(before + 900_000);
    expect(request.expiresAt).toBeLessThanOrEqual(Date.now() + 900_000);
    expect(events.requested).toEqual([request]);
    expect(events.resolved).toEqual([
      { approvalId: request.approvalId, toolCallId: "c1", toolName: "danger", outcome: "approved" },
    ]);
  });

  it("a declined call never runs: its result says why, with code approval-declined", async () => {
    const { tool, runs } = dangerTool();
    const answers: ApprovalDecision[] = [{ approve: false, reason: "not today" }, { approve: false }];
    const session = sessionWith([tool], {
      approvals: { require: ["danger"], approver: () => answers.shift() as ApprovalDecision },
    });
    const events = recordApprovalEvents(session);
    expect(textOf(await session.dispatch({ id: "1", name: "danger", input: {} }))).toBe(
      "Tool call declined: not today",
    );
    expect(textOf(await session.dispatch({ id: "2", name: "danger", input: {} }))).toBe(
      "Tool call declined: declined by the user",
    );
    expect(runs).toEqual([]);
    expect(events.ends.map((end) => end.errorCode)).toEqual(["approval-declined", "approval-declined"]);
    expect(events.resolved.map((event) => event.outcome)).toEqual(["declined", "declined"]);
  });

  it("without an approver the call ends with approval-required, whatever the model wrote in its input", async () => {
    const { tool, runs } = dangerTool();
    const session = sessionWith([tool], { approvals: { require: ["danger"] } });
    const outcome = await session.dispatchDetailed({
      id: "1",
      name: "danger",
      input: { command: "approved", approve: true, approvalId: "anything" },
    });
    expect(outcome.errorCode).toBe("approval-required");
    expect(runs).toEqual([]);
  });

  it("pauseForApproval leaves the call pending for dispatchDetailed, while dispatch still answers approval-required", async () => {
    const { tool, runs } = dangerTool();
    const session = sessionWith([tool], { approvals: { require: ["danger"] } });
    const events = recordApprovalEvents(session);
    const paused = await session.dispatchDetailed(
      { id: "p1", name: "danger", input: { command: "x" } },
      { pauseForApproval: true },
    );
    expect(paused.pendingApproval).toMatchObject({ toolCallId: "p1", toolName: "danger", input: { command: "x" } });
    expect(paused.errorCode).toBe("approval-required");
    expect(events.requested).toEqual([paused.pendingApproval]);
    expect(events.ends).toEqual([]); // the paused call has not ended
    const block = await session.dispatch(
      { id: "p2", name: "danger", input: { command: "y" } },
      { pauseForApproval: true },
    );
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toContain("needs a person's approval");
    expect(events.requested).toHaveLength(1); // dispatch asked nobody and left nothing pending
    expect(runs).toEqual([]);
  });

  it("expires after ttlMs: the call ends with approval-expired and the approver's signal is aborted", async () => {
    const { tool, runs } = dangerTool();
    let approverSignal: AbortSignal | undefined;
    const session = sessionWith([tool], {
      approvals: {
        require: ["danger"],
        ttlMs: 40,
        approver: (_request, { signal }) => {
          approverSignal = signal;
          return new Promise<ApprovalDecision>(() => {});
        },
      },
    });
    const events = recordApprovalEvents(session);
    const outcome = await session.dispatchDetailed({ id: "1", name: "danger", input: {} });
    expect(outcome.errorCode).toBe("approval-expired");
    expect(approverSignal?.aborted).toBe(true);
    expect(events.resolved.map((event) => event.outcome)).toEqual(["expired"]);
    expect(runs).toEqual([]);
  });

  it("the wait holds back neither the other calls of a batch nor counts against the tool timeout", async () => {
    const { tool, runs } = dangerTool();
    const answer = deferred<ApprovalDecision>();
    const session = sessionWith([tool, echoTool()], {
      toolTimeoutMs: 30,
      approvals: { require: ["danger"], approver: () => answer.promise },
    });
    const events = recordApprovalEvents(session);
    const batch = session.dispatchAll([
      { id: "a", name: "danger", input: { command: "x" } },
      { id: "b", name: "echo", input: { text: "meanwhile" } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 80)); // longer than the tool timeout
    expect(events.ends.map((end) => end.toolCallId)).toEqual(["b"]);
    answer.resolve({ approve: true });
    const results = await batch;
    expect(results.map(textOf)).toEqual(['ran {"command":"x"}', "meanwhile"]);
    expect(runs).toHaveLength(1);
  });

  it("the wait holds no write lock and no hook timeout: another dispatch's hooks run meanwhile", async () => {
    const { tool, runs } = dangerTool();
    const answer = deferred<ApprovalDecision>();
    const hooked: string[] = [];
    const session = sessionWith([tool, echoTool()], {
      hookTimeoutMs: 20,
      beforeToolCall: [
        async ({ toolCallId }) => {
          hooked.push(toolCallId);
        },
      ],
      afterToolCall: [
        async ({ toolCallId }) => {
          hooked.push(`after ${toolCallId}`);
        },
      ],
      approvals: { require: ["danger"], approver: () => answer.promise },
    });
    const waiting = session.dispatch({ id: "a", name: "danger", input: { command: "x" } });
    const other = await session.dispatch({ id: "b", name: "echo", input: { text: "meanwhile" } }); // takes the lock
    expect(textOf(other)).toBe("meanwhile");
    await new Promise((resolve) => setTimeout(resolve, 60)); // longer than the hook timeout
    answer.resolve({ approve: true });
    expect(textOf(await waiting)).toBe('ran {"command":"x"}');
    expect(hooked).toEqual(["a", "b", "after b", "after a"]);
    expect(runs).toHaveLength(1);
  });

  it("binds each decision to its own call: two calls decided in the opposite order run with their own input", async () => {
    const { tool, runs } = dangerTool();
    const pending = new Map<string, (decision: ApprovalDecision) => void>();
    const session = sessionWith([tool], {
      approvals: {
        require: () => true,
        approver: (request) => new Promise<ApprovalDecision>((resolve) => pending.set(request.toolCallId, resolve)),
      },
    });
    const batch = session.dispatchAll([
      { id: "first", name: "danger", input: { command: "one" } },
      { id: "second", name: "danger", input: { command: "two" } },
    ]);
    while (pending.size < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    pending.get("second")?.({ approve: false, reason: "no" });
    pending.get("first")?.({ approve: true });
    const results = await batch;
    expect(results.map(textOf)).toEqual(['ran {"command":"one"}', "Tool call declined: no"]);
    expect(runs).toEqual([{ command: "one" }]);
  });

  it("a decision is claimed once: with a store that saw the id already, the call is declined", async () => {
    const { tool, runs } = dangerTool();
    const store = createMemoryApprovalStore();
    const session = sessionWith([tool], {
      approvals: {
        require: ["danger"],
        store,
        approver: (request) => {
          store.claim(request.approvalId); // someone else applied this decision first
          return { approve: true };
        },
      },
    });
    const result = await session.dispatch({ id: "1", name: "danger", input: {} });
    expect(textOf(result)).toMatch(/^Tool call declined: approval .+ was already used$/);
    expect(runs).toEqual([]);
  });

  it("a hostile or failing approver declines, an abort during the wait ends the call as aborted", async () => {
    const { tool, runs } = dangerTool();
    const { proxy, revoke } = Proxy.revocable({ approve: true }, {});
    revoke();
    const answers: (() => unknown)[] = [
      () => proxy,
      () => {
        throw new Error("ui crashed");
      },
      () => ({ approve: "yes" }),
    ];
    const session = sessionWith([tool], {
      approvals: { require: ["danger"], approver: () => (answers.shift() as () => ApprovalDecision)() },
    });
    expect(textOf(await session.dispatch({ id: "1", name: "danger", input: {} }))).toMatch(
      /^Tool call declined: the approver failed: Cannot perform 'get' on a proxy that has been revoked/,
    );
    expect(textOf(await session.dispatch({ id: "2", name: "danger", input: {} }))).toBe(
      "Tool call declined: the approver failed: ui crashed",
    );
    expect(textOf(await session.dispatch({ id: "3", name: "danger", input: {} }))).toBe(
      "Tool call declined: the approver's answer was not a decision",
    );
    const waiting = sessionWith([tool], {
      approvals: { require: ["danger"], approver: () => new Promise<ApprovalDecision>(() => {}) },
    });
    const controller = new AbortController();
    const aborted = waiting.dispatchDetailed({ id: "4", name: "danger", input: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect((await aborted).errorCode).toBe("aborted");
    expect(runs).toEqual([]);
  });

  it("calls that need no approval take the usual path", async () => {
    const session = sessionWith([echoTool()], {
      approvals: { require: ["group:runtime"], approver: () => ({ approve: false }) },
    });
    expect(textOf(await session.dispatch({ id: "1", name: "echo", input: { text: "free" } }))).toBe("free");
  });

  it("session.approvals.requires tells a loop which calls need a person, asking nobody", () => {
    const asked: string[] = [];
    const session = sessionWith([dangerTool().tool, echoTool()], {
      approvals: {
        require: ({ toolName, input }) => toolName === "danger" && input.command !== "ls",
        approver: (request) => {
          asked.push(request.toolName);
          return { approve: true };
        },
      },
    });
    const danger = session.activeTools.get("danger")?.descriptor;
    const echo = session.activeTools.get("echo")?.descriptor;
    if (danger === undefined || echo === undefined) throw new Error("the tools are missing");
    const requires = (toolName: string, input: JsonObject, descriptor: ToolDescriptor) =>
      session.approvals?.requires({ toolName, input, descriptor });
    expect(requires("danger", { command: "rm" }, danger)).toBe(true);
    expect(requires("danger", { command: "ls" }, danger)).toBe(false);
    expect(requires("echo", { text: "x" }, echo)).toBe(false);
    expect(asked).toEqual([]);
  });

  it("refuses approval options that cannot work", () => {
    expect(() => sessionWith([], { approvals: { require: "bash" as never } })).toThrow(/approvals.require/);
    expect(() => sessionWith([], { approvals: { require: [], ttlMs: 0 } })).toThrow(/approvals.ttlMs/);
  });
});

describe("what runs is what was approved", () => {
  const original = { command: "ls", options: { force: false, paths: ["a", "b"] } };
  /** Tries to change a request every way a plain object can be changed; true for each change that took. */
  function tamper(request: ApprovalRequest): boolean[] {
    const input = request.input as { command: string; options: { force: boolean; paths: string[] } };
    return [
      Reflect.set(input, "command", "rm -rf /"),
      Reflect.set(input.options, "force", true),
      Reflect.set(input.options.paths, 0, "/etc"),
      Reflect.deleteProperty(input.options.paths, 1),
      Reflect.defineProperty(input, "extra", { value: 1, enumerable: true }),
      Reflect.set(request, "expiresAt", Number.MAX_SAFE_INTEGER),
      Reflect.set(request, "approvalId", "another"),
    ];
  }

  it("an approver that changes request.input, nested too, then approves: the executor gets the input it was asked about", async () => {
    const { tool, runs } = dangerTool();
    const asked: ApprovalRequest[] = [];
    const changes: boolean[][] = [];
    const session = sessionWith([tool], {
      approvals: {
        require: ["danger"],
        approver: (request) => {
          asked.push(request);
          changes.push(tamper(request));
          return { approve: true };
        },
      },
    });
    await session.dispatch({ id: "c1", name: "danger", input: structuredClone(original) });
    expect(changes).toEqual([[false, false, false, false, false, false, false]]);
    expect(runs).toEqual([original]);
    expect(inputDigest(runs[0] as JsonObject)).toBe(asked[0]?.inputDigest);
  });

  it("an approver that changes the object the before hooks saw cannot change what runs", async () => {
    const { tool, runs } = dangerTool();
    let seen: JsonObject | undefined;
    const session = sessionWith([tool], {
      beforeToolCall: [
        ({ input }) => {
          seen = input;
          return undefined;
        },
      ],
      approvals: {
        require: ["danger"],
        approver: () => {
          const input = seen as { command: string; options: { force: boolean } };
          input.command = "rm -rf /";
          input.options.force = true;
          return { approve: true };
        },
      },
    });
    await session.dispatch({ id: "c1", name: "danger", input: structuredClone(original) });
    expect(runs).toEqual([original]);
  });

  it("approval_requested listeners and a require predicate get copies they cannot change the call through", async () => {
    const { tool, runs } = dangerTool();
    const changes: boolean[][] = [];
    const session = sessionWith([tool], {
      approvals: {
        require: ({ input }) => {
          changes.push([Reflect.set(input, "command", "from the predicate")]);
          return true;
        },
        approver: () => ({ approve: true }),
      },
    });
    session.on("approval_requested", (request) => {
      changes.push(tamper(request));
    });
    await session.dispatch({ id: "c1", name: "danger", input: structuredClone(original) });
    expect(changes).toEqual([[false], [false, false, false, false, false, false, false]]);
    expect(runs).toEqual([original]);
  });

  it("a paused call resumed with a yes runs the request's input, whatever listeners did to it meanwhile", async () => {
    const { tool, runs } = dangerTool();
    const session = sessionWith([tool], { approvals: { require: ["danger"] } });
    const changes: boolean[][] = [];
    session.on("approval_requested", (request) => {
      changes.push(tamper(request));
    });
    const paused = await session.dispatchDetailed(
      { id: "p1", name: "danger", input: structuredClone(original) },
      { pauseForApproval: true },
    );
    const request = paused.pendingApproval as ApprovalRequest;
    expect(request.input).toEqual(original);
    // A listener of the resumed call's start that keeps its input and changes it just before the executor runs.
    session.on("tool_execution_start", ({ input }) => {
      queueMicrotask(() => changes.push([Reflect.set(input as JsonObject, "command", "rm -rf /")]));
    });
    const [outcome] = await (session.approvals as NonNullable<typeof session.approvals>).resume([
      { request, decision: { approve: true } },
    ]);
    expect(outcome?.errorCode).toBeUndefined();
    expect(changes).toEqual([[false, false, false, false, false, false, false], [false]]);
    expect(runs).toEqual([original]);
  });
});

describe("inputDigest", () => {
  it("hashes the RFC 8785 canonical JSON: keys sorted by UTF-16 code units, no white space", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "\u00e9": 1.5e-7, B: { z: 0, y: -0 } })).toBe(
      '{"B":{"y":0,"z":0},"a":[true,null,"x"],"b":1,"é":1.5e-7}',
    );
    expect(inputDigest({ b: 1, a: 2 })).toBe(inputDigest({ a: 2, b: 1 }));
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: "1" }));
  });
});
