// toProgramScript and its helpers: fences blanked with lines kept, the body wrapped on its own first line.
import { describe, expect, it } from "vitest";
import { findProgramLine, stripCodeFence, toProgramScript } from "./program-script.js";

describe("toProgramScript", () => {
  it("wraps the body on its first line so that line numbers are the body's", () => {
    const script = toProgramScript("const a = 1;\nreturn a;");
    expect(script).toBe("(async () => {const a = 1;\nreturn a;\n})()");
    expect(script.split("\n")[1]).toBe("return a;");
  });
});

describe("stripCodeFence", () => {
  it.each([
    ["```js\nreturn 1;\n```", "\nreturn 1;\n"],
    ["```typescript\nreturn 1;\n```\n", "\nreturn 1;\n\n"],
    ["\n  ```\nreturn 1;\n  ```  ", "\n\nreturn 1;\n"],
    ["~~~\nreturn 1;\n~~~", "\nreturn 1;\n"],
    ["````js\nreturn '```';\n````", "\nreturn '```';\n"],
  ])("blanks the fence lines of %j", (code, expected) => {
    expect(stripCodeFence(code)).toBe(expected);
  });

  it.each([
    ["no fence", "return 1;"],
    ["an opening fence alone", "```js\nreturn 1;"],
    ["a closing fence of another kind", "```js\nreturn 1;\n~~~"],
    ["a shorter closing fence", "````\nreturn 1;\n```"],
    ["a one-line body with backticks", "return `x`;"],
  ])("leaves %s as it is", (_, code) => {
    expect(stripCodeFence(code)).toBe(code);
  });
});

describe("findProgramLine", () => {
  it("reads the first frame in the program's file", () => {
    expect(findProgramLine("    at f (toolwire-prelude.js:9:1)\n    at <anonymous> (program.js:3:5)\n")).toBe(3);
    expect(findProgramLine("    at program.js:2:1\n")).toBe(2);
  });

  it("gives nothing when no frame is the program's", () => {
    expect(findProgramLine("    at settle (toolwire-prelude.js:20:5)\n")).toBeUndefined();
    expect(findProgramLine(undefined)).toBeUndefined();
  });
});
