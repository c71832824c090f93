import { describe, expect, it } from "vitest";
import type { ToolAvailabilityContext, ToolAvailabilityExpression, ToolDescriptor } from "../types.js";
import { evaluateToolAvailability } from "./availability.js";

function descriptor(availability?: unknown): ToolDescriptor {
  return {
    name: "t",
    description: "d",
    inputSchema: { type: "object" },
    owner: { kind: "core" },
    executor: { kind: "core", executorId: "t" },
    availability: availability as ToolAvailabilityExpression,
  };
}

const evaluate = (availability: unknown, context?: ToolAvailabilityContext) =>
  evaluateToolAvailability({ descriptor: descriptor(availability), context });

const UNSUPPORTED = [{ reason: "unsupported-signal", message: "Unsupported availability expression" }];

describe("evaluateToolAvailability signals", () => {
  it("treats an absent expression and `always` as available", () => {
    expect(evaluate(undefined)).toEqual([]);
    expect(evaluate({ kind: "always" })).toEqual([]);
  });

  it("auth passes when the provider is known, else auth-missing with the signal", () => {
    const signal = { kind: "auth", providerId: "github" };
    expect(evaluate(signal, { authProviderIds: new Set(["github"]) })).toEqual([]);
    expect(evaluate(signal, { authProviderIds: new Set(["gitlab"]) })).toEqual([
      { reason: "auth-missing", signal, message: "Missing auth provider: github" },
    ]);
    expect(evaluate(signal)).toEqual([{ reason: "auth-missing", signal, message: "Missing auth provider: github" }]);
  });

  it("config exists walks nested objects and fails on undefined or null", () => {
    const signal = { kind: "config", path: ["a", "b"] };
    const missing = [{ reason: "config-missing", signal, message: "Missing config path: a.b" }];
    expect(evaluate(signal, { config: { a: { b: 0 } } })).toEqual([]);
    expect(evaluate(signal, { config: { a: { b: false } } })).toEqual([]);
    expect(evaluate(signal, { config: { a: { b: "" } } })).toEqual([]);
    expect(evaluate(signal, { config: { a: { b: null } } })).toEqual(missing);
    expect(evaluate(signal, { config: { a: {} } })).toEqual(missing);
    expect(evaluate(signal, { config: { a: "string" } })).toEqual(missing);
    expect(evaluate(signal)).toEqual(missing);
  });

  it("config never reads inherited properties", () => {
    expect(evaluate({ kind: "config", path: ["constructor"] }, { config: {} })).toHaveLength(1);
    expect(evaluate({ kind: "config", path: ["a", "toString"] }, { config: { a: {} } })).toHaveLength(1);
  });

  it("config non-empty needs a non-blank string, a non-empty array or an object with a key", () => {
    const at = (value: unknown) =>
      evaluate({ kind: "config", path: ["v"], check: "non-empty" }, { config: { v: value } as never }).length === 0;
    expect(at("x")).toBe(true);
    expect(at("  ")).toBe(false);
    expect(at([])).toBe(false);
    expect(at([1])).toBe(true);
    expect(at({})).toBe(false);
    expect(at({ k: 1 })).toBe(true);
    expect(at(0)).toBe(true);
    expect(at(false)).toBe(true);
  });

  it("config available asks the resolver and fails without one or when it does not return true", () => {
    const signal = { kind: "config", path: ["key"], check: "available" } as const;
    const seen: unknown[] = [];
    const context = (answer: unknown): ToolAvailabilityContext => ({
      config: { key: "secret-ref" },
      isConfigValueAvailable: (query) => {
        seen.push(query);
        return answer as boolean;
      },
    });
    expect(evaluate(signal, context(true))).toEqual([]);
    expect(seen[0]).toEqual({ value: "secret-ref", path: ["key"], signal });
    expect(evaluate(signal, context("yes"))).toHaveLength(1);
    expect(evaluate(signal, { config: { key: "x" } })).toEqual([
      { reason: "config-missing", signal, message: "Missing config path: key" },
    ]);
    const throwing: ToolAvailabilityContext = {
      config: { key: "x" },
      isConfigValueAvailable: () => {
        throw new Error("boom");
      },
    };
    expect(evaluate(signal, throwing)).toHaveLength(1);
  });

  it("env needs a non-blank value after trim", () => {
    const signal = { kind: "env", name: "TOKEN" };
    const missing = [{ reason: "env-missing", signal, message: "Missing environment value: TOKEN" }];
    expect(evaluate(signal, { env: { TOKEN: "x" } })).toEqual([]);
    expect(evaluate(signal, { env: { TOKEN: " \t" } })).toEqual(missing);
    expect(evaluate(signal, { env: {} })).toEqual(missing);
    expect(evaluate({ kind: "env", name: "toString" }, { env: {} })).toHaveLength(1);
  });

  it("plugin-enabled needs the plugin id", () => {
    const signal = { kind: "plugin-enabled", pluginId: "notes" };
    expect(evaluate(signal, { enabledPluginIds: new Set(["notes"]) })).toEqual([]);
    expect(evaluate(signal)).toEqual([{ reason: "plugin-disabled", signal, message: "Plugin is not enabled: notes" }]);
  });

  it("capability passes when the host has it, else capability-missing with the signal", () => {
    const signal = { kind: "capability", name: "sandbox" };
    const missing = [{ reason: "capability-missing", signal, message: "Missing capability: sandbox" }];
    expect(evaluate(signal, { capabilities: new Set(["sandbox"]) })).toEqual([]);
    expect(evaluate(signal, { capabilities: new Set(["network"]) })).toEqual(missing);
    expect(evaluate(signal)).toEqual(missing);
    expect(evaluate({ kind: "capability", name: 7 })).toEqual(UNSUPPORTED);
    expect(evaluate({ kind: "capability" })).toEqual(UNSUPPORTED);
  });

  it("a capability's explanation says why in the diagnostic's message; one that is not a string is malformed", () => {
    const signal = { kind: "capability", name: "sandbox", explanation: "bubblewrap is not installed" };
    expect(evaluate(signal)).toEqual([
      { reason: "capability-missing", signal, message: "Missing capability: sandbox: bubblewrap is not installed" },
    ]);
    expect(evaluate(signal, { capabilities: new Set(["sandbox"]) })).toEqual([]);
    expect(evaluate({ kind: "capability", name: "sandbox", explanation: 7 })).toEqual(UNSUPPORTED);
  });

  it("context without equals needs a defined value", () => {
    const signal = { kind: "context", key: "channel" };
    expect(evaluate(signal, { values: { channel: null } })).toEqual([]);
    expect(evaluate(signal, { values: { channel: undefined } })).toEqual([
      { reason: "context-mismatch", signal, message: "Missing context value: channel" },
    ]);
    expect(evaluate({ kind: "context", key: "toString" }, { values: {} })).toHaveLength(1);
  });

  it("context with equals needs a strictly equal value", () => {
    const signal = { kind: "context", key: "mode", equals: 1 };
    expect(evaluate(signal, { values: { mode: 1 } })).toEqual([]);
    expect(evaluate(signal, { values: { mode: "1" } })).toEqual([
      { reason: "context-mismatch", signal, message: "Context value did not match: mode" },
    ]);
    expect(evaluate({ kind: "context", key: "mode", equals: null }, { values: { mode: null } })).toEqual([]);
  });

  it("counts a property whose value is undefined as absent", () => {
    expect(evaluate({ kind: "context", key: "k", equals: undefined }, { values: { k: "v" } })).toEqual([]);
    expect(evaluate({ kind: "config", path: ["a"], check: undefined }, { config: { a: 1 } })).toEqual([]);
    expect(evaluate({ allOf: [{ kind: "always" }], anyOf: undefined })).toEqual([]);
  });
});

