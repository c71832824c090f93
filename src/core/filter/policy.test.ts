// applyToolPolicy: patterns, deny-wins layers that only narrow, and the report of every removal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool } from "../register/define-tool.js";
import { createToolRegistry } from "../register/registry.js";
import type { PolicyLayer, ToolDescriptor, ToolOwnerRef } from "../types.js";
import { applyToolPolicy, compilePolicyPattern } from "./policy.js";

function tool(name: string, owner: ToolOwnerRef = { kind: "core" }): ToolDescriptor {
  return { name, description: `${name} tool`, inputSchema: { type: "object" }, owner };
}

const names = (tools: readonly ToolDescriptor[]) => tools.map((t) => t.name);

const CORE = ["read", "write", "edit", "ls", "grep", "find", "bash"].map((name) => tool(name));
const MIXED = [
  ...CORE,
  tool("web_search"),
  tool("notes_add", { kind: "plugin", pluginId: "notes" }),
  tool("notes_list", { kind: "plugin", pluginId: "Notes" }),
  tool("slack_send", { kind: "channel", channelId: "slack", pluginId: "chat" }),
  tool("irc_send", { kind: "channel", channelId: "irc" }),
  tool("fs__read_file", { kind: "mcp", serverId: "fs" }),
  tool("GitHub__create_issue", { kind: "mcp", serverId: "GitHub" }),
];

function keptBy(patterns: string[]): string[] {
  return names(applyToolPolicy(MIXED, [{ label: "test", allow: patterns }]).kept);
}

describe("applyToolPolicy: patterns", () => {
  it("an exact name matches that tool only", () => {
    expect(keptBy(["grep"])).toEqual(["grep"]);
  });

  it("ignores case and surrounding blanks, in the pattern and the tool name", () => {
    expect(keptBy(["  GREP\t", "github__CREATE_issue"])).toEqual(["grep", "GitHub__create_issue"]);
  });

  it("* matches every tool", () => {
    expect(keptBy(["*"])).toEqual(names(MIXED));
  });

  it("a glob treats only * as special", () => {
    expect(keptBy(["notes_*"])).toEqual(["notes_add", "notes_list"]);
    expect(keptBy(["*_send"])).toEqual(["slack_send", "irc_send"]);
    expect(keptBy(["*__*"])).toEqual(["fs__read_file", "GitHub__create_issue"]);
    expect(keptBy(["w*e"])).toEqual(["write"]);
  });

  it("regular-expression characters in a glob are literal", () => {
    const tools = [tool("a-b"), tool("axb"), tool("ab"), tool("a_b")];
    const keep = (pattern: string) => names(applyToolPolicy(tools, [{ label: "l", allow: [pattern] }]).kept);
    expect(keep("a.b*")).toEqual([]);
    expect(keep("a?b")).toEqual([]);
    expect(keep("a[x]b")).toEqual([]);
    expect(keep("a-*")).toEqual(["a-b"]);
    expect(keep("a*b")).toEqual(["a-b", "axb", "ab", "a_b"]);
  });

  it("group:fs is read, write, edit, ls, grep and find; group:runtime is bash", () => {
    expect(keptBy(["group:fs"])).toEqual(["read", "write", "edit", "ls", "grep", "find"]);
    expect(keptBy(["Group:Runtime"])).toEqual(["bash"]);
  });

  it("group:fs matches by name whoever owns the tool", () => {
    const tools = [tool("read", { kind: "plugin", pluginId: "p" }), tool("cat")];
    expect(names(applyToolPolicy(tools, [{ label: "l", allow: ["group:fs"] }]).kept)).toEqual(["read"]);
  });

  it("group:mcp is every tool owned by an MCP server", () => {
    expect(keptBy(["group:mcp"])).toEqual(["fs__read_file", "GitHub__create_issue"]);
  });

  it("group:plugins is every plugin tool, channel tools of a plugin included", () => {
    expect(keptBy(["group:plugins"])).toEqual(["notes_add", "notes_list", "slack_send"]);
  });

  it("plugin:<id> matches every tool whose owner has that pluginId, ignoring case", () => {
    expect(keptBy(["plugin:notes"])).toEqual(["notes_add", "notes_list"]);
    expect(keptBy(["plugin:CHAT"])).toEqual(["slack_send"]);
    expect(keptBy(["plugin:irc"])).toEqual([]);
  });

  it("mcp:<serverId> matches that server's tools, ignoring case", () => {
    expect(keptBy(["mcp:github"])).toEqual(["GitHub__create_issue"]);
    expect(keptBy(["mcp:fs"])).toEqual(["fs__read_file"]);
  });

  it("an unknown group, a blank pattern and a plugin: prefix with no plugin match nothing", () => {
    expect(keptBy(["group:net"])).toEqual([]);
    expect(keptBy(["   "])).toEqual([]);
    expect(keptBy(["plugin:"])).toEqual([]);
  });

  it.each(["constructor", "__proto__", "CONSTRUCTOR "])("treats %j as a tool name, not a group", (pattern) => {
    const tools = [tool("read"), tool("constructor"), tool("__proto__")];
    const result = applyToolPolicy(tools, [{ label: "only", allow: [pattern] }]);
    expect(names(result.kept)).toEqual([pattern.trim().toLowerCase()]);
    expect(result.unknownPatterns).toEqual([]);
  });
});

