// The inspector's plan shows how flow rules see each tool, and whether the session is tainted now.
import { describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../test/support/session.js";
import { defineTool } from "../core/register/define-tool.js";
import { readPlan } from "./read-plan.js";

describe("readPlan", () => {
  it("gives each visible tool its trust, effects and guard, and the session's flow state", async () => {
    const page = defineTool({
      name: "page",
      description: "Reads a page",
      inputSchema: { type: "object" },
      trust: "untrusted",
      effects: "none",
      execute: () => "text",
    });
    const session = sessionWith([page, echoTool()], { flow: { whenTainted: "block" } });
    const before = readPlan(session);
    expect(before.flow).toEqual({ enabled: true, whenTainted: "block", tainted: false });
    expect(Object.fromEntries(before.visible.map((tool) => [tool.name, tool.flow]))).toEqual({
      page: { trust: "untrusted", effects: "none", guarded: false },
      echo: { trust: "trusted", effects: "external", guarded: true },
    });
    await session.dispatch({ id: "p1", name: "page", input: {} });
    expect(readPlan(session).flow.tainted).toBe(true);
  });
});
