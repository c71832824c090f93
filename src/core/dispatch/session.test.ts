import { describe, expect, it } from "vitest";
import { deferred, echoTool, sessionWith, textOf } from "../../../test/support/session.js";
import { createAgentSession } from "../../create-agent-session.js";
import { defineTool } from "../register/define-tool.js";
import { createToolRegistry } from "../register/registry.js";
import type { ToolExecutionEndEvent } from "../types.js";

describe("active tools", () => {
  it("makes every registry tool active until told otherwise, including ones a later refresh adds", () => {
    const registry = createToolRegistry({ custom: [echoTool("a")] });
    const session = createAgentSession({ registry });
    expect(session.activeToolNames).toEqual(["a"]);
    registry.refresh({ custom: [echoTool("a"), echoTool("b")] });
    expect(session.activeToolNames).toEqual(["a", "b"]);
  });

  it("setActiveToolsByName keeps the given order, skips and returns unknown names, never throws", () => {
    const session = sessionWith([echoTool("a"), echoTool("b"), echoTool("c")]);
    expect(session.setActiveToolsByName(["c", "nope", "a", "__proto__"])).toEqual({
      active: ["c", "a"],
      missing: ["nope", "__proto__"],
    });
    expect(session.activeToolNames).toEqual(["c", "a"]);
    expect(session.systemPrompt).toBe(
      "## Tools\n\nYou can call these tools:\n- c: Echoes its text back\n- a: Echoes its text back",
    );
  });

  it("drops a name that vanishes on refresh and keeps it out until named again", () => {
    const registry = createToolRegistry({ custom: [echoTool("a"), echoTool("b")] });
    const session = createAgentSession({ registry });
    session.setActiveToolsByName(["a", "b"]);
    registry.refresh({ custom: [echoTool("a")] });
    expect(session.activeToolNames).toEqual(["a"]);
    registry.refresh({ custom: [echoTool("a"), echoTool("b")] });
    expect(session.activeToolNames).toEqual(["a"]);
    session.setActiveToolsByName(["a", "b"]);
    expect(session.activeToolNames).toEqual(["a", "b"]);
  });

  it("builds the system prompt from the base prompt and the active tools", () => {
    const session = sessionWith([echoTool("a")], { systemPrompt: "You are careful." });
    expect(session.systemPrompt).toBe(
      "You are careful.\n\n## Tools\n\nYou can call these tools:\n- a: Echoes its text back",
    );
    session.setActiveToolsByName([]);
    expect(session.systemPrompt).toBe("You are careful.\n\n## Tools\n\nNo tools are available in this session.");
  });

  it("rebuilds the system prompt when a refresh changes a tool, and keeps it when nothing changed", () => {
    const registry = createToolRegistry({ custom: [echoTool("a")] });
    const session = createAgentSession({ registry });
    const before = session.systemPrompt;
    registry.refresh();
    expect(session.systemPrompt).toBe(before);
    const renamed = defineTool({
      name: "a",
      description: "Says hello",
      inputSchema: { type: "object" },
      execute: () => "hi",
    });
    registry.refresh({ custom: [renamed] });
    expect(session.systemPrompt).toBe("## Tools\n\nYou can call these tools:\n- a: Says hello");
  });

  it("tells listeners when the active set changes", () => {
    const registry = createToolRegistry({ custom: [echoTool("a")] });
    const session = createAgentSession({ registry });
    const seen: string[][] = [];
    session.onActiveToolsChange((names) => seen.push([...names]));
    registry.refresh({ custom: [echoTool("a"), echoTool("b")] });
    session.setActiveToolsByName(["b"]);
    registry.refresh(); // nothing changed
    expect(seen).toEqual([["a", "b"], ["b"]]);
  });

  it("refuses an inactive tool as not found, listing the active names", async () => {
    const session = sessionWith([echoTool("a"), echoTool("b")]);
    session.setActiveToolsByName(["a"]);
    const result = await session.dispatch({ id: "1", name: "b", input: { text: "x" } });
    expect(result).toEqual({
      type: "tool_result",
      tool_use_id: "1",
      content: [{ type: "text", text: "Tool b not found. Available tools: a." }],
      is_error: true,
    });
  });

  it("refuses a tool availability hides as not found, saying why it is hidden", async () => {
    const hidden = defineTool({
      name: "deploy",
      description: "Needs a token",
      inputSchema: { type: "object" },
      availability: {
        allOf: [
          { kind: "env", name: "DEPLOY_TOKEN" },
          { kind: "capability", name: "network" },
        ],
      },
      execute: () => "deployed",
    });
    const registry = createToolRegistry({ custom: [echoTool("a"), hidden], availability: { env: {} } });
    const outcome = await createAgentSession({ registry }).dispatchDetailed({ id: "1", name: "deploy", input: {} });
    expect(outcome.errorCode).toBe("tool-not-found");
    expect(textOf(outcome.block)).toBe(
      "Tool deploy is not available here, so it was not run: Missing environment value: DEPLOY_TOKEN; Missing capability: network. Available tools: a.",
    );
  });
});

