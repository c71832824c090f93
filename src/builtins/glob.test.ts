import { describe, expect, it } from "vitest";
import { compileGlob } from "./glob.js";

describe("compileGlob", () => {
  it("matches a pattern without / against names at any depth", () => {
    const match = compileGlob("*.ts");
    expect(["a.ts", "src/a.ts", "src/deep/.hidden.ts"].map((path) => match(path))).toEqual([true, true, true]);
    expect(match("a.tsx")).toBe(false);
  });

  it("matches a pattern with / against the whole relative path", () => {
    const match = compileGlob("src/*.ts");
    expect(["src/a.ts", "src/deep/a.ts", "lib/src/a.ts"].map((path) => match(path))).toEqual([true, false, false]);
    expect(compileGlob("src/**/*.ts")("src/deep/a.ts")).toBe(true);
  });

  it("ignores a leading ./ or /", () => {
    expect(compileGlob("./src/*.ts")("src/a.ts")).toBe(true);
    expect(compileGlob("/src/*.ts")("src/a.ts")).toBe(true);
  });

  it("supports braces and character classes", () => {
    expect(compileGlob("*.{js,mjs}")("x/y.mjs")).toBe(true);
    expect(compileGlob("file[0-9].txt")("file7.txt")).toBe(true);
  });
});
