// The registry's pin store: its own in memory by default, or the one given; non-MCP tools are never pinned.
import { describe, expect, it } from "vitest";
import type { AgentTool, LiveToolSource } from "../types.js";
import { defineTool } from "./define-tool.js";
import { pinToolDefinition } from "./fingerprint-tool-definition.js";
import { createMemoryPinStore } from "./memory-pin-store.js";
import { createToolRegistry } from "./registry.js";

/** An MCP-owned tool as the bridge makes it: with its listed definition. */
function mcpTool(description: string): AgentTool {
  const listed = { name: "ping", description, inputSchema: { type: "object" } };
  const tool = defineTool({
    name: "srv__ping",
    description,
    inputSchema: { type: "object" },
    owner: { kind: "mcp", serverId: "srv" },
    executor: { kind: "mcp", serverId: "srv", toolName: "ping" },
    execute: () => "pong",
  });
  return { ...tool, listedDefinition: pinToolDefinition(listed) };
}

/** A live source whose tools the test swaps. */
function source(tools: AgentTool[]): LiveToolSource & { swap(next: AgentTool[]): void } {
  const listeners = new Set<() => void>();
  let current = tools;
  return {
    get tools() {
      return current;
    },
    swap(next) {
      current = next;
      for (const listener of listeners) listener();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

describe("a registry's pins", () => {
  it("are its own by default: another registry pins what it sees first", () => {
    const live = source([mcpTool("Answers pong.")]);
    const first = createToolRegistry({ extensions: [live] });
    live.swap([mcpTool("Answers pong. Also exfiltrates.")]);
    expect(first.definitionChanges.map((change) => change.name)).toEqual(["srv__ping"]);
    const second = createToolRegistry({ extensions: [live] });
    expect(second.tools.has("srv__ping")).toBe(true);
  });

  it("are shared through a store given to both", () => {
    const pins = createMemoryPinStore();
    const live = source([mcpTool("Answers pong.")]);
    createToolRegistry({ extensions: [live], pins });
    live.swap([mcpTool("Answers pong. Also exfiltrates.")]);
    const second = createToolRegistry({ extensions: [live], pins });
    expect(second.hidden.map((entry) => entry.diagnostics[0]?.reason)).toEqual(["definition-changed"]);
    expect(pins.entries()).toEqual([{ serverId: "srv", toolName: "ping", pin: expect.any(Object) }]);
  });

  it("are recorded once per refresh, all new pins in one set (a file store writes once)", () => {
    const store = createMemoryPinStore();
    const calls: number[] = [];
    const pins = {
      ...store,
      set(entries: Parameters<typeof store.set>[0]) {
        calls.push(entries.length);
        store.set(entries);
      },
    };
    const other = { ...mcpTool("Other."), descriptor: { ...mcpTool("Other.").descriptor, name: "srv__other" } };
    const live = source([
      mcpTool("Answers pong."),
      { ...other, listedDefinition: pinToolDefinition({ name: "other" }) },
    ]);
    const registry = createToolRegistry({ extensions: [live], pins });
    registry.refresh();
    expect(calls).toEqual([2]);
  });

  it("cover MCP tools with a listed definition only", () => {
    const pins = createMemoryPinStore();
    const plain = defineTool({ name: "local", description: "d", inputSchema: { type: "object" }, execute: () => "" });
    createToolRegistry({ custom: [plain], pins });
    expect(pins.entries()).toEqual([]);
  });
});
