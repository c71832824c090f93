// The order of the page's call list: a program's nested calls right under it, indented, and counted on its row.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CallSummary } from "../types.js";
import { nestCalls } from "./nest-calls.js";

let nextKey = 1;
function call(toolCallId: string, parentToolCallId?: string, sessionId = "s1"): CallSummary {
  return {
    key: nextKey++,
    sessionId,
    toolCallId,
    toolName: "echo",
    ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
    status: "ok",
    startedAt: 0,
    phases: [],
    inputPreview: "",
  };
}

const shape = (calls: readonly CallSummary[]) =>
  nestCalls(calls).map(
    (row) => `${"  ".repeat(row.depth)}${row.call.toolCallId}${row.nested > 0 ? ` (${row.nested})` : ""}`,
  );

describe("nestCalls", () => {
  it("puts each program's calls under it, in order, even when other calls started in between", () => {
    const calls = [call("p"), call("a"), call("p.1", "p"), call("q"), call("p.2", "p"), call("q.1", "q")];
    expect(shape(calls)).toEqual(["p (2)", "  p.1", "  p.2", "a", "q (1)", "  q.1"]);
  });

  it("nests a program's program one level deeper", () => {
    expect(shape([call("p"), call("p.1", "p"), call("p.1.1", "p.1"), call("p.2", "p")])).toEqual([
      "p (2)",
      "  p.1 (1)",
      "    p.1.1",
      "  p.2",
    ]);
  });

  it("leaves a call whose parent is not shown, or is in another session, at the top", () => {
    expect(shape([call("x.1", "x"), call("p", undefined, "s2"), call("p.1", "p", "s1")])).toEqual(["x.1", "p", "p.1"]);
  });

  it("lists every call exactly once, whatever the parents say", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.option(fc.integer({ min: 0, max: 9 }))), {
          maxLength: 40,
        }),
        (pairs) => {
          const calls = pairs.map(([id, parent]) => call(`c${id}`, parent === null ? undefined : `c${parent}`));
          const rows = nestCalls(calls);
          expect(rows.map((row) => row.call.key).sort((a, b) => a - b)).toEqual(calls.map((entry) => entry.key));
          for (const row of rows) expect(row.depth).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
