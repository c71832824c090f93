import { describe, expect, it } from "vitest";
import { ToolPlanContractError } from "../errors.js";
import type { AgentTool, LiveToolSource, ToolAvailabilityExpression } from "../types.js";
import { isWrappedTool, type WrappedTool } from "../wrap/wrap-tool.js";
import { defineTool } from "./define-tool.js";
import { createToolRegistry } from "./registry.js";

function tool(name: string, text = name, extra: { availability?: ToolAvailabilityExpression; sortKey?: string } = {}) {
  return defineTool({
    name,
    description: `${name} tool`,
    inputSchema: { type: "object" },
    execute: () => text,
    ...extra,
  });
}

function liveSource(initial: AgentTool[]) {
  const listeners = new Set<() => void>();
  let current = initial;
  const source: LiveToolSource & { set(tools: AgentTool[]): void; listeners: Set<() => void> } = {
    get tools() {
      return current;
    },
    listeners,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(tools) {
      current = tools;
      for (const listener of listeners) listener();
    },
  };
  return source;
}

const ctx = { toolCallId: "x", signal: new AbortController().signal, onUpdate: () => {} };

describe("createToolRegistry", () => {
  it("builds a new Map on every refresh and never patches the old one", () => {
    const registry = createToolRegistry({ builtins: [tool("a")] });
    const first = registry.tools;
    registry.refresh({ custom: [tool("b")] });
    expect(registry.tools).not.toBe(first);
    expect([...first.keys()]).toEqual(["a"]);
    expect([...registry.tools.keys()]).toEqual(["a", "b"]);
  });

  it("iterates in the plan's visible order", () => {
    const registry = createToolRegistry({
      builtins: [tool("zeta"), tool("alpha"), tool("mid", "mid", { sortKey: "0" })],
    });
    expect([...registry.tools.keys()]).toEqual(["mid", "alpha", "zeta"]);
  });

  it("lets a later source overwrite an earlier one and reports it", async () => {
    const registry = createToolRegistry({
      builtins: [tool("read", "builtin")],
      extensions: [tool("read", "extension")],
      custom: [tool("read", "custom")],
    });
    expect(await registry.tools.get("read")?.execute({}, ctx)).toMatchObject({ content: [{ text: "custom" }] });
    expect(registry.lastReport.overrides).toMatchObject([
      { name: "read", kept: "extension", dropped: "builtin" },
      { name: "read", kept: "custom", dropped: "extension" },
    ]);
  });

  it("keeps the first tool of a name within one source and reports kept === dropped", async () => {
    const registry = createToolRegistry({ extensions: [tool("x", "first"), tool("x", "second")] });
    expect(await registry.tools.get("x")?.execute({}, ctx)).toMatchObject({ content: [{ text: "first" }] });
    expect(registry.lastReport.overrides).toMatchObject([{ name: "x", kept: "extension", dropped: "extension" }]);
    expect(registry.explain("x")).toContain("within one source the first one wins");
  });

  it("says whose tool was dropped when two MCP servers give the same name", () => {
    const from = (serverId: string) =>
      defineTool({
        name: "shared",
        description: serverId,
        inputSchema: { type: "object", properties: {} },
        owner: { kind: "mcp", serverId },
        executor: { kind: "mcp", serverId, toolName: "shared" },
        execute: () => serverId,
      });
    const registry = createToolRegistry({ extensions: [from("work"), from("home")] });
    expect(registry.lastReport.overrides).toEqual([
      {
        name: "shared",
        kept: "extension",
        dropped: "extension",
        keptOwner: { kind: "mcp", serverId: "work" },
        droppedOwner: { kind: "mcp", serverId: "home" },
      },
    ]);
    expect(registry.explain("shared")).toContain(
      "A second extension tool named shared (from MCP server home) was ignored: the one from MCP server work came first",
    );
  });

  it("drops built-ins when disabled, but not an extension of the same name", () => {
    const registry = createToolRegistry({
      builtins: [tool("read"), tool("bash")],
      extensions: [tool("read", "ext")],
      disableBuiltInTools: true,
    });
    expect([...registry.tools.keys()]).toEqual(["read"]);
    expect(registry.lastReport.excluded).toEqual([
      { name: "read", source: "builtin", reason: "builtins-disabled" },
      { name: "bash", source: "builtin", reason: "builtins-disabled" },
    ]);
    expect(registry.explain("bash")).toContain("built-in tools are disabled");
  });

  it("drops every tool outside allowedToolNames, whatever its source", () => {
    const registry = createToolRegistry({
      builtins: [tool("a"), tool("b")],
      custom: [tool("c")],
      allowedToolNames: new Set(["a", "c"]).values(), // a one-shot iterator is read once
    });
    expect([...registry.tools.keys()]).toEqual(["a", "c"]);
    expect(registry.lastReport.excluded).toEqual([{ name: "b", source: "builtin", reason: "not-in-allowlist" }]);
    registry.refresh();
    expect([...registry.tools.keys()]).toEqual(["a", "c"]);
  });

  it("applies policy layers and names the layer and pattern that removed a tool", () => {
    const registry = createToolRegistry({
      builtins: [tool("read"), tool("write"), tool("bash")],
      policy: [
        { label: "org", deny: ["bash"] },
        { label: "agent", allow: ["read"] },
      ],
    });
    expect([...registry.tools.keys()]).toEqual(["read"]);
    expect(registry.lastReport.excluded).toEqual([
      { name: "bash", source: "builtin", reason: "policy", layer: "org", pattern: "bash" },
      { name: "write", source: "builtin", reason: "policy", layer: "agent", pattern: null },
    ]);
    expect(registry.explain("bash")).toContain('policy layer "org": deny pattern "bash"');
    expect(registry.explain("write")).toContain('policy layer "agent": the layer\'s allow list does not match it');
  });

  it("hides tools whose availability fails, with diagnostics, and explains why", () => {
    const registry = createToolRegistry({
      builtins: [tool("gh", "gh", { availability: { kind: "auth", providerId: "github" } }), tool("ok")],
    });
    expect([...registry.tools.keys()]).toEqual(["ok"]);
    expect(registry.hidden.map((entry) => entry.descriptor.name)).toEqual(["gh"]);
    expect(registry.lastReport.hidden[0]?.diagnostics[0]?.reason).toBe("auth-missing");
    expect(registry.explain("gh")).toBe(
      "gh is hidden: its availability check failed.\n- Missing auth provider: github (auth-missing)",
    );
    registry.refresh({ availability: { authProviderIds: new Set(["github"]) } });
    expect([...registry.tools.keys()]).toEqual(["gh", "ok"]);
  });

  it("reports added and removed names since the previous refresh", () => {
    const registry = createToolRegistry({ builtins: [tool("a"), tool("b")] });
    expect(registry.lastReport.added).toEqual(["a", "b"]);
    const report = registry.refresh({ builtins: [tool("b"), tool("c")] });
    expect(report.added).toEqual(["c"]);
    expect(report.removed).toEqual(["a"]);
  });

  it("wraps every tool exactly once, however often it is refreshed", () => {
    const original = tool("a");
    const registry = createToolRegistry({ builtins: [original] });
    const wrapped = registry.tools.get("a") as AgentTool;
    expect(isWrappedTool(wrapped)).toBe(true);
    expect(wrapped).not.toBe(original);
    for (let index = 0; index < 3; index++) registry.refresh();
    expect(registry.tools.get("a")).toBe(wrapped);
    const second = createToolRegistry({ builtins: [wrapped] }); // a wrapper handed to another registry stays itself
    expect(second.tools.get("a")).toBe(wrapped);
  });

  it("hands out a new Map with the same entries when a refresh finds nothing changed", () => {
    const registry = createToolRegistry({ custom: [tool("b"), tool("a")] });
    const before = registry.tools;
    const report = registry.refresh();
    expect(registry.tools).not.toBe(before);
    expect([...registry.tools]).toEqual([...before]);
    expect(report.added).toEqual([]);
    expect(report.removed).toEqual([]);
  });

  it("takes a new tool object that keeps the descriptor of the one before", () => {
    const first = tool("a", "first");
    const second: AgentTool = {
      descriptor: first.descriptor,
      execute: async () => ({ content: [{ type: "text", text: "second" }] }),
    };
    const source = liveSource([first]);
    const registry = createToolRegistry({ extensions: [source] });
    source.set([second]);
    expect((registry.tools.get("a") as WrappedTool).unwrapped).toBe(second);
  });

  it("evaluates availability again on every refresh, though the tools did not change", () => {
    const env: Record<string, string> = {};
    const registry = createToolRegistry({
      custom: [tool("a", "a", { availability: { kind: "env", name: "A_KEY" } })],
      availability: { env },
    });
    expect(registry.tools.has("a")).toBe(false);
    env.A_KEY = "set";
    registry.refresh();
    expect(registry.tools.has("a")).toBe(true);
  });

  it("applies an allowlist Set changed in place at the next refresh", () => {
    const allowed = new Set(["a"]);
    const registry = createToolRegistry({ custom: [tool("a"), tool("b")], allowedToolNames: allowed });
    allowed.add("b");
    registry.refresh();
    expect([...registry.tools.keys()]).toEqual(["a", "b"]);
  });

  it("checks a descriptor that is not frozen again on every refresh", () => {
    const descriptor = { ...tool("a").descriptor };
    const registry = createToolRegistry({ custom: [{ descriptor, execute: async () => ({ content: [] }) }] });
    descriptor.name = "not a valid name";
    expect(() => registry.refresh()).toThrow(ToolPlanContractError);
  });

  it("reads live sources at every refresh and refreshes itself when one changes", () => {
    const source = liveSource([tool("mcp_a")]);
    const registry = createToolRegistry({ extensions: [source] });
    const reports: string[][] = [];
    registry.onRefresh((report) => reports.push([...report.added, ...report.removed.map((name) => `-${name}`)]));
    const before = registry.tools;
    source.set([tool("mcp_b")]);
    expect(registry.tools).not.toBe(before);
    expect([...registry.tools.keys()]).toEqual(["mcp_b"]);
    expect(reports).toEqual([["mcp_b", "-mcp_a"]]);
  });

  it("unsubscribes from a live source that leaves, and from all on close", () => {
    const source = liveSource([tool("a")]);
    const registry = createToolRegistry({ extensions: [source] });
    expect(source.listeners.size).toBe(1);
    registry.refresh({ extensions: [] });
    expect(source.listeners.size).toBe(0);
    registry.refresh({ extensions: [source] });
    registry.close();
    expect(source.listeners.size).toBe(0);
  });

  it("keeps its Map and reports the error when a source-triggered refresh fails", () => {
    const source = liveSource([tool("a")]);
    const registry = createToolRegistry({ extensions: [source] });
    const errors: Error[] = [];
    registry.onRefreshError((error) => errors.push(error));
    const before = registry.tools;
    const broken = { ...tool("b"), descriptor: { ...tool("b").descriptor, name: "bad name" } };
    source.set([broken]);
    expect(registry.tools).toBe(before);
    expect(errors[0]).toBeInstanceOf(ToolPlanContractError);
    expect((errors[0] as ToolPlanContractError).code).toBe("invalid-descriptor");
  });

  it("throws a contract error on refresh for a broken descriptor and keeps the old Map", () => {
    const registry = createToolRegistry({ builtins: [tool("a")] });
    const before = registry.tools;
    const broken = { ...tool("b"), descriptor: { ...tool("b").descriptor, inputSchema: { type: "array" } } };
    expect(() => registry.refresh({ custom: [broken] })).toThrow(ToolPlanContractError);
    expect(registry.tools).toBe(before);
  });

  it("explains an unknown name with the available tools and a case hint", () => {
    const registry = createToolRegistry({ builtins: [tool("Read"), tool("ls")] });
    expect(registry.explain("read")).toBe(
      'No tool named "read" is registered.\nDid you mean Read? (names are case-sensitive)\nAvailable tools: Read, ls.',
    );
    expect(registry.explain("Read")).toBe("Read is available: built-in tool owned by core, executor core:Read.");
  });
});

