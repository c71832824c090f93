// Calls an executor makes through its own session on its call's behalf (code mode's programs), with
// `context.nestedDispatchOptions()`: their parent on events, hooks and approvals, the outer call's abort and approver,
// whole results, and no deadlock with the write lock.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deferred, echoTool, sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type {
  AgentTool,
  ApprovalRequest,
  BeforeToolCallEvent,
  ToolCallContext,
  ToolCallOutcome,
  ToolUse,
} from "../types.js";
import type { AgentSession, AgentSessionOptions } from "./session.js";

/**
 * A tool `program` whose executor runs `body` with a dispatch that goes through `session()` with its context's
 * nested options, as code mode's run_code does; its result is the nested outcomes' texts and codes, as JSON.
 */
function programTool(
  session: () => AgentSession,
  body: (nested: (uses: ToolUse[]) => Promise<ToolCallOutcome[]>, context: ToolCallContext) => Promise<unknown>,
  options: { timeoutMs?: number } = {},
): AgentTool {
  return defineTool({
    name: "program",
    description: "Runs nested calls",
    inputSchema: { type: "object" },
    ...options,
    execute: async (_input, context) => {
      const nested = (uses: ToolUse[]) =>
        uses.length === 1
          ? session()
              .dispatchDetailed(uses[0] as ToolUse, context.nestedDispatchOptions?.())
              .then((outcome) => [outcome])
          : session().dispatchAllDetailed(uses, context.nestedDispatchOptions?.());
      return JSON.stringify(await body(nested, context));
    },
  });
}

/** What a program reports of its nested outcomes: each one's text and error code. */
function summary(outcomes: readonly ToolCallOutcome[]) {
  return outcomes.map((outcome) => ({ text: textOf(outcome.block), code: outcome.errorCode ?? null }));
}

/** A session over `program` and `tools`, built so that `program` can reach it. */
function nestingSession(
  body: Parameters<typeof programTool>[1],
  tools: AgentTool[],
  options: Omit<AgentSessionOptions, "registry"> & { programTimeoutMs?: number } = {},
): AgentSession {
  const { programTimeoutMs, ...sessionOptions } = options;
  let session: AgentSession | undefined;
  const program = programTool(() => session as AgentSession, body, { timeoutMs: programTimeoutMs });
  session = sessionWith([program, ...tools], sessionOptions);
  return session;
}

