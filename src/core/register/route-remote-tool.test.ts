import { describe, expect, it } from "vitest";
import { createAgentSession } from "../dispatch/session.js";
import type { RemoteExecutor, RemoteToolCall, ToolResult } from "../types.js";
import { defineTool } from "./define-tool.js";
import { createToolRegistry } from "./registry.js";
import { routeRemoteTool } from "./route-remote-tool.js";

const local = (name: string) =>
  defineTool({
    name,
    description: `${name} tool`,
    inputSchema: { type: "object", properties: { n: { type: "number" } } },
    execute: () => `${name} ran here`,
  });

/** An executor in this process that records what it was handed: the seam's contract, without a queue. */
function recordingExecutor(id: string) {
  const calls: RemoteToolCall[] = [];
  const executor: RemoteExecutor = {
    id,
    async execute(call, context): Promise<ToolResult> {
      calls.push(call);
      context.onUpdate({ content: [{ type: "text", text: "half way" }] });
      return { content: [{ type: "text", text: `${call.toolName} ran on ${id}` }] };
    },
  };
  return { executor, calls };
}

describe("registry executors", () => {
  it("routes a matching tool's execution to its executor, with the input the hooks left and the call's id", async () => {
    const { executor, calls } = recordingExecutor("builders");
    const registry = createToolRegistry({
      custom: [local("build"), local("read")],
      executors: [{ executor, tools: ["build"] }],
    });
    const session = createAgentSession({
      registry,
      beforeToolCall: [(event) => ({ input: { ...event.input, n: 2 } })],
    });
    const updates: ToolResult[] = [];
    session.on("tool_execution_update", (event) => updates.push(event.partial));
    const block = await session.dispatch({ id: "c1", name: "build", input: { n: 1 } });
    expect(block.content).toEqual([{ type: "text", text: "build ran on builders" }]);
    expect(calls).toEqual([{ toolName: "build", toolCallId: "c1", input: { n: 2 } }]);
    expect(updates).toEqual([{ content: [{ type: "text", text: "half way" }] }]);
    expect((await session.dispatch({ id: "c2", name: "read", input: {} })).content).toEqual([
      { type: "text", text: "read ran here" },
    ]);
  });

  it("keeps the descriptor and marks where the tool runs", () => {
    const { executor } = recordingExecutor("builders");
    const build = local("build");
    const registry = createToolRegistry({ custom: [build, local("read")], executors: [{ executor, tools: ["b*"] }] });
    expect(registry.tools.get("build")?.descriptor).toBe(build.descriptor);
    expect(registry.tools.get("build")?.runsOn).toBe("builders");
    expect(registry.tools.get("read")?.runsOn).toBeUndefined();
    expect(registry.explain("build")).toContain("runs on remote executor builders");
  });

  it("lets the first matching route win", () => {
    const first = recordingExecutor("first").executor;
    const second = recordingExecutor("second").executor;
    const registry = createToolRegistry({
      custom: [local("build")],
      executors: [
        { executor: first, tools: ["build"] },
        { executor: second, tools: ["*"] },
      ],
    });
    expect(registry.tools.get("build")?.runsOn).toBe("first");
  });

  it("reports an executor pattern that matches no tool under layer executor:<id>", () => {
    const { executor } = recordingExecutor("builders");
    const registry = createToolRegistry({ custom: [local("build")], executors: [{ executor, tools: ["biuld"] }] });
    expect(registry.lastReport.unknownPatterns).toEqual([{ layer: "executor:builders", pattern: "biuld" }]);
  });

  it("keeps one routed tool, and so one wrapper, across refreshes", () => {
    const { executor } = recordingExecutor("builders");
    const build = local("build");
    const registry = createToolRegistry({ custom: [build], executors: [{ executor, tools: ["build"] }] });
    const before = registry.tools.get("build");
    registry.refresh();
    expect(registry.tools.get("build")).toBe(before);
    expect(routeRemoteTool(build, executor)).toBe(routeRemoteTool(build, executor));
  });
});
