import { describe, expect, it } from "vitest";
import { sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import { guardAbortListeners } from "./guard-abort-listeners.js";

describe("guardAbortListeners", () => {
  it("runs every kind of listener, reports their throws instead of crashing, and removes them as given", () => {
    const controller = new AbortController();
    const reported: string[] = [];
    const calls: string[] = [];
    const signal = guardAbortListeners(controller.signal, (error) => reported.push((error as Error).message));
    const removed = () => calls.push("removed");
    signal.addEventListener("abort", () => {
      calls.push("function");
      throw new Error("from a function");
    });
    signal.addEventListener("abort", {
      handleEvent() {
        calls.push("object");
        throw new Error("from an object");
      },
    });
    signal.addEventListener("abort", removed);
    signal.removeEventListener("abort", removed);
    signal.onabort = () => {
      calls.push("onabort");
      throw new Error("from onabort");
    };
    controller.abort();
    expect(calls).toEqual(["function", "object", "onabort"]);
    expect(reported).toEqual(["from a function", "from an object", "from onabort"]);
  });
});

describe("an executor's abort listener that throws", () => {
  it("does not end the process when the call times out; the session's error listeners hear of it", async () => {
    const tool = defineTool({
      name: "stubborn",
      description: "throws from its abort listener",
      inputSchema: { type: "object" },
      execute: (_input, { signal }) => {
        signal.addEventListener("abort", () => {
          throw new Error("listener throws");
        });
        signal.onabort = () => {
          throw new Error("onabort throws");
        };
        return new Promise<string>(() => {});
      },
    });
    const session = sessionWith([tool], { toolTimeoutMs: 30 });
    const errors: string[] = [];
    session.on("error", (event) => errors.push(`${event.code}: ${event.error.message}`));
    const result = await session.dispatch({ id: "1", name: "stubborn", input: {} });
    expect(textOf(result)).toMatch(/timed out after 30 ms/);
    expect(errors).toEqual([
      "listener-failed: An abort listener of tool stubborn threw: listener throws",
      "listener-failed: An abort listener of tool stubborn threw: onabort throws",
    ]);
  });
});
