import { describe, expect, it } from "vitest";
import { deferred, echoTool, sessionWith, textOf } from "../../../test/support/session.js";
import { defineTool } from "../register/define-tool.js";
import type { AfterToolCall, BeforeToolCall, SessionErrorEvent, WriteLock } from "../types.js";
import { createWriteLock } from "./write-lock.js";

describe("before hooks", () => {
  it("allow when they return undefined", async () => {
    const session = sessionWith([echoTool()], { beforeToolCall: [() => undefined] });
    expect(textOf(await session.dispatch({ id: "1", name: "echo", input: { text: "ok" } }))).toBe("ok");
  });

  it("see the call and the descriptor", async () => {
    const seen: unknown[] = [];
    const session = sessionWith([echoTool()], {
      beforeToolCall: [
        (event) => void seen.push([event.toolName, event.toolCallId, event.input, event.descriptor.name]),
      ],
    });
    await session.dispatch({ id: "c9", name: "echo", input: { text: "x" } });
    expect(seen).toEqual([["echo", "c9", { text: "x" }, "echo"]]);
  });

  it("chain in registration order, each seeing the input left by the one before", async () => {
    const session = sessionWith([echoTool()], {
      beforeToolCall: [
        (event) => ({ input: { text: `${event.input.text}+1` } }),
        async (event) => ({ input: { text: `${event.input.text}+2` } }),
      ],
    });
    expect(textOf(await session.dispatch({ id: "1", name: "echo", input: { text: "0" } }))).toBe("0+1+2");
  });

  it("validate a rewritten input again and refuse it when invalid", async () => {
    let ran = false;
    const tool = defineTool({
      name: "echo",
      description: "e",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: () => {
        ran = true;
        return "";
      },
    });
    const session = sessionWith([tool], { beforeToolCall: [() => ({ input: { text: 5 } })] });
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "ok" } });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toContain(
      "Invalid input from a beforeToolCall hook for tool echo:\n- input.text: must be string",
    );
    expect(ran).toBe(false);
  });

  it.each<[string, BeforeToolCall, string]>([
    [
      "a block with a reason",
      () => ({ block: true, reason: "rm -rf is not allowed" }),
      "Tool call blocked: rm -rf is not allowed",
    ],
    ["a block without a reason", () => ({ block: true }), "Tool call blocked: blocked by a beforeToolCall hook"],
    [
      "a throw",
      () => {
        throw new Error("policy server down");
      },
      "Tool call blocked: policy server down",
    ],
    [
      "a throw of an empty Error",
      () => {
        throw new Error("");
      },
      "Tool call blocked: blocked by a beforeToolCall hook",
    ],
    ["a rejection", async () => Promise.reject("nope"), "Tool call blocked: nope"],
  ])("block on %s: the executor does not run", async (_, hook, text) => {
    let ran = false;
    const tool = defineTool({
      name: "t",
      description: "t",
      inputSchema: { type: "object" },
      execute: () => {
        ran = true;
        return "";
      },
    });
    const later: BeforeToolCall[] = [];
    const session = sessionWith([tool], { beforeToolCall: [hook, (event) => void later.push(() => event)] });
    const codes: (string | undefined)[] = [];
    session.on("tool_execution_end", (event) => codes.push(event.errorCode));
    const result = await session.dispatch({ id: "1", name: "t", input: {} });
    expect(result).toMatchObject({ is_error: true, content: [{ type: "text", text }] });
    expect(ran).toBe(false);
    expect(later).toHaveLength(0); // the first block stops the chain
    expect(codes).toEqual(["blocked-by-hook"]);
  });

  it("block a call whose hook hangs past the hook timeout, and free the lock", async () => {
    const session = sessionWith([echoTool()], {
      hookTimeoutMs: 20,
      beforeToolCall: [(event) => (event.input.text === "hang" ? new Promise(() => {}) : undefined)],
    });
    const [hung, next] = await session.dispatchAll([
      { id: "1", name: "echo", input: { text: "hang" } },
      { id: "2", name: "echo", input: { text: "fine" } },
    ]);
    expect(textOf(hung as never)).toBe("Tool call blocked: A beforeToolCall hook did not settle within 20 ms");
    expect(textOf(next as never)).toBe("fine");
  });
});