describe("deferred tools", () => {
  const big = (name: string, serverId: string) =>
    defineTool({
      name,
      description: "d".repeat(800),
      inputSchema: { type: "object" },
      owner: { kind: "mcp", serverId },
      execute: () => name,
    });

  it("reports and explains a tool deferred by a defer pattern, naming the pattern", () => {
    const registry = createToolRegistry({ custom: [tool("a"), tool("b")], defer: ["b*", "typo"] });
    expect([...registry.deferred.keys()]).toEqual(["b"]);
    expect(registry.lastReport.deferred).toEqual([
      { name: "b", reason: "pattern", pattern: "b*", tokens: expect.any(Number) },
    ]);
    expect(registry.lastReport.unknownPatterns).toEqual([{ layer: "defer", pattern: "typo" }]);
    const explained = registry.explain("b");
    expect(explained).toContain("b is available");
    expect(explained).toMatch(/b is deferred \(\d+ estimated tokens\): it matches the defer pattern "b\*"\./);
    expect(explained).toContain("tool_search");
    expect(registry.explain("a")).not.toContain("deferred");
  });

  it("explains a tool marked defer: true in its definition", () => {
    const marked = defineTool({
      name: "m",
      description: "m",
      inputSchema: { type: "object" },
      defer: true,
      execute: () => "",
    });
    const registry = createToolRegistry({ custom: [marked] });
    expect(registry.explain("m")).toContain("m is deferred (");
    expect(registry.explain("m")).toContain("its definition says defer: true");
  });

  it("explains a tool deferred by the token budget with the figures", () => {
    const registry = createToolRegistry({
      extensions: [big("s__one", "s"), big("s__two", "s")],
      deferBudgetTokens: 300,
    });
    expect(registry.deferred.size).toBeGreaterThan(0);
    const [name, why] = [...registry.deferred][0] as [string, { reason: string; sentTokens: number }];
    expect(why.reason).toBe("budget");
    expect(registry.explain(name)).toContain(
      `the tools sent up front came to ${why.sentTokens} estimated tokens, over deferBudgetTokens 300, and MCP and plugin tools are deferred largest first`,
    );
  });

  it("decides deferral again on every refresh, from the changed options", () => {
    const registry = createToolRegistry({ custom: [tool("a"), tool("b")] });
    expect(registry.deferred.size).toBe(0);
    expect(registry.refresh({ defer: ["a"] }).deferred.map((entry) => entry.name)).toEqual(["a"]);
    expect([...registry.deferred.keys()]).toEqual(["a"]);
    registry.refresh({ defer: [] });
    expect(registry.deferred.size).toBe(0);
  });

  it("defers only tools in the Map: a tool policy removed is not deferred", () => {
    const registry = createToolRegistry({
      custom: [tool("a"), tool("b")],
      policy: [{ label: "org", deny: ["b"] }],
      defer: ["b"],
    });
    expect(registry.deferred.size).toBe(0);
    expect(registry.lastReport.unknownPatterns).toContainEqual({ layer: "defer", pattern: "b" });
  });

  it("refuses a defer that is not a list of strings and a budget that is not a number 0 or above", () => {
    expect(() => createToolRegistry({ defer: "a" as unknown as string[] })).toThrow(TypeError);
    expect(() => createToolRegistry({ deferBudgetTokens: -1 })).toThrow(/deferBudgetTokens/);
    expect(() => createToolRegistry({ deferBudgetTokens: Number.NaN })).toThrow(TypeError);
    const registry = createToolRegistry({ custom: [tool("a")] });
    expect(() => registry.refresh({ deferBudgetTokens: "9" as unknown as number })).toThrow(TypeError);
    expect(registry.tools.has("a")).toBe(true);
  });
});

