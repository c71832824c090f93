import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildBashEnv } from "./bash-env.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";

const parent = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/me",
  LANG: "C.UTF-8",
  LC_ALL: "C",
  ANTHROPIC_API_KEY: "sk-ant-secret",
  OPENAI_API_KEY: "sk-secret",
  MY_A: "a",
  MY_B: "b",
  MYX: "x",
  UNSET: undefined,
};

describe("buildBashEnv", () => {
  it("keeps only the minimal variables by default, never a key", () => {
    expect(buildBashEnv(parent, undefined)).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/me",
      LANG: "C.UTF-8",
      LC_ALL: "C",
    });
  });

  it("passes names and globs where only * is special", () => {
    expect(buildBashEnv(parent, { pass: ["MY_*", "OPENAI_API_KEY"] })).toMatchObject({
      MY_A: "a",
      MY_B: "b",
      OPENAI_API_KEY: "sk-secret",
    });
    expect(buildBashEnv(parent, { pass: ["MY_*"] })).not.toHaveProperty("MYX");
    expect(buildBashEnv({ "A.B": "1", AXB: "2" }, { pass: ["A.*"] })).toEqual({ "A.B": "1" });
  });

  it("passes everything with *, and set wins over what is passed", () => {
    const env = buildBashEnv(parent, { pass: ["*"], set: { MY_A: "override", EXTRA: "e" } });
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: "sk-ant-secret", MY_A: "override", EXTRA: "e" });
    expect(env).not.toHaveProperty("UNSET");
  });

  it("refuses options of the wrong shape with invalid-option", () => {
    const bad: unknown[] = [
      { pass: "MY_*" },
      { pass: [""] },
      { pass: [1] },
      { set: [] },
      { set: { "A=B": "x" } },
      { set: { A: 1 } },
      { set: { A: "x\0y" } },
    ];
    for (const options of bad) {
      expect(() => buildBashEnv(parent, options as never)).toThrow(BuiltinToolsError);
    }
  });

  it("a pattern without * matches only its own name", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => !s.includes("*")),
        fc.string(),
        (pattern, other) => {
          const env = buildBashEnv({ [pattern]: "p", [other]: "o" }, { pass: [pattern] });
          for (const name of Object.keys(env))
            expect(
              name === pattern || name === "PATH" || /^(HOME|LANG|TERM|USER|SHELL|TMPDIR|LC_.*)$/s.test(name),
            ).toBe(true);
          expect(env[pattern]).toBe(pattern === other ? "o" : "p");
        },
      ),
    );
  });
});