describe("after hooks", () => {
  it("replace the fields they return, chained in order", async () => {
    const session = sessionWith([echoTool()], {
      afterToolCall: [
        (event) => ({ content: [{ type: "text", text: `${textOf({ content: event.result.content } as never)}!` }] }),
        (event) => ({ isError: !event.isError, details: { checked: true } }),
      ],
    });
    const ends: unknown[] = [];
    session.on("tool_execution_end", (event) => ends.push(event.result));
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "hi" } });
    expect(result).toEqual({
      type: "tool_result",
      tool_use_id: "1",
      content: [{ type: "text", text: "hi!" }],
      is_error: true,
    });
    expect(ends[0]).toMatchObject({ details: { checked: true }, isError: true });
  });

  it("see the input, the result, isError and the executor's duration", async () => {
    const seen: unknown[] = [];
    const session = sessionWith([echoTool()], {
      afterToolCall: [(event) => void seen.push({ ...event, durationMs: typeof event.durationMs })],
    });
    await session.dispatch({ id: "1", name: "echo", input: { text: "x" } });
    expect(seen).toEqual([
      {
        toolName: "echo",
        toolCallId: "1",
        input: { text: "x" },
        result: { content: [{ type: "text", text: "x" }] },
        isError: false,
        durationMs: "number",
      },
    ]);
  });

  it("that throw leave the result intact and are reported to error listeners; later hooks still run", async () => {
    const failing: AfterToolCall = () => {
      throw new Error("audit log offline");
    };
    const session = sessionWith([echoTool()], {
      afterToolCall: [failing, () => ({ details: { ranAfter: true } })],
    });
    const errors: SessionErrorEvent[] = [];
    session.on("error", (event) => errors.push(event));
    const result = await session.dispatch({ id: "1", name: "echo", input: { text: "kept" } });
    expect(result).toEqual({ type: "tool_result", tool_use_id: "1", content: [{ type: "text", text: "kept" }] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: "after-hook-failed", toolCallId: "1", toolName: "echo" });
    expect(errors[0]?.error.message).toContain("audit log offline");
  });

  it("that return invalid content are ignored and reported", async () => {
    const session = sessionWith([echoTool()], { afterToolCall: [() => ({ content: "not blocks" as never })] });
    const errors: SessionErrorEvent[] = [];
    session.on("error", (event) => errors.push(event));
    expect(textOf(await session.dispatch({ id: "1", name: "echo", input: { text: "x" } }))).toBe("x");
    expect(errors[0]?.code).toBe("after-hook-failed");
  });
});

describe("the write lock", () => {
  it("runs hooks inside the lock and executors outside it", async () => {
    const log: string[] = [];
    let holders = 0;
    const lock: WriteLock = createWriteLock();
    const tracked: WriteLock = (run) =>
      lock(async () => {
        holders++;
        try {
          return await run();
        } finally {
          holders--;
        }
      });
    const gate = deferred();
    const tool = defineTool({
      name: "t",
      description: "t",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      execute: async (input) => {
        log.push(`exec ${input.n} holders=${holders}`);
        await gate.promise;
        return "";
      },
    });
    const session = sessionWith([tool], {
      writeLock: tracked,
      beforeToolCall: [(event) => void log.push(`before ${event.input.n} holders=${holders}`)],
      afterToolCall: [(event) => void log.push(`after ${event.input.n} holders=${holders}`)],
    });
    const pending = session.dispatchAll([
      { id: "1", name: "t", input: { n: 1 } },
      { id: "2", name: "t", input: { n: 2 } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    gate.resolve();
    await pending;
    expect(log.slice(0, 4)).toEqual([
      "before 1 holders=1",
      "before 2 holders=1",
      "exec 1 holders=0",
      "exec 2 holders=0",
    ]);
    expect(log.slice(4).sort()).toEqual(["after 1 holders=1", "after 2 holders=1"]);
  });

  it("is FIFO, exclusive, and released by a throw", async () => {
    const lock = createWriteLock();
    const order: string[] = [];
    let inside = 0;
    const task = (name: string, fail = false) =>
      lock(async () => {
        inside++;
        expect(inside).toBe(1);
        await new Promise((resolve) => setTimeout(resolve, 2));
        order.push(name);
        inside--;
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([task("a"), task("b", true), task("c")]);
    expect(order).toEqual(["a", "b", "c"]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await lock(async () => "free again")).toBe("free again");
  });

  it("is released by a synchronous throw", async () => {
    const lock = createWriteLock();
    await expect(
      lock(() => {
        throw new Error("sync");
      }),
    ).rejects.toThrow("sync");
    expect(await lock(async () => 1)).toBe(1);
  });
});