describe("dispatch", () => {
  it("runs a tool and returns a tool_result without is_error", async () => {
    const session = sessionWith([echoTool()]);
    expect(await session.dispatch({ id: "t1", name: "echo", input: { text: "hi" } })).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      content: [{ type: "text", text: "hi" }],
    });
  });

  it("parses JSON text input first", async () => {
    const session = sessionWith([echoTool()]);
    expect(textOf(await session.dispatch({ id: "1", name: "echo", input: '{"text":"from json"}' }))).toBe("from json");
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "", "ECHO"])(
    "refuses the unknown name %j with tool-not-found",
    async (name) => {
      const session = sessionWith([echoTool()]);
      const ends: ToolExecutionEndEvent[] = [];
      session.on("tool_execution_end", (event) => ends.push(event));
      const result = await session.dispatch({ id: "1", name, input: {} });
      expect(result.is_error).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`^Tool ${name.replace(/[_$]/g, "\\$&")} not found\\.`));
      expect(textOf(result)).toContain("Available tools: echo.");
      expect(ends[0]?.errorCode).toBe("tool-not-found");
    },
  );

  it("suggests the right case for a near-miss name", async () => {
    const result = await sessionWith([echoTool()]).dispatch({ id: "1", name: "Echo", input: {} });
    expect(textOf(result)).toBe(
      "Tool Echo not found. Did you mean echo? Tool names are case-sensitive. Available tools: echo.",
    );
  });

  it.each([
    ["an array", [1, 2], "expected a JSON object, got an array"],
    ["a number", 42, "expected a JSON object, got a number"],
    ["null", null, "expected a JSON object, got null"],
    ["JSON text of an array", "[1]", "expected a JSON object, got an array (after parsing the JSON text)"],
    ["malformed JSON text", '{"text": ', "the input is not valid JSON"],
  ])("refuses %s as invalid input", async (_, input, words) => {
    const session = sessionWith([echoTool()]);
    const ends: ToolExecutionEndEvent[] = [];
    session.on("tool_execution_end", (event) => ends.push(event));
    const result = await session.dispatch({ id: "1", name: "echo", input });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toContain(`Invalid input for tool echo: ${words}`);
    expect(ends[0]?.errorCode).toBe("invalid-input");
  });

  it("lists every schema violation with its path and what was expected", async () => {
    const tool = defineTool({
      name: "book",
      description: "Books",
      inputSchema: {
        type: "object",
        properties: {
          city: { type: "string", description: "City name" },
          nights: { type: "integer", minimum: 1 },
          guests: {
            type: "array",
            items: { type: "object", properties: { age: { type: "number" } }, required: ["age"] },
          },
          kind: { enum: ["hotel", "hostel"] },
        },
        required: ["city", "nights"],
        additionalProperties: false,
      },
      execute: () => "booked",
    });
    const result = await sessionWith([tool]).dispatch({
      id: "1",
      name: "book",
      input: { nights: 0, guests: [{ age: "ten" }, {}], kind: "tent", extra: true },
    });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toBe(
      [
        "Invalid input for tool book:",
        "- input.city: missing required property (expected string: City name)",
        "- input.extra: unexpected property; allowed properties: city, nights, guests, kind",
        "- input.nights: must be >= 1, got number 0",
        '- input.guests[0].age: must be number, got string "ten"',
        "- input.guests[1].age: missing required property (expected number)",
        '- input.kind: must be one of "hotel", "hostel", got string "tent"',
        "Fix these fields and call book again.",
      ].join("\n"),
    );
  });

  it("treats a null for an optional, non-nullable property as absent (strict-mode providers send it)", async () => {
    const tool = defineTool({
      name: "find",
      description: "Finds",
      inputSchema: {
        type: "object",
        properties: {
          pattern: { type: "string" },
          path: { type: "string" },
          cursor: { type: ["string", "null"] },
          nested: { type: "object", properties: { depth: { type: "integer" } } },
        },
        required: ["pattern"],
      },
      execute: (input) => JSON.stringify(input),
    });
    const session = sessionWith([tool]);
    const ok = await session.dispatch({
      id: "1",
      name: "find",
      input: { pattern: "*.ts", path: null, cursor: null, nested: { depth: null } },
    });
    expect(textOf(ok)).toBe('{"pattern":"*.ts","cursor":null,"nested":{}}');
    const required = await session.dispatch({ id: "2", name: "find", input: { pattern: null } });
    expect(textOf(required)).toContain("input.pattern: must be string, got null");
  });

  it("turns an executor's thrown Error or non-Error into an execution-failed result", async () => {
    const thrown = [new Error("disk full"), "plain string", { code: 7 }, undefined, Object.create(null)];
    const tools = thrown.map((value, index) =>
      defineTool({
        name: `t${index}`,
        description: "throws",
        inputSchema: { type: "object" },
        execute: () => {
          throw value;
        },
      }),
    );
    const session = sessionWith(tools);
    const codes: (string | undefined)[] = [];
    session.on("tool_execution_end", (event) => codes.push(event.errorCode));
    const results = await session.dispatchAll(
      tools.map((tool, index) => ({ id: `${index}`, name: tool.descriptor.name, input: {} })),
    );
    expect(results.map(textOf)).toEqual([
      "Tool t0 failed: disk full",
      "Tool t1 failed: plain string",
      'Tool t2 failed: {"code":7}',
      "Tool t3 failed: undefined",
      "Tool t4 failed: {}",
    ]);
    expect(results.every((result) => result.is_error === true)).toBe(true);
    expect(codes).toEqual(Array(5).fill("execution-failed"));
  });

  it.each([
    ["undefined", undefined],
    ["a number", 5],
    ["an object without content", { text: "hi" }],
    ["a bad content block", { content: [{ type: "video", url: "x" }] }],
    ["a text block without text", { content: [{ type: "text" }] }],
  ])("refuses a malformed executor result (%s) as invalid-result", async (_, value) => {
    const tool = defineTool({
      name: "bad",
      description: "bad",
      inputSchema: { type: "object" },
      execute: () => value as never,
    });
    const session = sessionWith([tool]);
    const ends: ToolExecutionEndEvent[] = [];
    session.on("tool_execution_end", (event) => ends.push(event));
    const result = await session.dispatch({ id: "1", name: "bad", input: {} });
    expect(result.is_error).toBe(true);
    expect(textOf(result)).toMatch(/^Tool bad returned an invalid result: /);
    expect(ends[0]?.errorCode).toBe("invalid-result");
  });

  it("passes a tool's own isError result through, with details kept for programs", async () => {
    const tool = defineTool({
      name: "soft",
      description: "fails softly",
      inputSchema: { type: "object" },
      execute: () => ({ content: [{ type: "text", text: "no such row" }], details: { rows: 0 }, isError: true }),
    });
    const session = sessionWith([tool]);
    const ends: ToolExecutionEndEvent[] = [];
    session.on("tool_execution_end", (event) => ends.push(event));
    expect(await session.dispatch({ id: "1", name: "soft", input: {} })).toEqual({
      type: "tool_result",
      tool_use_id: "1",
      content: [{ type: "text", text: "no such row" }],
      is_error: true,
    });
    expect(ends[0]).toMatchObject({ isError: true, result: { details: { rows: 0 } } });
    expect(ends[0]?.errorCode).toBeUndefined();
  });

  it("never rejects, even for a tool use that is not an object", async () => {
    const session = sessionWith([echoTool()]);
    const result = await session.dispatch(null as never);
    expect(result.is_error).toBe(true);
    expect(result.tool_use_id).toBe("");
  });
});

