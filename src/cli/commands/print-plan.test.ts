// `toolwire plan` and `toolwire explain` over a real registry with code-only tools (the registry's `codeOnly`, which
// the config's code mode feeds): said apart from the tools sent, and left out of the tokens sent up front.
import { describe, expect, it } from "vitest";
import { estimateToolTokens } from "../../core/defer/estimate-tool-tokens.js";
import { defineTool } from "../../core/register/define-tool.js";
import { createToolRegistry } from "../../core/register/registry.js";
import type { ToolRegistryOptions } from "../../core/types.js";
import { createAgentSession } from "../../create-agent-session.js";
import type { Output } from "../output.js";
import type { Runtime } from "../runtime.js";
import { planAsJson, printPlan, toolTokens } from "./print-plan.js";
import { runExplain } from "./run-explain.js";

const tools = ["read", "weather", "stocks"].map((name) =>
  defineTool({
    name,
    description: `${name} tool`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    execute: () => name,
  }),
);

/** The parts of a runtime that plan and explain read, over a real registry (no config file, no MCP). */
function runtimeWith(options: Omit<ToolRegistryOptions, "custom">): Runtime {
  const registry = createToolRegistry({ custom: tools, ...options });
  return {
    loaded: { config: {}, file: "toolwire.config.json", dir: "." },
    fromFile: false,
    built: { workspaceRoot: "." },
    registry,
    session: createAgentSession({ registry }),
    executors: [],
    problems: [],
    sandbox: [],
  } as unknown as Runtime;
}

function captured(): Output & { readonly lines: string[] } {
  const lines: string[] = [];
  return {
    color: false,
    interactive: false,
    lines,
    line: (text = "") => void lines.push(text),
    write: (text) => void lines.push(text),
    error: (text) => void lines.push(text),
    progress: (_label, work) => work,
  };
}

describe("the plan of a registry with code-only tools", () => {
  it("lists them in a section of their own, with the pattern that matched", () => {
    const output = captured();
    printPlan(runtimeWith({ codeOnly: ["weather"] }), output);
    const text = output.lines.join("\n");
    expect(text).toContain("Code only (1): reachable only through code (codeMode), never sent to the model");
    expect(text).toMatch(/weather +\d+ +matches the codeOnly pattern "weather"/);
    const none = captured();
    printPlan(runtimeWith({}), none);
    expect(none.lines.join("\n")).not.toContain("Code only");
  });

  it("counts their tokens apart from the ones sent up front, as data too", () => {
    const runtime = runtimeWith({ codeOnly: ["weather"] });
    const weather = estimateToolTokens(tools[1] as (typeof tools)[number]);
    const all = toolTokens(runtimeWith({}));
    expect(toolTokens(runtime)).toEqual({ upFront: all.upFront - weather, deferred: 0, codeOnly: weather });
    expect(planAsJson(runtime).codeOnly).toEqual([{ name: "weather", pattern: "weather" }]);
  });

  it("explain says the tool is reachable only through code, and its --json carries the pattern", () => {
    const output = captured();
    runExplain(runtimeWith({ codeOnly: ["weather"] }), output, { tool: "weather", json: true });
    const facts = JSON.parse(output.lines.join("\n"));
    expect(facts).toMatchObject({ tool: "weather", available: true, codeOnly: { pattern: "weather" } });
    expect(facts.explanation).toContain("weather is reachable only through code");
  });
});
