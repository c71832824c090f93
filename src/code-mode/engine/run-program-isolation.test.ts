// runProgram's isolation: a program reaches only its own realm, leaves nothing for the next one, hands back only data.
import { describe, expect, it } from "vitest";
import { runProgram } from "./run-program.js";
import type { NestedCallAnswer, NestedCallRequest, ProgramLimits, ProgramOutcome } from "./types.js";

const LIMITS: ProgramLimits = {
  timeoutMs: 10_000,
  memoryBytes: 32 * 1024 * 1024,
  maxToolCalls: 100,
  maxOutputChars: 5000,
};

async function run(code: string, seen: NestedCallRequest[] = []): Promise<ProgramOutcome> {
  return runProgram({
    code,
    limits: LIMITS,
    callTools: (requests) => {
      seen.push(...requests);
      return requests.map((request) => Promise.resolve<NestedCallAnswer>({ ok: true, value: request.input }));
    },
  }).outcome;
}

/** The program's output parsed as JSON (the program returned a value). */
async function returned(code: string): Promise<unknown> {
  const outcome = await run(code);
  if (outcome.kind !== "returned") throw new Error(`the program failed: ${outcome.message}`);
  return JSON.parse(outcome.output);
}

describe("escape attempts fail inside the program", () => {
  it.each([
    ["process", "typeof process"],
    ["require", "typeof require"],
    ["fetch", "typeof fetch"],
    ["setTimeout", "typeof setTimeout"],
    ["performance", "typeof performance"],
    ["the Function constructor", `(function () {}).constructor("return typeof process")()`],
    ["globalThis.constructor.constructor", `typeof globalThis.constructor.constructor("return this")().process`],
    ["an async function's constructor", `typeof (await (async () => {}).constructor("return this")()).require`],
  ])("%s is not there", async (_, expression) => {
    expect(await returned(`return [${expression}];`)).toEqual(["undefined"]);
  });

  it("import() of a Node module rejects inside the program, where it can be caught", async () => {
    const outcome = await returned(
      `try { await import("node:fs"); return ["loaded"]; } catch (error) { return [error.name]; }`,
    );
    expect(outcome).toEqual(["ReferenceError"]);
  });

  it("the globals are the language's own, tools and console", async () => {
    const names = (await returned("return Object.getOwnPropertyNames(globalThis);")) as string[];
    for (const name of ["process", "require", "module", "fetch", "performance", "__toolwire", "setTimeout"]) {
      expect(names).not.toContain(name);
    }
    expect(names).toEqual(expect.arrayContaining(["tools", "console", "JSON", "Promise", "Date", "Math"]));
  });

  it("the bridge's own functions are not reachable from the program", async () => {
    expect(await returned("return [typeof __toolwire, typeof globalThis.__toolwire, typeof call];")).toEqual([
      "undefined",
      "undefined",
      "undefined",
    ]);
  });
});

describe("one program leaves nothing for the next", () => {
  it("Object.prototype pollution is gone in the next program", async () => {
    await run(`Object.prototype.polluted = "yes"; Array.prototype.push = () => 0; globalThis.leftover = 1;`);
    expect(await returned("return [({}).polluted ?? null, typeof leftover, [1].push(2)];")).toEqual([
      null,
      "undefined",
      2,
    ]);
  });

  it("pollution never reaches the host: the inputs and the outcome are plain data", async () => {
    const seen: NestedCallRequest[] = [];
    const outcome = await run(
      `Object.prototype.polluted = "yes"; Object.prototype.toJSON = undefined;
       await tools.x({ a: 1 });
       return { b: 2 };`,
      seen,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(seen).toEqual([{ seq: 1, tool: "x", input: { a: 1 } }]);
    expect(Object.getPrototypeOf(seen[0]!.input)).toBe(Object.prototype);
    expect(Object.hasOwn(seen[0]!.input as object, "polluted")).toBe(false);
    expect(outcome).toMatchObject({ kind: "returned", output: '{"b":2}' });
  });

  it("a program that rewires JSON and Promise only fools itself", async () => {
    const seen: NestedCallRequest[] = [];
    const outcome = await run(
      `JSON.stringify = () => "{\\"evil\\":true}"; Promise.prototype.then = function () { return this; };
       return "done";`,
      seen,
    );
    expect(outcome).toMatchObject({ kind: "returned" });
    expect(await returned("return JSON.parse(JSON.stringify({ ok: 1 }));")).toEqual({ ok: 1 });
  });
});

describe("what crosses to the host is checked", () => {
  it("a tool name is a string and awaiting tools itself calls nothing", async () => {
    const seen: NestedCallRequest[] = [];
    const outcome = await run(
      `const t = await tools; console.log(JSON.stringify(tools)); return [typeof t.then, typeof tools[Symbol.iterator]];`,
      seen,
    );
    expect(outcome).toMatchObject({ kind: "returned", output: '{}\n["undefined","undefined"]' });
    expect(seen).toEqual([]);
  });
});

describe("code made at run time stays in the program's realm", () => {
  it("a function made by the Function constructor throws a ReferenceError for process", async () => {
    const outcome = await run(`return (function () {}).constructor("return process")();`);
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error" });
    expect((outcome as { message: string }).message).toContain("ReferenceError: process is not defined");
  });
});
