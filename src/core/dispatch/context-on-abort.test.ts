import { describe, expect, it } from "vitest";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { ToolCallError } from "../errors.js";
import { defineTool } from "../register/define-tool.js";
import type { ToolCallContext } from "../types.js";

/** A tool that never finishes on its own, handing each call's context to `onStart`. */
function hangingTool(onStart: (context: ToolCallContext) => void) {
  return defineTool({
    name: "hang",
    description: "waits until stopped",
    inputSchema: { type: "object" },
    execute: (_input, context) => {
      onStart(context);
      return new Promise<string>(() => {});
    },
  });
}

describe("context.onAbort", () => {
  it("tells each listener once, with the same reason as the signal, when the call times out", async () => {
    const heard: unknown[] = [];
    let signalReason: unknown;
    const tool = hangingTool((context) => {
      context.onAbort?.((reason) => heard.push(reason));
      context.onAbort?.((reason) => heard.push(reason));
      context.signal.addEventListener("abort", () => {
        signalReason = context.signal.reason;
      });
    });
    const result = await sessionWith([tool], { toolTimeoutMs: 20 }).dispatch({ id: "1", name: "hang", input: {} });
    expect(textOf(result)).toMatch(/timed out after 20 ms/);
    expect(heard).toHaveLength(2);
    expect(heard[0]).toBeInstanceOf(ToolCallError);
    expect(heard[0]).toMatchObject({ code: "timeout" });
    expect(heard[1]).toBe(heard[0]);
    expect(signalReason).toBe(heard[0]);
  });

  it("hears the caller's abort; a removed listener hears nothing; one added after the abort is told at once", async () => {
    const heard: string[] = [];
    let late: ToolCallContext | undefined;
    const tool = hangingTool((context) => {
      late = context;
      const remove = context.onAbort?.(() => heard.push("removed"));
      remove?.();
      context.onAbort?.((reason) => heard.push(`kept: ${(reason as ToolCallError).code}`));
    });
    const controller = new AbortController();
    const done = sessionWith([tool]).dispatch({ id: "1", name: "hang", input: {} }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await done).is_error).toBe(true);
    late?.onAbort?.(() => heard.push("late"));
    expect(heard).toEqual(["kept: aborted", "late"]);
  });

  it("reports a listener that throws to the session's error listeners; the call still ends", async () => {
    const tool = hangingTool((context) => {
      context.onAbort?.(() => {
        throw new Error("listener throws");
      });
    });
    const session = sessionWith([tool], { toolTimeoutMs: 20 });
    const errors: string[] = [];
    session.on("error", (event) => errors.push(`${event.code}: ${event.error.message}`));
    const result = await session.dispatch({ id: "1", name: "hang", input: {} });
    expect(textOf(result)).toMatch(/timed out/);
    expect(errors).toEqual(["listener-failed: An abort listener of tool hang threw: listener throws"]);
  });
});
