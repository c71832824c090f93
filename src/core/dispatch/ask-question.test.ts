// context.ask: a running call's own question, answered by the caller's `ask` with the form, else by an approver's yes.
import { describe, expect, it } from "vitest";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { ApprovalRequest, AskedQuestion, ToolCallContext, ToolQuestion } from "../types.js";

const FORM = {
  type: "object",
  properties: { branch: { type: "string", default: "main" }, force: { type: "boolean" } },
};

/** A tool that asks `question` (or reports that it cannot) and returns the answer as JSON. */
function askingTool(question: unknown = { message: "Which branch?", schema: FORM }) {
  const contexts: ToolCallContext[] = [];
  const tool = defineTool({
    name: "deployer",
    description: "asks before it deploys",
    inputSchema: { type: "object", properties: { env: { type: "string" } } },
    execute: async (_input, context) => {
      contexts.push(context);
      if (context.ask === undefined) return "nobody to ask";
      return JSON.stringify(await context.ask(question as ToolQuestion));
    },
  });
  return { tool, contexts };
}

describe("context.ask", () => {
  it("is answered by the dispatch's ask, which gets the question with the call's id and tool name", async () => {
    const { tool } = askingTool();
    const asked: AskedQuestion[] = [];
    const block = await sessionWith([tool]).dispatch(
      { id: "d1", name: "deployer", input: { env: "prod" } },
      {
        ask: (question) => {
          asked.push(question);
          return { action: "accept", content: { branch: "release", force: true } };
        },
      },
    );
    expect(JSON.parse(textOf(block))).toEqual({ action: "accept", content: { branch: "release", force: true } });
    expect(asked).toEqual([{ toolCallId: "d1", toolName: "deployer", message: "Which branch?", schema: FORM }]);
  });

  it("is absent when nobody can answer: no ask, no approver", async () => {
    const { tool, contexts } = askingTool();
    const block = await sessionWith([tool]).dispatch({ id: "d2", name: "deployer", input: {} });
    expect(textOf(block)).toBe("nobody to ask");
    expect(contexts[0]?.ask).toBeUndefined();
  });

  it("asks the session's approver for a yes, with the question on the request: yes accepts with the defaults", async () => {
    const { tool } = askingTool();
    const requests: ApprovalRequest[] = [];
    const session = sessionWith([tool], {
      approvals: {
        require: [],
        approver: (request) => {
          requests.push(request);
          return { approve: true };
        },
      },
    });
    const events: string[] = [];
    session.on("approval_requested", (request) => events.push(`requested ${request.toolName}`));
    session.on("approval_resolved", (event) => events.push(`${event.outcome} ${event.toolName}`));
    const block = await session.dispatch({ id: "d3", name: "deployer", input: { env: "prod" } });
    expect(JSON.parse(textOf(block))).toEqual({ action: "accept", content: { branch: "main" } });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      toolCallId: "d3",
      toolName: "deployer",
      input: { env: "prod" },
      question: { message: "Which branch?", schema: FORM },
    });
    expect(Object.isFrozen(requests[0]?.question)).toBe(true);
    expect(events).toEqual(["requested deployer", "approved deployer"]);
  });

  it("gives decline when the approver says no, and the dispatch's approver wins over the session's", async () => {
    const { tool } = askingTool();
    const session = sessionWith([tool], { approvals: { require: [], approver: () => ({ approve: true }) } });
    const block = await session.dispatch(
      { id: "d4", name: "deployer", input: {} },
      { approver: () => ({ approve: false, reason: "not today" }) },
    );
    expect(JSON.parse(textOf(block))).toEqual({ action: "decline" });
  });

  it("refuses, without asking, a form whose required field has no default when only a yes or no can answer", async () => {
    const { tool } = askingTool({ message: "Why?", schema: { ...FORM, required: ["force", "branch"] } });
    let asked = 0;
    const session = sessionWith([tool], {
      approvals: {
        require: [],
        approver: () => {
          asked++;
          return { approve: true };
        },
      },
    });
    const block = await session.dispatch({ id: "d5", name: "deployer", input: {} });
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toContain('asked "Why?", which needs force; only a yes or no can be given here');
    expect(asked).toBe(0);
  });

  it("rejects a question that is not { message, schema? } with a TypeError the executor can catch", async () => {
    for (const bad of [
      { message: 3 },
      { message: "ok", schema: "form" },
      null,
      { message: "x", schema: [] },
      { message: 1n },
      { message: "x", key: "" },
      { message: "x", key: 7 },
      { message: "x", key: "k".repeat(129) },
    ]) {
      const { tool } = askingTool(bad);
      const block = await sessionWith([tool]).dispatch(
        { id: "d6", name: "deployer", input: {} },
        { ask: () => ({ action: "accept" }) },
      );
      expect(block.is_error).toBe(true);
      expect(textOf(block)).toContain("context.ask takes { message: string, schema?: object, key?: string }");
    }
  });

  it("reads an answer that is not one of the three actions as cancel", async () => {
    const { tool } = askingTool();
    for (const odd of [{ action: "yes" }, "accept", { action: "accept", content: [1] }]) {
      const block = await sessionWith([tool]).dispatch(
        { id: "d7", name: "deployer", input: {} },
        { ask: () => odd as never },
      );
      expect(JSON.parse(textOf(block))).toEqual({ action: "cancel" });
    }
  });

  it("stops waiting when the call is aborted: the approver's wait is aborted and the call ends aborted", async () => {
    const { tool } = askingTool();
    const controller = new AbortController();
    let approverSignal: AbortSignal | undefined;
    const session = sessionWith([tool], {
      approvals: {
        require: [],
        approver: (_request, { signal }) => {
          approverSignal = signal;
          setTimeout(() => controller.abort(), 10);
          return new Promise(() => undefined);
        },
      },
    });
    const outcome = await session.dispatchDetailed(
      { id: "d8", name: "deployer", input: {} },
      { signal: controller.signal },
    );
    expect(outcome.errorCode).toBe("aborted");
    expect(approverSignal?.aborted).toBe(true);
  });

  it("passes the dispatch's ask on to the calls an executor makes", async () => {
    const { tool } = askingTool();
    const outer = defineTool({
      name: "outer",
      description: "calls deployer",
      inputSchema: { type: "object" },
      execute: async (_input, context) => {
        const block = await session.dispatch(
          { id: "inner", name: "deployer", input: {} },
          context.nestedDispatchOptions?.(),
        );
        return textOf(block);
      },
    });
    const session = sessionWith([tool, outer]);
    const asked: string[] = [];
    const block = await session.dispatch(
      { id: "o1", name: "outer", input: {} },
      {
        ask: (question) => {
          asked.push(question.toolCallId);
          return { action: "decline" };
        },
      },
    );
    expect(JSON.parse(textOf(block))).toEqual({ action: "decline" });
    expect(asked).toEqual(["inner"]);
  });
});