describe("timeouts and aborts", () => {
  const hang = (name: string, timeoutMs?: number) =>
    defineTool({
      name,
      description: "never settles and ignores its signal",
      inputSchema: { type: "object" },
      timeoutMs,
      execute: () => new Promise<string>(() => {}),
    });

  it("ends a call that ignores its signal at the session's timeout, and aborts the executor's signal", async () => {
    let signal: AbortSignal | undefined;
    const tool = defineTool({
      name: "slow",
      description: "slow",
      inputSchema: { type: "object" },
      execute: (_, context) => {
        signal = context.signal;
        return new Promise<string>(() => {});
      },
    });
    const session = sessionWith([tool], { toolTimeoutMs: 20 });
    const result = await session.dispatch({ id: "1", name: "slow", input: {} });
    expect(textOf(result)).toMatch(/^Tool slow timed out after 20 ms and was stopped\./);
    expect(signal?.aborted).toBe(true);
  });

  it("prefers a tool's own timeout over the session's", async () => {
    const session = sessionWith([hang("own", 10)], { toolTimeoutMs: 60_000 });
    expect(textOf(await session.dispatch({ id: "1", name: "own", input: {} }))).toContain("timed out after 10 ms");
  });

  it("ends a call at once when the caller aborts, and reports the reason", async () => {
    const session = sessionWith([hang("h")]);
    const controller = new AbortController();
    const pending = session.dispatch({ id: "1", name: "h", input: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user pressed stop")), 5);
    const result = await pending;
    expect(textOf(result)).toBe("Tool call h aborted: user pressed stop");
    expect(result.is_error).toBe(true);
  });

  it("does not start the executor when the signal is already aborted", async () => {
    let ran = false;
    const tool = defineTool({
      name: "t",
      description: "t",
      inputSchema: { type: "object" },
      execute: () => {
        ran = true;
        return "ran";
      },
    });
    const controller = new AbortController();
    controller.abort();
    const result = await sessionWith([tool]).dispatch({ id: "1", name: "t", input: {} }, { signal: controller.signal });
    expect(textOf(result)).toBe("Tool call t aborted: the caller aborted it");
    expect(ran).toBe(false);
  });

  it("ignores updates an executor sends after its call ended", async () => {
    const later = deferred();
    const tool = defineTool({
      name: "t",
      description: "t",
      inputSchema: { type: "object" },
      timeoutMs: 5,
      execute: async (_, context) => {
        context.onUpdate({ content: [{ type: "text", text: "early" }] });
        await later.promise;
        context.onUpdate({ content: [{ type: "text", text: "late" }] });
        return "done";
      },
    });
    const session = sessionWith([tool]);
    const updates: string[] = [];
    session.on("tool_execution_update", (event) => updates.push((event.partial.content[0] as { text: string }).text));
    await session.dispatch({ id: "1", name: "t", input: {} });
    later.resolve();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(updates).toEqual(["early"]);
  });
});

describe("events", () => {
  it("fires start and end for every call, refused ones included, and errors from listeners go to error", async () => {
    const session = sessionWith([echoTool()]);
    const log: string[] = [];
    session.on("tool_execution_start", (event) => log.push(`start ${event.toolCallId} ${event.toolName}`));
    session.on("tool_execution_end", (event) => log.push(`end ${event.toolCallId} ${event.isError}`));
    session.on("tool_execution_end", () => {
      throw new Error("listener bug");
    });
    session.on("error", (event) => log.push(`error ${event.code}`));
    await session.dispatchAll([
      { id: "a", name: "echo", input: { text: "x" } },
      { id: "b", name: "missing", input: {} },
    ]);
    expect(log).toEqual([
      "start a echo",
      "start b missing",
      "end b true",
      "error listener-failed",
      "end a false",
      "error listener-failed",
    ]);
  });

  it("reports a positive durationMs on end", async () => {
    const session = sessionWith([echoTool()]);
    let duration = -1;
    session.on("tool_execution_end", (event) => {
      duration = event.durationMs;
    });
    await session.dispatch({ id: "a", name: "echo", input: { text: "x" } });
    expect(duration).toBeGreaterThanOrEqual(0);
  });
});

describe("context.log", () => {
  it("reaches tool_log listeners and the dispatch's onLog as plain data; bad levels and non-JSON data are dropped", async () => {
    const tool = defineTool({
      name: "chatty",
      description: "logs",
      inputSchema: { type: "object", properties: {} },
      execute: (_input, { log }) => {
        log?.("info", "starting");
        log?.("loud" as never, "not a level");
        log?.("debug", { big: 10n } as never);
        log?.("error", { step: 2 }, "worker");
        return "done";
      },
    });
    const session = sessionWith([tool]);
    const heard: unknown[] = [];
    const errors: unknown[] = [];
    session.on("tool_log", (event) => heard.push(event));
    session.on("error", (event) => errors.push(event.code));
    const own: unknown[] = [];
    const block = await session.dispatch(
      { id: "l1", name: "chatty", input: {} },
      {
        onLog: (entry) => {
          own.push(entry);
          throw new Error("a listener that throws");
        },
      },
    );
    expect(textOf(block)).toBe("done");
    const expected = [
      { toolCallId: "l1", toolName: "chatty", level: "info", data: "starting" },
      { toolCallId: "l1", toolName: "chatty", level: "error", data: { step: 2 }, logger: "worker" },
    ];
    expect(heard).toEqual(expected);
    expect(own).toEqual(expected);
    expect(errors).toEqual(["listener-failed", "listener-failed"]);
  });
});

describe("close", () => {
  /** A live source that counts who follows it. */
  function followedSource() {
    const listeners = new Set<() => void>();
    return {
      source: {
        tools: [echoTool()],
        onChange(listener: () => void) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      followers: () => listeners.size,
    };
  }

  it("leaves the registry following its sources, unless closeRegistry says the registry is the session's own", () => {
    for (const closeRegistry of [false, true]) {
      const { source, followers } = followedSource();
      const session = createAgentSession({
        registry: createToolRegistry({ extensions: [source] }),
        closeRegistry,
      });
      expect(followers()).toBe(1);
      session.close();
      expect(followers()).toBe(closeRegistry ? 0 : 1);
    }
  });
});
