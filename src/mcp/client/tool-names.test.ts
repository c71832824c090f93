import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assignMcpToolNames, sanitizeToolNamePart } from "./tool-names.js";

const PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

describe("assignMcpToolNames", () => {
  it("joins the server id and the tool name with a double underscore", () => {
    expect(assignMcpToolNames("everything", ["echo", "get-sum"])).toEqual(["everything__echo", "everything__get-sum"]);
  });

  it("replaces characters outside [A-Za-z0-9_-] with a dash", () => {
    expect(assignMcpToolNames("my server", ["read.file", "naïve/tool"])).toEqual([
      "my-server__read-file",
      "my-server__na-ve-tool",
    ]);
    expect(sanitizeToolNamePart("a😀b")).toBe("a-b");
  });

  it("cuts the server part at its end first when the name is too long, and ends a cut name with a hash", () => {
    const [name] = assignMcpToolNames("s".repeat(50), ["t".repeat(20)]);
    expect(name).toMatch(new RegExp(`^${"s".repeat(35)}__${"t".repeat(20)}-[0-9a-f]{6}$`));
    expect(name).toHaveLength(64);
  });

  it("keeps the first 12 characters of the server id, then cuts the tool part", () => {
    const [name] = assignMcpToolNames("github-enterprise", ["t".repeat(100)]);
    expect(name).toMatch(new RegExp(`^github-enter__${"t".repeat(43)}-[0-9a-f]{6}$`));
    expect(assignMcpToolNames("server", ["t".repeat(100)])[0]).toMatch(/^server__t{49}-[0-9a-f]{6}$/);
  });

  it("gives two servers' same long tool name two different names that both say their server", () => {
    const long = "create_or_update_a_very_descriptive_repository_file_with_contents";
    const [a] = assignMcpToolNames("github-work-account", [long]);
    const [b] = assignMcpToolNames("github-home-account", [long]);
    expect(a).not.toBe(b);
    expect(a?.startsWith("github-work-")).toBe(true);
    expect(b?.startsWith("github-home-")).toBe(true);
    const [c] = assignMcpToolNames("github-account-one", [long]);
    const [d] = assignMcpToolNames("github-account-two", [long]);
    expect(c?.slice(0, 12)).toBe(d?.slice(0, 12)); // the same first 12 characters...
    expect(c).not.toBe(d); // ...and still two names
  });

  it("gives a name that collides ignoring case the first free -2, -3 suffix, in listing order", () => {
    expect(assignMcpToolNames("s", ["Echo", "echo", "ECHO", "a.b", "a-b"])).toEqual([
      "s__Echo",
      "s__echo-2",
      "s__ECHO-3",
      "s__a-b",
      "s__a-b-2",
    ]);
  });

  it("skips a suffix that an earlier name already took", () => {
    expect(assignMcpToolNames("s", ["a-2", "a", "A"])).toEqual(["s__a-2", "s__a", "s__A-3"]);
  });

  it("keeps a suffixed name within 64 characters, suffix included", () => {
    const long = "t".repeat(70);
    const names = assignMcpToolNames("srv", [long, long]);
    expect(names[0]).toHaveLength(64);
    expect(names[1]).toMatch(/^srv__t{50}-[0-9a-f]{6}-2$/);
    expect(names[1]).toHaveLength(64);
    expect(names[1]?.slice(-8, -2)).toBe(names[0]?.slice(-6)); // the same trace, then the suffix
  });

  it("always gives valid names, unique ignoring case, the same every time (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80, unit: "binary" }),
        fc.array(fc.oneof(fc.string({ maxLength: 90, unit: "binary" }), fc.constantFrom("a", "A", "a-2", "x.y")), {
          maxLength: 30,
        }),
        (serverId, toolNames) => {
          const names = assignMcpToolNames(serverId, toolNames);
          expect(names).toHaveLength(toolNames.length);
          for (const name of names) expect(name).toMatch(PATTERN);
          expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
          expect(assignMcpToolNames(serverId, toolNames)).toEqual(names);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("gives an earlier tool the same name whatever comes after it (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 70 }), { maxLength: 20 }),
        fc.array(fc.string(), { maxLength: 5 }),
        (a, b) => {
          expect(assignMcpToolNames("srv", [...a, ...b]).slice(0, a.length)).toEqual(assignMcpToolNames("srv", a));
        },
      ),
    );
  });
});