/** A tool `wait` that starts, says so, and ends only when its call is aborted. */
function waitTool(started: () => void): AgentTool {
  return defineTool({
    name: "wait",
    description: "Waits for its abort",
    inputSchema: { type: "object" },
    execute: (_input, { signal }) =>
      new Promise<string>((_resolve, reject) => {
        started();
        signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
      }),
  });
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("context.nestedDispatchOptions", () => {
  it("gives this call's signal, its id as parent, whole results, and the outer approver only when there was one", async () => {
    const seen: unknown[] = [];
    let signal: AbortSignal | undefined;
    const session = nestingSession(async (_nested, context) => {
      signal = context.signal;
      seen.push(context.nestedDispatchOptions?.());
      return "ok";
    }, []);
    const approver = () => ({ approve: true }) as const;
    await session.dispatch({ id: "p1", name: "program", input: {} });
    await session.dispatch({ id: "p2", name: "program", input: {} }, { approver, pauseForApproval: true });
    expect(seen[0]).toEqual({ signal: expect.any(AbortSignal), parentToolCallId: "p1", keepWholeResult: true });
    // `dispatch` never pauses: it takes `pauseForApproval` away before the call starts.
    expect(seen[1]).toEqual({
      signal: expect.any(AbortSignal),
      parentToolCallId: "p2",
      keepWholeResult: true,
      approver,
    });
    expect((seen[1] as { signal: AbortSignal }).signal).toBe(signal);
    const detailed: unknown[] = [];
    const pausing = nestingSession(async (_nested, context) => detailed.push(context.nestedDispatchOptions?.()), []);
    await pausing.dispatchDetailed({ id: "p3", name: "program", input: {} }, { pauseForApproval: true });
    expect(detailed[0]).toMatchObject({ parentToolCallId: "p3", pauseForApproval: true });
  });
});

describe("a nested call", () => {
  it("announces its parent on its start, phase and end events; the program's own events have none", async () => {
    const session = nestingSession(
      (nested) => nested([{ id: "p1.1", name: "echo", input: { text: "hi" } }]).then(summary),
      [echoTool()],
    );
    const events: { event: string; id: string; parent: unknown; has: boolean }[] = [];
    for (const name of ["tool_execution_start", "tool_call_phase", "tool_execution_end"] as const) {
      session.on(name, (event) =>
        events.push({
          event: name,
          id: event.toolCallId,
          parent: event.parentToolCallId,
          has: "parentToolCallId" in event,
        }),
      );
    }
    const outcome = await session.dispatchDetailed({ id: "p1", name: "program", input: {} });
    expect(JSON.parse(textOf(outcome.block))).toEqual([{ text: "hi", code: null }]);
    const nestedEvents = events.filter((entry) => entry.id === "p1.1");
    expect(nestedEvents.map((entry) => entry.event)).toEqual(
      expect.arrayContaining(["tool_execution_start", "tool_call_phase", "tool_execution_end"]),
    );
    expect(nestedEvents.every((entry) => entry.parent === "p1")).toBe(true);
    expect(events.filter((entry) => entry.id === "p1").every((entry) => !entry.has)).toBe(true);
  });

  it("is seen with its parent by before and after hooks", async () => {
    const before: BeforeToolCallEvent[] = [];
    const after: { toolCallId: string; parentToolCallId?: string }[] = [];
    const session = nestingSession(
      (nested) => nested([{ id: "p1.1", name: "echo", input: { text: "hi" } }]).then(summary),
      [echoTool()],
      {
        beforeToolCall: [(event) => void before.push(event)],
        afterToolCall: [({ toolCallId, parentToolCallId }) => void after.push({ toolCallId, parentToolCallId })],
      },
    );
    await session.dispatch({ id: "p1", name: "program", input: {} });
    expect(before.map((event) => [event.toolCallId, event.parentToolCallId])).toEqual([
      ["p1", undefined],
      ["p1.1", "p1"],
    ]);
    expect("parentToolCallId" in (before[0] as object)).toBe(false);
    expect(after).toEqual([
      { toolCallId: "p1.1", parentToolCallId: "p1" },
      { toolCallId: "p1", parentToolCallId: undefined },
    ]);
  });

  it("is aborted when the outer call is aborted", async () => {
    const running = deferred();
    const session = nestingSession(
      (nested) => nested([{ id: "p1.1", name: "wait", input: {} }]).then(summary),
      [waitTool(() => running.resolve())],
    );
    const nestedEnd = new Promise<unknown>((resolve) =>
      session.on("tool_execution_end", (event) => {
        if (event.toolCallId === "p1.1") resolve(event.errorCode);
      }),
    );
    const controller = new AbortController();
    const outer = session.dispatchDetailed({ id: "p1", name: "program", input: {} }, { signal: controller.signal });
    await running.promise;
    controller.abort(new Error("the user stopped the run"));
    expect((await outer).errorCode).toBe("aborted");
    expect(await nestedEnd).toBe("aborted");
  });

  it("is aborted when the outer call times out", async () => {
    const session = nestingSession(
      (nested) => nested([{ id: "p1.1", name: "wait", input: {} }]).then(summary),
      [waitTool(() => {})],
      { programTimeoutMs: 200 },
    );
    const nestedEnd = new Promise<unknown>((resolve) =>
      session.on("tool_execution_end", (event) => {
        if (event.toolCallId === "p1.1") resolve(event.errorCode);
      }),
    );
    expect((await session.dispatchDetailed({ id: "p1", name: "program", input: {} })).errorCode).toBe("timeout");
    expect(await nestedEnd).toBe("aborted");
  });

  it("is asked of the outer dispatch's approver, whose request names the parent", async () => {
    const gated = defineTool({
      name: "gated",
      description: "Needs approval",
      inputSchema: { type: "object" },
      execute: () => "ran",
    });
    const session = nestingSession(
      (nested) => nested([{ id: "p1.1", name: "gated", input: { n: 1 } }]).then(summary),
      [gated],
      { approvals: { require: ["gated"] } },
    );
    const requested: ApprovalRequest[] = [];
    session.on("approval_requested", (request) => requested.push(request));
    const asked: ApprovalRequest[] = [];
    const outcome = await session.dispatchDetailed(
      { id: "p1", name: "program", input: {} },
      {
        approver: (request) => {
          asked.push(request);
          return { approve: true };
        },
      },
    );
    expect(JSON.parse(textOf(outcome.block))).toEqual([{ text: "ran", code: null }]);
    expect(asked.map((request) => [request.toolCallId, request.toolName, request.parentToolCallId])).toEqual([
      ["p1.1", "gated", "p1"],
    ]);
    expect(requested[0]?.parentToolCallId).toBe("p1");
  });

  it("is left pending with its parent in the request when the outer dispatch may pause and nobody can be asked", async () => {
    const gated = defineTool({ name: "gated", description: "", inputSchema: { type: "object" }, execute: () => "ran" });
    let pending: ApprovalRequest | undefined;
    const session = nestingSession(
      async (nested) => {
        const [outcome] = await nested([{ id: "p1.1", name: "gated", input: {} }]);
        pending = outcome?.pendingApproval;
        return summary(outcome === undefined ? [] : [outcome]);
      },
      [gated],
      { approvals: { require: ["gated"] } },
    );
    await session.dispatchDetailed({ id: "p1", name: "program", input: {} }, { pauseForApproval: true });
    expect(pending).toMatchObject({ toolCallId: "p1.1", toolName: "gated", parentToolCallId: "p1" });
  });

  it("gets a result over the session's budget whole, where a model's call gets a preview and a saved file", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolwire-nested-"));
    folders.push(root);
    const text = "x".repeat(5_000);
    const big = defineTool({ name: "big", description: "", inputSchema: { type: "object" }, execute: () => text });
    const session = nestingSession(
      async (nested) => {
        const [outcome] = await nested([{ id: "p1.1", name: "big", input: {} }]);
        return { whole: outcome !== undefined && textOf(outcome.block) === text };
      },
      [big],
      { maxResultChars: 1_000, workspace: root },
    );
    const direct = await session.dispatchDetailed({ id: "d1", name: "big", input: {} });
    expect(textOf(direct.block).length).toBeLessThan(text.length);
    const program = await session.dispatchDetailed({ id: "p1", name: "program", input: {} });
    expect(JSON.parse(textOf(program.block))).toEqual({ whole: true });
    expect(readdirSync(join(root, ".toolwire", "results")).sort()).toEqual([".gitignore", "d1.txt"]);
  });
});