describe("applyToolPolicy: layers", () => {
  it("no layers keep everything and report nothing", () => {
    expect(applyToolPolicy(MIXED, [])).toEqual({ kept: MIXED, removed: [], unknownPatterns: [] });
  });

  it("an absent or empty allow allows all", () => {
    expect(names(applyToolPolicy(CORE, [{ label: "a" }]).kept)).toEqual(names(CORE));
    expect(names(applyToolPolicy(CORE, [{ label: "a", allow: [], deny: [] }]).kept)).toEqual(names(CORE));
  });

  it("within a layer deny wins over allow, and the removal names the deny pattern as written", () => {
    const result = applyToolPolicy(CORE, [{ label: "team", allow: ["*", "bash"], deny: [" Group:Runtime "] }]);
    expect(names(result.kept)).toEqual(["read", "write", "edit", "ls", "grep", "find"]);
    expect(result.removed).toEqual([{ name: "bash", layer: "team", pattern: " Group:Runtime " }]);
  });

  it("the first matching deny pattern is the one reported", () => {
    const result = applyToolPolicy(CORE, [{ label: "l", deny: ["b*", "bash"] }]);
    expect(result.removed).toEqual([{ name: "bash", layer: "l", pattern: "b*" }]);
  });

  it("a tool the allow list misses is removed with pattern null", () => {
    const result = applyToolPolicy(CORE, [{ label: "read-only", allow: ["read", "ls"] }]);
    expect(names(result.kept)).toEqual(["read", "ls"]);
    expect(result.removed).toEqual(
      ["write", "edit", "grep", "find", "bash"].map((name) => ({ name, layer: "read-only", pattern: null })),
    );
  });

  it("a later layer never brings back what an earlier one removed", () => {
    const result = applyToolPolicy(CORE, [
      { label: "global", deny: ["bash"] },
      { label: "agent", allow: ["bash", "read"] },
    ]);
    expect(names(result.kept)).toEqual(["read"]);
    expect(result.removed).toEqual([
      { name: "bash", layer: "global", pattern: "bash" },
      ...["write", "edit", "ls", "grep", "find"].map((name) => ({ name, layer: "agent", pattern: null })),
    ]);
  });

  it("each removed tool is reported once, at the layer that removed it", () => {
    const result = applyToolPolicy(CORE, [
      { label: "one", deny: ["bash"] },
      { label: "two", deny: ["bash", "write"] },
    ]);
    expect(result.removed).toEqual([
      { name: "bash", layer: "one", pattern: "bash" },
      { name: "write", layer: "two", pattern: "write" },
    ]);
  });

  it("keeps the input order and does not mutate its arguments", () => {
    const tools = [tool("zeta"), tool("alpha"), tool("mid")];
    const layers: PolicyLayer[] = [{ label: "l", allow: ["mid", "zeta"] }];
    const snapshot = JSON.stringify({ tools, layers });
    expect(names(applyToolPolicy(tools, layers).kept)).toEqual(["zeta", "mid"]);
    expect(JSON.stringify({ tools, layers })).toBe(snapshot);
  });
});

