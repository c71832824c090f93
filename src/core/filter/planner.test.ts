import { describe, expect, it, vi } from "vitest";
import { ToolPlanContractError } from "../errors.js";
import type { ToolDescriptor } from "../types.js";
import { formatToolExecutorRef, toToolProtocolDescriptors } from "./descriptor.js";
import { buildToolPlan, orderToolDescriptors } from "./planner.js";

function tool(name: string, extra: Partial<ToolDescriptor> = {}): ToolDescriptor {
  return {
    name,
    description: `${name} tool`,
    inputSchema: { type: "object" },
    owner: { kind: "core" },
    executor: { kind: "core", executorId: name },
    ...extra,
  };
}

function contractError(run: () => unknown): ToolPlanContractError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolPlanContractError);
    return error as ToolPlanContractError;
  }
  throw new Error("expected a ToolPlanContractError");
}

describe("buildToolPlan", () => {
  it("sorts by sortKey, else name, ties by name, comparing code units", () => {
    const plan = buildToolPlan({
      descriptors: [
        tool("b"),
        tool("a", { sortKey: "z" }),
        tool("C"),
        tool("c"),
        tool("x", { sortKey: "b" }),
        tool("q", { sortKey: "é" }),
      ],
    });
    // "C" (0x43) < "b" (0x62) = sortKey of x, tie broken by name "b" < "x"; sortKey "é" (0xe9) sorts after "z"
    expect(plan.visible.map((entry) => entry.descriptor.name)).toEqual(["C", "b", "x", "c", "a", "q"]);
  });

  it("does not mutate its input", () => {
    const descriptors = Object.freeze([tool("b"), tool("a")]);
    buildToolPlan({ descriptors });
    expect(descriptors.map((d) => d.name)).toEqual(["b", "a"]);
  });

  it("throws duplicate-tool-name before availability is evaluated, hidden or not", () => {
    const probe = vi.fn(() => true);
    const error = contractError(() =>
      buildToolPlan({
        descriptors: [
          tool("dup", { availability: { kind: "config", path: ["x"], check: "available" } }),
          tool("dup", { availability: { kind: "auth", providerId: "none" } }),
        ],
        availability: { config: { x: 1 }, isConfigValueAvailable: probe },
      }),
    );
    expect(error.code).toBe("duplicate-tool-name");
    expect(error.toolName).toBe("dup");
    expect(error.message).toBe("Duplicate tool descriptor name: dup");
    expect(probe).not.toHaveBeenCalled();
  });

  it("puts unavailable tools in hidden with diagnostics, both buckets in sorted order", () => {
    const plan = buildToolPlan({
      descriptors: [
        tool("z", { availability: { kind: "env", name: "Z" } }),
        tool("b"),
        tool("y", { availability: { kind: "env", name: "Y" } }),
        tool("a"),
      ],
      availability: { env: {} },
    });
    expect(plan.visible.map((entry) => entry.descriptor.name)).toEqual(["a", "b"]);
    expect(plan.visible[0]?.executor).toEqual({ kind: "core", executorId: "a" });
    expect(plan.hidden.map((entry) => [entry.descriptor.name, entry.diagnostics[0]?.message])).toEqual([
      ["y", "Missing environment value: Y"],
      ["z", "Missing environment value: Z"],
    ]);
  });

  it("lets a hidden tool omit its executor but throws missing-executor for a visible one", () => {
    const hidden = buildToolPlan({
      descriptors: [tool("h", { executor: undefined, availability: { kind: "auth", providerId: "p" } })],
    });
    expect(hidden.hidden).toHaveLength(1);
    const error = contractError(() => buildToolPlan({ descriptors: [tool("v", { executor: undefined })] }));
    expect(error.code).toBe("missing-executor");
    expect(error.message).toBe("Visible tool descriptor has no executor ref: v");
    expect(error.toolName).toBe("v");
  });

  it.each([
    ["a name with a space", tool("bad name"), "name"],
    ["an empty name", tool(""), "name"],
    ["a 65-character name", tool("x".repeat(65)), "name"],
    [
      "an inputSchema that is not an object schema",
      tool("s", { inputSchema: { type: "string" } }),
      'expected "object"',
    ],
    ["a missing inputSchema", tool("s", { inputSchema: undefined as never }), "inputSchema"],
  ])("throws invalid-descriptor for %s, naming what is wrong", (_, descriptor, words) => {
    const error = contractError(() => buildToolPlan({ descriptors: [descriptor] }));
    expect(error.code).toBe("invalid-descriptor");
    expect(error.message).toContain(words);
  });

  it("accepts a 64-character name", () => {
    expect(buildToolPlan({ descriptors: [tool("x".repeat(64))] }).visible).toHaveLength(1);
  });

  it("is pure: no logging", () => {
    const spies = (["log", "warn", "error", "info", "debug"] as const).map((method) => vi.spyOn(console, method));
    buildToolPlan({ descriptors: [tool("a"), tool("b", { availability: { kind: "env", name: "B" } })] });
    for (const spy of spies) {
      expect(spy).not.toHaveBeenCalled();
      spy.mockRestore();
    }
  });
});

describe("orderToolDescriptors", () => {
  it("returns the earlier answer for the same frozen descriptors in the same order", () => {
    const descriptors = [
      Object.freeze(tool("b", { inputSchema: Object.freeze({ type: "object" }) })),
      Object.freeze(tool("a", { inputSchema: Object.freeze({ type: "object" }) })),
    ];
    const first = orderToolDescriptors(descriptors);
    expect(first.fixed).toBe(true);
    expect(first.sorted.map((d) => d.name)).toEqual(["a", "b"]);
    expect(orderToolDescriptors([...descriptors], first)).toBe(first);
    expect(orderToolDescriptors([...descriptors].reverse(), first)).not.toBe(first);
  });

  it("checks and sorts again when a descriptor is not frozen, and finds it changed", () => {
    const loose = tool("a");
    const first = orderToolDescriptors([loose]);
    expect(first.fixed).toBe(false);
    (loose as { name: string }).name = "bad name";
    expect(contractError(() => orderToolDescriptors([loose], first)).code).toBe("invalid-descriptor");
  });
});

describe("descriptors", () => {
  it("formats every executor ref kind", () => {
    expect(formatToolExecutorRef({ kind: "core", executorId: "read" })).toBe("core:read");
    expect(formatToolExecutorRef({ kind: "plugin", pluginId: "p", toolName: "t" })).toBe("plugin:p:t");
    expect(formatToolExecutorRef({ kind: "channel", channelId: "c", actionId: "a" })).toBe("channel:c:a");
    expect(formatToolExecutorRef({ kind: "mcp", serverId: "s", toolName: "t" })).toBe("mcp:s:t");
  });

  it("maps visible entries to exactly name, description and inputSchema", () => {
    const plan = buildToolPlan({
      descriptors: [
        tool("a", { title: "A", annotations: { readOnlyHint: true }, sortKey: "k", outputSchema: { type: "object" } }),
      ],
    });
    const [protocol] = toToolProtocolDescriptors(plan.visible);
    expect(Object.keys(protocol ?? {})).toEqual(["name", "description", "inputSchema"]);
    expect(protocol).toEqual({ name: "a", description: "a tool", inputSchema: { type: "object" } });
  });
});