describe("evaluateToolAvailability groups", () => {
  const auth = { kind: "auth", providerId: "a" };
  const env = { kind: "env", name: "E" };

  it("allOf concatenates every child's diagnostics in order", () => {
    expect(evaluate({ allOf: [auth, { kind: "always" }, env] }).map((d) => d.reason)).toEqual([
      "auth-missing",
      "env-missing",
    ]);
  });

  it("anyOf passes when one child passes and reports all children when none does", () => {
    expect(evaluate({ anyOf: [auth, env] }, { env: { E: "1" } })).toEqual([]);
    expect(evaluate({ anyOf: [auth, env] }).map((d) => d.message)).toEqual([
      "Missing auth provider: a",
      "Missing environment value: E",
    ]);
  });

  it("anyOf never hides an empty (malformed) branch behind a passing one", () => {
    expect(evaluate({ anyOf: [{ kind: "always" }, { allOf: [] }] })).toEqual([
      { reason: "unsupported-signal", message: "Empty availability allOf group" },
    ]);
  });

  it("empty groups give their own unsupported-signal diagnostic without a signal", () => {
    expect(evaluate({ allOf: [] })).toEqual([
      { reason: "unsupported-signal", message: "Empty availability allOf group" },
    ]);
    expect(evaluate({ anyOf: [] })).toEqual([
      { reason: "unsupported-signal", message: "Empty availability anyOf group" },
    ]);
  });

  it("accepts the same object used twice as siblings", () => {
    expect(evaluate({ allOf: [auth, auth] })).toEqual([
      { reason: "auth-missing", signal: auth, message: "Missing auth provider: a" },
      { reason: "auth-missing", signal: auth, message: "Missing auth provider: a" },
    ]);
  });
});

