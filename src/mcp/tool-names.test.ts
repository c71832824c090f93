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

  it("cuts the server part at its end first when the name is too long", () => {
    const [name] = assignMcpToolNames("s".repeat(50), ["t".repeat(20)]);
    expect(name).toBe(`${"s".repeat(42)}__${"t".repeat(20)}`);
    expect(name).toHaveLength(64);
  });

  it("cuts the tool part once the server part is gone", () => {
    const [name] = assignMcpToolNames("server", ["t".repeat(100)]);
    expect(name).toBe(`__${"t".repeat(62)}`);
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
    expect(names[1]).toBe(`__${"t".repeat(60)}-2`);
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
