// The error family: one base, a stable code on every class, and recognised across copies of the package.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { builtScript } from "../../test/e2e/helpers/build.js";
import * as builtins from "../builtins/index.js";
import * as config from "../config/index.js";
import * as toolwire from "../index.js";
import * as plugins from "../plugins/index.js";
import * as providers from "../providers/index.js";
import { isToolwireError, ToolCallError, ToolwireError } from "./errors.js";

const errorClasses = [toolwire, providers, plugins, config, builtins].flatMap((entry) =>
  Object.entries(entry).filter(
    ([name, value]) => typeof value === "function" && /^[A-Z]\w*Error$/.test(name) && value !== ToolwireError,
  ),
) as [string, new (...args: never[]) => Error][];

describe("the error family", () => {
  it("makes every error class of the entries without optional peers a ToolwireError", () => {
    expect(errorClasses.length).toBeGreaterThan(8);
    for (const [name, errorClass] of errorClasses) {
      expect(errorClass.prototype instanceof ToolwireError, name).toBe(true);
    }
  });

  it("gives each error its class name and its code", () => {
    const error = new ToolCallError("invalid-input", "read", "Input for read is invalid");
    expect(error).toBeInstanceOf(ToolwireError);
    expect(error).toBeInstanceOf(ToolCallError);
    expect(isToolwireError(error)).toBe(true);
    expect(error.name).toBe("ToolCallError");
    expect(error.code).toBe("invalid-input");
  });

  it("gives a class its code, message and cause through the one base constructor", () => {
    class ExampleError extends ToolwireError<"example-code"> {
      override readonly name = "ExampleError";
    }
    const cause = new Error("underneath");
    const error = new ExampleError("example-code", "it broke", { cause });
    expect([error.name, error.code, error.message, error.cause]).toEqual([
      "ExampleError",
      "example-code",
      "it broke",
      cause,
    ]);
    expect(error).toBeInstanceOf(ToolwireError);
    expect(isToolwireError(error)).toBe(true);
  });

  it("recognises no error outside the family, not even one that copies a name and a code", () => {
    const lookalike = Object.assign(new Error("no"), { name: "ToolCallError", code: "invalid-input" });
    expect(lookalike instanceof ToolwireError).toBe(false);
    expect(lookalike instanceof ToolCallError).toBe(false);
    expect(isToolwireError(lookalike)).toBe(false);
    for (const value of [null, undefined, "ToolCallError", 42, {}]) expect(isToolwireError(value)).toBe(false);
  });

  it("keeps the classes apart: a ModelError is not a ToolCallError", () => {
    const error = new toolwire.ModelError("request-failed", "scripted", "no answer");
    expect(error instanceof ToolwireError).toBe(true);
    expect(error instanceof ToolCallError).toBe(false);
  });
});

describe("errors from another copy of the package", () => {
  const built = dirname(builtScript("dist/index.js"));
  // Inside the project's node_modules, so the copy finds the same dependencies (ajv) as the package itself.
  const cache = join(dirname(built), "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const copy = mkdtempSync(join(cache, "toolwire-copy-"));
  cpSync(built, join(copy, "dist"), { recursive: true });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it("are instances of this copy's classes and pass isToolwireError", () => {
    const here = pathToFileURL(join(built, "index.js")).href;
    const there = pathToFileURL(join(copy, "dist", "index.js")).href;
    const script = `
      const a = await import(${JSON.stringify(here)});
      const b = await import(${JSON.stringify(there)});
      const error = new b.ModelError("request-failed", "scripted", "no answer");
      console.log(JSON.stringify([
        a.ModelError === b.ModelError,
        error instanceof a.ToolwireError,
        error instanceof a.ModelError,
        error instanceof a.ToolCallError,
        a.isToolwireError(error),
      ]));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(output)).toEqual([false, true, true, false, true]);
  });
});