describe("code-only tools", () => {
  it("stay in the Map, and are reported and explained as reachable only through code, naming the pattern", () => {
    const registry = createToolRegistry({ custom: [tool("a"), tool("b")], codeOnly: ["b*", "typo"] });
    expect([...registry.tools.keys()]).toEqual(["a", "b"]);
    expect([...registry.codeOnly]).toEqual([["b", { pattern: "b*" }]]);
    expect(registry.lastReport.codeOnly).toEqual([{ name: "b", pattern: "b*" }]);
    expect(registry.lastReport.unknownPatterns).toEqual([{ layer: "codeOnly", pattern: "typo" }]);
    expect(registry.explain("b")).toContain(
      'b is reachable only through code (codeOnly pattern "b*"): it is not sent to the model',
    );
    expect(registry.explain("a")).not.toContain("only through code");
  });

  it("are never deferred, by a pattern, a mark or the budget, and the budget counts only the tools sent", () => {
    const marked = defineTool({
      name: "m",
      description: "marked",
      inputSchema: { type: "object" },
      defer: true,
      execute: () => "",
    });
    const registry = createToolRegistry({ custom: [tool("a"), tool("b"), marked], codeOnly: ["b", "m"], defer: ["b"] });
    expect(registry.deferred.size).toBe(0);
    expect(registry.lastReport.unknownPatterns).toEqual([{ layer: "defer", pattern: "b" }]);
  });

  it("are decided again on every refresh, and kept by refreshes that change something else", () => {
    const registry = createToolRegistry({ custom: [tool("a"), tool("b")], codeOnly: ["a"] });
    registry.refresh({ defer: ["b"] });
    expect([...registry.codeOnly.keys()]).toEqual(["a"]);
    expect(registry.refresh({ codeOnly: ["b"] }).codeOnly).toEqual([{ name: "b", pattern: "b" }]);
    expect(registry.deferred.size).toBe(0);
    registry.refresh({ codeOnly: [] });
    expect(registry.codeOnly.size).toBe(0);
  });

  it("refuses a codeOnly that is not a list of strings", () => {
    expect(() => createToolRegistry({ codeOnly: "a" as unknown as string[] })).toThrow(/codeOnly/);
    const registry = createToolRegistry({ custom: [tool("a")], codeOnly: ["a"] });
    expect(() => registry.refresh({ codeOnly: [1] as unknown as string[] })).toThrow(TypeError);
    expect([...registry.codeOnly.keys()]).toEqual(["a"]);
  });
});