describe("nested calls and the write lock (held around hooks, never around an executor)", () => {
  /** A tool that says it started, then waits for `release`: two of them overlap only if they run together. */
  function meetingTool(name: string, started: () => void, release: Promise<unknown>): AgentTool {
    return defineTool({
      name,
      description: "",
      inputSchema: { type: "object" },
      execute: async () => {
        started();
        await release;
        return name;
      },
    });
  }

  it("complete with before and after hooks, in parallel batches and one by one, in both execution modes", async () => {
    for (const toolExecution of ["parallel", "sequential"] as const) {
      const hooked: string[] = [];
      const session = nestingSession(
        async (nested) => {
          const batch = await nested([
            { id: "p.1", name: "echo", input: { text: "a" } },
            { id: "p.2", name: "echo", input: { text: "b" } },
            { id: "p.3", name: "echo", input: { text: 3 } },
          ]);
          const alone = await nested([{ id: "p.4", name: "echo", input: { text: "c" } }]);
          return summary([...batch, ...alone]);
        },
        [echoTool()],
        {
          toolExecution,
          beforeToolCall: [
            async (event: BeforeToolCallEvent) => {
              await new Promise((resolve) => setImmediate(resolve));
              hooked.push(event.toolCallId);
            },
          ],
          afterToolCall: [async () => void (await new Promise((resolve) => setImmediate(resolve)))],
        },
      );
      const outcome = await session.dispatchDetailed({ id: "p", name: "program", input: {} });
      expect(JSON.parse(textOf(outcome.block))).toEqual([
        { text: "a", code: null },
        { text: "b", code: null },
        { text: expect.stringContaining("text"), code: "invalid-input" },
        { text: "c", code: null },
      ]);
      expect(hooked).toEqual(["p", "p.1", "p.2", "p.4"]);
    }
  });

  it("of one batch run at the same time, while the program holds no lock", async () => {
    const first = deferred();
    const second = deferred();
    const both = Promise.all([first.promise, second.promise]);
    const session = nestingSession(
      (nested) =>
        nested([
          { id: "p.1", name: "one", input: {} },
          { id: "p.2", name: "two", input: {} },
        ]).then(summary),
      [meetingTool("one", first.resolve, both), meetingTool("two", second.resolve, both)],
      { beforeToolCall: [() => undefined] },
    );
    const outcome = await session.dispatchDetailed({ id: "p", name: "program", input: {} });
    expect(JSON.parse(textOf(outcome.block))).toEqual([
      { text: "one", code: null },
      { text: "two", code: null },
    ]);
  });

  it("complete for two programs of one batch, each nesting calls through hooks", async () => {
    const session = nestingSession(
      (nested, context) =>
        nested([{ id: `${context.toolCallId}.1`, name: "echo", input: { text: context.toolCallId } }]).then(summary),
      [echoTool()],
      { beforeToolCall: [async () => void (await new Promise((resolve) => setImmediate(resolve)))] },
    );
    const outcomes = await session.dispatchAllDetailed([
      { id: "p", name: "program", input: {} },
      { id: "q", name: "program", input: {} },
    ]);
    expect(outcomes.map((outcome) => JSON.parse(textOf(outcome.block)))).toEqual([
      [{ text: "p", code: null }],
      [{ text: "q", code: null }],
    ]);
  });
});