describe("applyToolPolicy: unknown patterns", () => {
  it("reports a pattern that matches no tool, as written, with its layer", () => {
    const result = applyToolPolicy(CORE, [{ label: "l", allow: ["read", " Raed "], deny: ["group:net", "mcp:gh"] }]);
    expect(result.unknownPatterns).toEqual([
      { layer: "l", pattern: " Raed " },
      { layer: "l", pattern: "group:net" },
      { layer: "l", pattern: "mcp:gh" },
    ]);
  });

  it("reports an unknown pattern once per layer, whatever its case or blanks, and again in another layer", () => {
    const result = applyToolPolicy(CORE, [
      { label: "a", allow: ["nope", "NOPE"], deny: [" nope "] },
      { label: "b", deny: ["nope"] },
    ]);
    expect(result.unknownPatterns).toEqual([
      { layer: "a", pattern: "nope" },
      { layer: "b", pattern: "nope" },
    ]);
  });

  it("judges patterns against the input tools, not what earlier layers left", () => {
    const result = applyToolPolicy(CORE, [
      { label: "first", deny: ["bash"] },
      { label: "second", deny: ["bash"] },
    ]);
    expect(result.unknownPatterns).toEqual([]);
  });
});

// ---------------------------------------------------------------- properties

/** An independent model of the pattern language: globs by recursion, groups spelled out. */
function referenceMatches(pattern: string, descriptor: ToolDescriptor): boolean {
  const p = pattern.trim().toLowerCase();
  const name = descriptor.name.toLowerCase();
  const owner = descriptor.owner;
  const pluginId = owner.kind === "plugin" || owner.kind === "channel" ? owner.pluginId : undefined;
  if (p === "group:fs") return ["read", "write", "edit", "ls", "grep", "find"].includes(name);
  if (p === "group:runtime") return name === "bash";
  if (p === "group:mcp") return owner.kind === "mcp";
  if (p === "group:plugins") return pluginId !== undefined;
  if (p.startsWith("group:")) return false;
  if (p.startsWith("plugin:")) return pluginId !== undefined && pluginId.toLowerCase() === p.slice(7);
  if (p.startsWith("mcp:")) return owner.kind === "mcp" && owner.serverId.toLowerCase() === p.slice(4);
  if (p === "") return false;
  const glob = (g: string, s: string): boolean => {
    if (g === "") return s === "";
    if (g[0] === "*") return glob(g.slice(1), s) || (s !== "" && glob(g, s.slice(1)));
    return s !== "" && g[0] === s[0] && glob(g.slice(1), s.slice(1));
  };
  return glob(p, name);
}

function referenceKeeps(layer: PolicyLayer, descriptor: ToolDescriptor): boolean {
  if ((layer.deny ?? []).some((p) => referenceMatches(p, descriptor))) return false;
  const allow = layer.allow ?? [];
  return allow.length === 0 || allow.some((p) => referenceMatches(p, descriptor));
}

const NAME_POOL = ["read", "write", "edit", "ls", "grep", "find", "bash", "Bash", "web_search", "notes_add", "x-y"];
const ID_POOL = ["notes", "Notes", "gh", "fs"];

const ownerArb: fc.Arbitrary<ToolOwnerRef> = fc.oneof(
  fc.constant({ kind: "core" as const }),
  fc.constantFrom(...ID_POOL).map((pluginId) => ({ kind: "plugin" as const, pluginId })),
  fc
    .record({ channelId: fc.constantFrom("slack", "irc"), pluginId: fc.option(fc.constantFrom(...ID_POOL)) })
    .map(({ channelId, pluginId }) =>
      pluginId === null ? { kind: "channel" as const, channelId } : { kind: "channel" as const, channelId, pluginId },
    ),
  fc.constantFrom(...ID_POOL).map((serverId) => ({ kind: "mcp" as const, serverId })),
);

