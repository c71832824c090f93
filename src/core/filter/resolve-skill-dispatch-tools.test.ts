// resolveSkillDispatchTools: session policy, then the skill's allowed-tools, failing closed without a matching
// authority.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PolicyLayer, ToolDescriptor, ToolOwnerRef } from "../types.js";
import { applyToolPolicy } from "./policy.js";
import { resolveSkillDispatchTools } from "./resolve-skill-dispatch-tools.js";

function tool(name: string, owner: ToolOwnerRef = { kind: "core" }): ToolDescriptor {
  return { name, description: name, inputSchema: { type: "object" }, owner };
}
const TOOLS = [
  ...["read", "write", "edit", "ls", "grep", "find", "bash"].map((name) => tool(name)),
  tool("notes_add", { kind: "plugin", pluginId: "notes" }),
];
const names = (result: { tools: ToolDescriptor[] }) => result.tools.map((t) => t.name);
const SESSION = { sessionId: "s1", authority: { sessionId: "s1" } };
const LAYERS: PolicyLayer[] = [{ label: "global", deny: ["bash"] }];

describe("resolveSkillDispatchTools", () => {
  it("without allowedTools, gives what the session's layers keep", () => {
    const result = resolveSkillDispatchTools({ tools: TOOLS, layers: LAYERS, skill: { name: "s" }, ...SESSION });
    expect(names(result)).toEqual(["read", "write", "edit", "ls", "grep", "find", "notes_add"]);
  });

  it("with allowedTools (policy patterns), narrows to those", () => {
    const result = resolveSkillDispatchTools({
      tools: TOOLS,
      layers: LAYERS,
      skill: { name: "s", allowedTools: [" READ", "plugin:notes", "g*"] },
      ...SESSION,
    });
    expect(names(result)).toEqual(["read", "grep", "notes_add"]);
  });

  it("allowedTools never brings back a tool the session's layers removed", () => {
    const result = resolveSkillDispatchTools({
      tools: TOOLS,
      layers: LAYERS,
      skill: { name: "s", allowedTools: ["bash", "read"] },
      ...SESSION,
    });
    expect(names(result)).toEqual(["read"]);
  });

  it("an empty allowedTools list allows none", () => {
    const result = resolveSkillDispatchTools({
      tools: TOOLS,
      layers: [],
      skill: { name: "s", allowedTools: [] },
      ...SESSION,
    });
    expect(result).toEqual({ tools: [] });
  });

  it("fails closed without an authority", () => {
    const result = resolveSkillDispatchTools({ tools: TOOLS, layers: [], skill: { name: "s" }, sessionId: "s1" });
    expect(result).toEqual({ tools: [] });
  });

  it("fails closed when the authority is for another session", () => {
    const result = resolveSkillDispatchTools({
      tools: TOOLS,
      layers: [],
      skill: { name: "s" },
      sessionId: "s1",
      authority: { sessionId: "s2" },
    });
    expect(result).toEqual({ tools: [] });
  });

  it("fails closed on an empty session id and on a malformed allowedTools", () => {
    expect(
      resolveSkillDispatchTools({
        tools: TOOLS,
        layers: [],
        skill: { name: "s" },
        sessionId: "",
        authority: { sessionId: "" },
      }),
    ).toEqual({ tools: [] });
    const malformed = { name: "s", allowedTools: "read" as unknown as string[] };
    expect(resolveSkillDispatchTools({ tools: TOOLS, layers: [], skill: malformed, ...SESSION })).toEqual({
      tools: [],
    });
  });

  it("never gives more than the session's policy keeps, and nothing without the session's authority", () => {
    const pattern = fc.constantFrom("read", "BASH", "*", "g*", "group:fs", "plugin:notes", "nope", " write ");
    const layer = fc.record({
      label: fc.constantFrom("a", "b"),
      allow: fc.array(pattern, { maxLength: 3 }),
      deny: fc.array(pattern, { maxLength: 2 }),
    });
    fc.assert(
      fc.property(
        fc.array(layer, { maxLength: 3 }),
        fc.option(fc.array(pattern, { maxLength: 3 })),
        fc.constantFrom("s1", "s2"),
        (layers, allowed, authoritySession) => {
          const skill = allowed === null ? { name: "k" } : { name: "k", allowedTools: allowed };
          const result = resolveSkillDispatchTools({
            tools: TOOLS,
            layers,
            skill,
            sessionId: "s1",
            authority: { sessionId: authoritySession },
          });
          if (authoritySession !== "s1") {
            expect(result.tools).toEqual([]);
            return;
          }
          const session = new Set(applyToolPolicy(TOOLS, layers).kept.map((t) => t.name));
          for (const name of names(result)) expect(session.has(name)).toBe(true);
          if (allowed !== null && allowed.length === 0) expect(result.tools).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
