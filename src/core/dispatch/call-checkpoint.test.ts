// An executor's checkpoints: kept through the caller's `checkpoint` option, given back as `context.recovered`.
import { describe, expect, it } from "vitest";
import { sessionWith } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { JsonValue, ToolCallContext } from "../types.js";

/** A tool that keeps two items and reports what its context offered. */
function keepingTool(seen: { context?: ToolCallContext; nested?: ToolCallContext }[]) {
  return defineTool({
    name: "keeper",
    description: "keeps items",
    inputSchema: { type: "object" },
    execute: async (_input, context) => {
      seen.push({ context });
      await context.checkpoint?.({ step: 1 });
      await context.checkpoint?.({ step: 2, list: [1, "two"] });
      return "kept";
    },
  });
}

describe("context.checkpoint and context.recovered", () => {
  it("keeps each item through the dispatch's checkpoint option, in order, as JSON copies naming the call", async () => {
    const seen: { context?: ToolCallContext }[] = [];
    const kept: { call: unknown; item: JsonValue }[] = [];
    const session = sessionWith([keepingTool(seen)]);
    const block = await session.dispatch(
      { id: "k1", name: "keeper", input: {} },
      {
        checkpoint: async (call, item) => {
          kept.push({ call, item });
        },
      },
    );
    expect(block.is_error).toBeUndefined();
    expect(kept).toEqual([
      { call: { toolCallId: "k1", toolName: "keeper" }, item: { step: 1 } },
      { call: { toolCallId: "k1", toolName: "keeper" }, item: { step: 2, list: [1, "two"] } },
    ]);
  });

  it("offers no checkpoint without the option, and recovered only to the call it names", async () => {
    const seen: { context?: ToolCallContext }[] = [];
    const session = sessionWith([keepingTool(seen)]);
    await session.dispatchAll(
      [
        { id: "a", name: "keeper", input: {} },
        { id: "b", name: "keeper", input: {} },
      ],
      { recovered: { b: [{ step: 1 }] } },
    );
    expect(seen.map(({ context }) => [context?.toolCallId, context?.checkpoint, context?.recovered])).toEqual([
      ["a", undefined, undefined],
      ["b", undefined, [{ step: 1 }]],
    ]);
  });

  it("rejects an item that is not JSON data, and a failure to keep it, without breaking the call", async () => {
    const outcomes: string[] = [];
    const tool = defineTool({
      name: "odd",
      description: "keeps odd things",
      inputSchema: { type: "object" },
      execute: async (_input, context) => {
        await context.checkpoint?.({ n: 10n } as unknown as JsonValue).catch((error: Error) => {
          outcomes.push(error.message);
        });
        await context.checkpoint?.({ fine: true }).catch((error: Error) => {
          outcomes.push(error.message);
        });
        return "done";
      },
    });
    const session = sessionWith([tool]);
    const block = await session.dispatch(
      { id: "o1", name: "odd", input: {} },
      {
        checkpoint: async () => {
          throw new Error("disk full");
        },
      },
    );
    expect(block.content).toEqual([{ type: "text", text: "done" }]);
    expect(outcomes).toHaveLength(2);
    expect(outcomes[0]).toMatch(/JSON data/);
    expect(outcomes[1]).toBe("disk full");
  });
});