const toolsArb = fc
  .uniqueArray(
    fc.record({
      name: fc.oneof(fc.constantFrom(...NAME_POOL), fc.stringMatching(/^[A-Za-z0-9_-]{1,6}$/)),
      owner: ownerArb,
    }),
    { selector: (t) => t.name, maxLength: 12 },
  )
  .map((list) => list.map(({ name, owner }) => tool(name, owner)));

const shake = (pattern: string) =>
  fc
    .tuple(fc.boolean(), fc.constantFrom("", " ", "\t"), fc.constantFrom("", " "))
    .map(([upper, before, after]) => `${before}${upper ? pattern.toUpperCase() : pattern}${after}`);

const patternArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NAME_POOL).chain(shake),
  fc.constantFrom("*", "group:fs", "group:runtime", "group:mcp", "group:plugins", "group:nope").chain(shake),
  fc.constantFrom(...ID_POOL).chain((id) => fc.constantFrom(`plugin:${id}`, `mcp:${id}`)),
  fc.stringMatching(/^[a-z_*-]{1,5}$/),
  fc.constantFrom("constructor", "__proto__", "a.b", "(", "[x]", "\\"),
);

const layerArb: fc.Arbitrary<PolicyLayer> = fc.record(
  {
    label: fc.constantFrom("global", "team", "agent", "skill"),
    allow: fc.array(patternArb, { maxLength: 4 }),
    deny: fc.array(patternArb, { maxLength: 3 }),
  },
  { requiredKeys: ["label"] },
);

const layersArb = fc.array(layerArb, { maxLength: 4 });