describe("evaluateToolAvailability malformed expressions", () => {
  it.each([
    ["a string", "always"],
    ["null", null],
    ["an array", [{ kind: "always" }]],
    ["an unknown kind", { kind: "moon-phase" }],
    ["auth without providerId", { kind: "auth" }],
    ["config with a non-array path", { kind: "config", path: "a.b" }],
    ["config with a non-string segment", { kind: "config", path: ["a", 1] }],
    ["config with an unknown check", { kind: "config", path: ["a"], check: "truthy" }],
    ["env with a numeric name", { kind: "env", name: 3 }],
    ["context with an object equals", { kind: "context", key: "k", equals: {} }],
    ["a group that is not an array", { allOf: { kind: "always" } }],
    ["a group with both allOf and anyOf", { allOf: [{ kind: "always" }], anyOf: [{ kind: "always" }] }],
    ["a group with a kind", { kind: "always", allOf: [{ kind: "always" }] }],
    ["a malformed child deep inside", { allOf: [{ anyOf: [{ kind: "always" }, { kind: 5 }] }] }],
  ])("gives the single unsupported-signal diagnostic for %s", (_, expression) => {
    expect(evaluate(expression, { env: {}, authProviderIds: new Set() })).toEqual(UNSUPPORTED);
  });

  it("treats a cycle as malformed", () => {
    const cycle: { allOf: unknown[] } = { allOf: [] };
    cycle.allOf.push({ anyOf: [cycle] });
    expect(evaluate(cycle)).toEqual(UNSUPPORTED);
  });

  function nest(depth: number): unknown {
    let expression: unknown = { kind: "always" };
    for (let index = 0; index < depth; index++) expression = { allOf: [expression] };
    return expression;
  }

  it("accepts 64 nested groups and rejects 65", () => {
    expect(evaluate(nest(64))).toEqual([]);
    expect(evaluate(nest(65))).toEqual(UNSUPPORTED);
  });

  it("never overflows the stack on very deep nesting", () => {
    expect(evaluate(nest(200_000))).toEqual(UNSUPPORTED);
  });

  it("evaluates a shared sub-expression once (a diamond chain stays linear)", () => {
    let calls = 0;
    const context: ToolAvailabilityContext = {
      config: { k: 1 },
      isConfigValueAvailable: () => {
        calls++;
        return true;
      },
    };
    let expression: unknown = { kind: "config", path: ["k"], check: "available" };
    for (let index = 0; index < 60; index++) expression = { anyOf: [expression, expression] };
    expect(evaluate(expression, context)).toEqual([]); // 2^60 paths would never finish
    expect(calls).toBe(1);
  });

  it("keeps the diagnostics of a failing diamond bounded", () => {
    let expression: unknown = { kind: "env", name: "E" };
    for (let index = 0; index < 60; index++) expression = { allOf: [expression, expression] };
    const diagnostics = evaluate(expression);
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.length).toBeLessThanOrEqual(256);
    expect(diagnostics.every((d) => d.reason === "env-missing")).toBe(true);
  });
});
