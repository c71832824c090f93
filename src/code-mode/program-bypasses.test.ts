// What a program must not get around: approvals, policy, the session's copy of results. Each way tried fails inside it.
import { describe, expect, it } from "vitest";
import { sessionWith, textOf } from "../../test/support/session.js";
import type { AgentSessionOptions } from "../core/dispatch/session.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { AgentTool } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { createCodeMode } from "./create-code-mode.js";

function runner(tools: AgentTool[], options: Omit<AgentSessionOptions, "registry"> = {}) {
  const session = sessionWith(tools, options);
  const codeMode = createCodeMode(session);
  session.registry.refresh({ custom: [...tools, codeMode.source] });
  return async (code: string) => {
    const outcome = await session.dispatchDetailed({ id: "p1", name: "run_code", input: { code } });
    return { outcome, text: textOf(outcome.block) };
  };
}

/** A tool whose structuredContent has a getter `value`. */
function returningGetter(name: string, get: () => unknown): AgentTool {
  return defineTool({
    name,
    description: "Returns a getter",
    inputSchema: { type: "object" },
    execute: () => {
      const structuredContent = {};
      Object.defineProperty(structuredContent, "value", { enumerable: true, get });
      return { content: [{ type: "text", text: "t" }], details: { structuredContent } };
    },
  });
}

describe("a program cannot get around", () => {
  it("an approval: no name, alias or input reaches the gated tool without a yes", async () => {
    const runs: unknown[] = [];
    const danger = defineTool({
      name: "danger",
      description: "Needs a person",
      inputSchema: { type: "object" },
      execute: (input) => {
        runs.push(input);
        return "ran";
      },
    });
    const run = runner([danger], { approvals: { require: ["danger"] } });
    const { text } = await run(`
      const tries = [
        () => tools.danger({}),
        () => tools.danger({ approve: true, approvalId: "anything" }),
        () => tools["DANGER"]({}),
        () => tools["danger "]({}),
        () => tools.run_code({ code: "return await tools.danger({})" }),
      ];
      const codes = [];
      for (const attempt of tries) {
        try { await attempt(); codes.push("ran"); } catch (error) { codes.push(error.code); }
      }
      return codes;
    `);
    expect(JSON.parse(text)).toEqual([
      "approval-required",
      "approval-required",
      "tool-not-found",
      "tool-not-found",
      "tool-not-found",
    ]);
    expect(runs).toEqual([]);
  });

  it("policy: a tool a policy layer removes is neither declared nor callable", async () => {
    const secret = defineTool({
      name: "secret",
      description: "Hidden",
      inputSchema: { type: "object" },
      execute: () => "x",
    });
    const open = defineTool({
      name: "open",
      description: "Shown",
      inputSchema: { type: "object" },
      execute: () => "y",
    });
    const registry = createToolRegistry({
      custom: [secret, open],
      policy: [{ label: "no secrets", deny: ["secret"] }],
    });
    const session = createAgentSession({ registry });
    const codeMode = createCodeMode(session);
    registry.refresh({ custom: [secret, open, codeMode.source] });
    expect(codeMode.declarations).toContain("open(");
    expect(codeMode.declarations).not.toContain("secret");
    const outcome = await session.dispatch({
      id: "p1",
      name: "run_code",
      input: { code: "try { return await tools.secret({}); } catch (error) { return error.code; }" },
    });
    expect(textOf(outcome)).toBe("tool-not-found");
  });

  it("the session's copy of a result: a getter in structuredContent is read once, on the host, and arrives as data", async () => {
    let reads = 0;
    const tricky = returningGetter("tricky", () => {
      reads += 1;
      return reads;
    });
    const throwing = returningGetter("throwing", () => {
      throw new Error("gotcha");
    });
    const run = runner([tricky, throwing]);
    const { text } = await run(`
      const first = await tools.tricky({});
      let failed;
      try { await tools.throwing({}); } catch (error) { failed = error.code + ": " + error.message; }
      return { value: first.value, again: first.value, descriptor: typeof Object.getOwnPropertyDescriptor(first, "value").get, failed };
    `);
    expect(JSON.parse(text)).toEqual({
      value: 1,
      again: 1,
      descriptor: "undefined",
      failed: expect.stringMatching(/^invalid-result: .*gotcha/),
    });
    expect(reads).toBe(1);
  });

  it("the host's objects: a program that pollutes Object.prototype leaves the next program and the host untouched", async () => {
    const run = runner([]);
    await run(`Object.prototype.polluted = "yes"; Array.prototype.push = () => 0; return "done";`);
    const { text } = await run(`return [({}).polluted === undefined, [1].concat(2).length];`);
    expect(JSON.parse(text)).toEqual([true, 2]);
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
  });
});