describe("applyToolPolicy: properties", () => {
  it("agrees with an independent model of patterns and layers", () => {
    fc.assert(
      fc.property(toolsArb, layersArb, (tools, layers) => {
        const expected = tools.filter((t) => layers.every((layer) => referenceKeeps(layer, t)));
        expect(names(applyToolPolicy(tools, layers).kept)).toEqual(names(expected));
      }),
      { numRuns: 400 },
    );
  });

  it("a later layer never adds a tool", () => {
    fc.assert(
      fc.property(toolsArb, layersArb, layerArb, (tools, layers, extra) => {
        const before = new Set(names(applyToolPolicy(tools, layers).kept));
        const after = names(applyToolPolicy(tools, [...layers, extra]).kept);
        for (const name of after) expect(before.has(name)).toBe(true);
        const first = new Set(names(applyToolPolicy(tools, [extra]).kept));
        for (const name of names(applyToolPolicy(tools, [extra, ...layers]).kept)) expect(first.has(name)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("deny always beats allow, whatever the allow list says", () => {
    fc.assert(
      fc.property(toolsArb, layersArb, patternArb, (tools, layers, denied) => {
        // every layer allows all and also names `denied` in both lists
        const contested = layers.map((layer) => ({
          ...layer,
          allow: ["*", denied, ...(layer.allow ?? [])],
          deny: [...(layer.deny ?? []), denied],
        }));
        const result = applyToolPolicy(tools, contested);
        if (contested.length === 0) return;
        const deny = compilePolicyPattern(denied);
        for (const kept of result.kept) expect(deny(kept, kept.name.toLowerCase())).toBe(false);
        for (const removal of result.removed) expect(removal.pattern).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("the kept set equals the set that every layer would keep on its own", () => {
    fc.assert(
      fc.property(toolsArb, layersArb, (tools, layers) => {
        const alone = layers.map((layer) => new Set(names(applyToolPolicy(tools, [layer]).kept)));
        const intersection = names(tools).filter((name) => alone.every((set) => set.has(name)));
        expect(names(applyToolPolicy(tools, layers).kept)).toEqual(intersection);
      }),
      { numRuns: 300 },
    );
  });

  it("kept and removed split the input, each removal naming a real layer and a pattern of its own lists", () => {
    fc.assert(
      fc.property(toolsArb, layersArb, (tools, layers) => {
        const result = applyToolPolicy(tools, layers);
        const removedNames = result.removed.map((r) => r.name);
        expect(new Set(removedNames).size).toBe(removedNames.length);
        expect([...names(result.kept), ...removedNames].sort()).toEqual(names(tools).sort());
        for (const removal of result.removed) {
          const candidates = layers.filter((layer) => layer.label === removal.layer);
          expect(candidates.length).toBeGreaterThan(0);
          if (removal.pattern !== null) {
            expect(candidates.some((layer) => (layer.deny ?? []).includes(removal.pattern as string))).toBe(true);
          } else {
            expect(candidates.some((layer) => (layer.allow ?? []).length > 0)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reports exactly the patterns that match no input tool, once per layer", () => {
    fc.assert(
      fc.property(toolsArb, layersArb, (tools, layers) => {
        const expected: { layer: string; pattern: string }[] = [];
        for (const layer of layers) {
          const seen = new Set<string>();
          for (const pattern of [...(layer.allow ?? []), ...(layer.deny ?? [])]) {
            const key = pattern.trim().toLowerCase();
            if (seen.has(key) || tools.some((t) => referenceMatches(pattern, t))) continue;
            seen.add(key);
            expected.push({ layer: layer.label, pattern });
          }
        }
        expect(applyToolPolicy(tools, layers).unknownPatterns).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------- through the registry

function agentTool(name: string, owner?: ToolOwnerRef) {
  return defineTool({ name, description: `${name} tool`, inputSchema: { type: "object" }, owner, execute: () => name });
}

describe("policy in the registry", () => {
  const builtins = ["read", "write", "bash"].map((name) => agentTool(name));
  const custom = [agentTool("notes_add", { kind: "plugin", pluginId: "notes" })];

  it("applies the layers on every refresh and reports each removal with its layer and pattern", () => {
    const registry = createToolRegistry({ builtins, custom, policy: [{ label: "global", deny: ["group:runtime"] }] });
    expect([...registry.tools.keys()].sort()).toEqual(["notes_add", "read", "write"]);
    expect(registry.lastReport.excluded).toEqual([
      { name: "bash", source: "builtin", reason: "policy", layer: "global", pattern: "group:runtime" },
    ]);
    const report = registry.refresh({
      policy: [
        { label: "global", deny: ["group:runtime"] },
        { label: "agent", allow: ["read", "plugin:notes", "ghost"] },
      ],
    });
    expect([...registry.tools.keys()].sort()).toEqual(["notes_add", "read"]);
    expect(report.removed).toEqual(["write"]);
    expect(report.excluded).toContainEqual({
      name: "write",
      source: "builtin",
      reason: "policy",
      layer: "agent",
      pattern: null,
    });
    expect(report.unknownPatterns).toEqual([{ layer: "agent", pattern: "ghost" }]);
  });

  it("applies the layers again when a live source changes", () => {
    let listener: (() => void) | undefined;
    const live = {
      tools: [agentTool("mcp_read", { kind: "mcp", serverId: "fs" })],
      onChange(next: () => void) {
        listener = next;
        return () => {
          listener = undefined;
        };
      },
    };
    const registry = createToolRegistry({ extensions: [live], policy: [{ label: "no-mcp-write", deny: ["*write*"] }] });
    live.tools = [...live.tools, agentTool("mcp_write", { kind: "mcp", serverId: "fs" })];
    listener?.();
    expect([...registry.tools.keys()]).toEqual(["mcp_read"]);
    expect(registry.lastReport.excluded).toEqual([
      { name: "mcp_write", source: "extension", reason: "policy", layer: "no-mcp-write", pattern: "*write*" },
    ]);
    registry.close();
  });

  it("explain names the layer and the pattern that removed a tool", () => {
    const registry = createToolRegistry({
      builtins,
      policy: [
        { label: "global", deny: ["BASH"] },
        { label: "agent", allow: ["read"] },
      ],
    });
    expect(registry.explain("bash")).toBe('bash (built-in) is removed by policy layer "global": deny pattern "BASH".');
    expect(registry.explain("write")).toBe(
      'write (built-in) is removed by policy layer "agent": the layer\'s allow list does not match it.',
    );
    expect(registry.explain("read")).toMatch(/^read is available/);
  });
});
