// runProgram: what a program returns and prints, its errors, TypeScript, nested calls and their batches.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../core/types.js";
import { runProgram } from "./run-program.js";
import type { NestedCallAnswer, NestedCallRequest, ProgramLimits, ProgramOutcome, ProgramRequest } from "./types.js";

const LIMITS: ProgramLimits = {
  timeoutMs: 10_000,
  memoryBytes: 32 * 1024 * 1024,
  maxToolCalls: 100,
  maxOutputChars: 5000,
};

/** Runs a program whose tools answer with `answer` (default: the input back) and records the batches they came in. */
async function run(
  code: string,
  options: Partial<Omit<ProgramRequest, "code" | "limits">> & {
    limits?: Partial<ProgramLimits>;
    answer?: (request: NestedCallRequest) => NestedCallAnswer | Promise<NestedCallAnswer>;
  } = {},
): Promise<{ outcome: ProgramOutcome; batches: NestedCallRequest[][] }> {
  const batches: NestedCallRequest[][] = [];
  const answer = options.answer ?? ((request) => ({ ok: true, value: request.input }));
  const outcome = await runProgram({
    code,
    limits: { ...LIMITS, ...options.limits },
    callTools: (requests) => {
      batches.push([...requests]);
      return requests.map(async (request) => answer(request));
    },
    ...(options.replay === undefined ? {} : { replay: options.replay }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }).outcome;
  return { outcome, batches };
}

async function output(code: string): Promise<string> {
  const { outcome } = await run(code);
  if (outcome.kind !== "returned") throw new Error(`the program failed: ${outcome.message}`);
  return outcome.output;
}

describe("what a program returns", () => {
  it("gives a returned string as it is", async () => {
    expect(await output(`return "two\\nlines";`)).toBe("two\nlines");
  });

  it("gives any other returned value as JSON", async () => {
    expect(await output(`return { a: [1, 2.5, null, true], b: "x" };`)).toBe('{"a":[1,2.5,null,true],"b":"x"}');
    expect(await output("return 42;")).toBe("42");
  });

  it("keeps a lone surrogate in a returned string and in a console line", async () => {
    const { outcome } = await run("const s = await tools.text({}); console.log(s); return s;", {
      answer: () => ({ ok: true, value: "a\ud800b\u{1F600}" }),
    });
    expect(outcome).toMatchObject({ kind: "returned", output: "a\ud800b\u{1F600}\na\ud800b\u{1F600}" });
  });

  it("gives nothing for undefined, a function or no return", async () => {
    expect(await output("const x = 1;")).toBe("");
    expect(await output("return () => 1;")).toBe("");
  });

  it("puts console lines first, one per call, then the value", async () => {
    const text = await output(`console.log("a", 1, { b: 2 }); console.error(new TypeError("bad")); return [3];`);
    expect(text).toBe('a 1 {"b":2}\nTypeError: bad\n[3]');
  });

  it("cuts the output to maxOutputChars with a note saying how much was cut", async () => {
    const { outcome } = await run(`console.log("x".repeat(30)); return "y".repeat(30);`, {
      limits: { maxOutputChars: 40 },
    });
    expect(outcome).toMatchObject({ kind: "returned" });
    const text = (outcome as { output: string }).output;
    expect(text.startsWith(`${"x".repeat(30)}\n${"y".repeat(9)}\n`)).toBe(true);
    expect(text).toContain("[output cut: 21 of 61 characters left out; the limit is 40]");
  });

  it("keeps a program that logs without end to the limit and counts the rest", async () => {
    const { outcome } = await run(`for (let i = 0; i < 20000; i++) console.log("line " + i); return "done";`, {
      limits: { maxOutputChars: 100 },
    });
    const text = (outcome as { output: string }).output;
    expect(text.startsWith("line 0\nline 1\n")).toBe(true);
    expect(text).toMatch(/\[output cut: \d+ of \d+ characters left out; the limit is 100\]$/);
    expect(text).not.toContain("done");
  });

  it("strips a Markdown fence around the program and keeps its line numbers", async () => {
    expect(await output("```js\nreturn 1 + 1;\n```")).toBe("2");
    const { outcome } = await run("```javascript\nconst a = 1;\nnull.x;\n```");
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error", line: 3 });
  });
});

describe("a program's own failures", () => {
  it("reports a syntax error with its message and program line", async () => {
    const { outcome } = await run("const a = 1;\nconst b = ;\nreturn a;");
    expect(outcome).toMatchObject({ kind: "failed", code: "code-syntax-error", line: 2 });
    expect((outcome as { message: string }).message).toMatch(/^SyntaxError: .+ \(line 2\)$/);
  });

  it("reports an uncaught throw with its message and program line", async () => {
    const { outcome } = await run(`console.log("before");\nconst a = 1;\nthrow new RangeError("too far");`);
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error", line: 3 });
    expect((outcome as { message: string }).message).toBe("Uncaught RangeError: too far (line 3)\nbefore");
  });

  it("reports a thrown non-Error value", async () => {
    const { outcome } = await run(`throw "plain";`);
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error" });
    expect((outcome as { message: string }).message).toContain("plain");
  });

  it("reports deep recursion as a RangeError of the program, not a crash", async () => {
    const { outcome } = await run("function f(n) { return f(n + 1) + 1; }\nreturn f(0);");
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error" });
    expect((outcome as { message: string }).message).toContain("RangeError");
    expect(await output("return 1;")).toBe("1");
  });

  it("reports a program waiting on a promise nothing settles at once", async () => {
    const started = performance.now();
    const { outcome } = await run("await new Promise(() => {});", { limits: { timeoutMs: 60_000 } });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error" });
    expect((outcome as { message: string }).message).toContain("nothing can settle");
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it.each([
    ["a getter that throws", `return { get a() { throw new Error("no"); } };`, "no"],
    ["a cyclic object", "const a = {}; a.self = a; return a;", "circular"],
    ["a BigInt", "return { n: 10n };", "BigInt"],
  ])("gives a clear error for a returned value that is not JSON: %s", async (_, code, reason) => {
    const { outcome } = await run(code);
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error" });
    expect((outcome as { message: string }).message).toContain("the returned value cannot be written as JSON");
    expect((outcome as { message: string }).message).toContain(reason);
  });
});

describe("TypeScript", () => {
  it("strips type annotations and runs the program", async () => {
    const code = [
      "interface Row { id: number }",
      "const rows: Row[] = [{ id: 1 }, { id: 2 }];",
      "const ids = rows.map((row: Row): number => row.id) as number[];",
      "return ids;",
    ].join("\n");
    expect(await output(code)).toBe("[1,2]");
  });

  it("keeps program lines after stripping", async () => {
    const { outcome } = await run("const a: number = 1;\n\nnull.x;");
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error", line: 3 });
  });

  it("refuses an enum with a syntax error saying only annotations are stripped", async () => {
    const { outcome } = await run("const a: number = 1;\nenum Color { Red }\nreturn Color.Red;");
    expect(outcome).toMatchObject({ kind: "failed", code: "code-syntax-error", line: 2 });
    expect((outcome as { message: string }).message).toContain("enum is not supported");
    expect((outcome as { message: string }).message).toContain("only TypeScript's type annotations are stripped");
  });

  it("reports JavaScript's own syntax error when the text is not TypeScript either", async () => {
    const { outcome } = await run("const a = 1;\nconst b = ;");
    expect((outcome as { message: string }).message).toMatch(/^SyntaxError/);
  });
});

describe("nested calls", () => {
  it("gives the program the tool's answer, its input as JSON and undefined as {}", async () => {
    const { outcome, batches } = await run(
      `const a = await tools.echo({ q: "x", n: [1] }); const b = await tools.none(); return [a, b];`,
    );
    expect(outcome).toMatchObject({ kind: "returned", output: '[{"q":"x","n":[1]},{}]' });
    expect(batches).toEqual([
      [{ seq: 1, tool: "echo", input: { q: "x", n: [1] } }],
      [{ seq: 2, tool: "none", input: {} }],
    ]);
  });

  it("rejects with an Error carrying the answer's code and message, which the program may catch", async () => {
    const code = `try { await tools.fail({}); } catch (error) {
      return { isError: error instanceof Error, code: error.code, message: error.message };
    }`;
    const { outcome } = await run(code, { answer: () => ({ ok: false, code: "tool-error", message: "it broke" }) });
    expect(outcome).toMatchObject({ kind: "returned" });
    expect(JSON.parse((outcome as { output: string }).output)).toEqual({
      isError: true,
      code: "tool-error",
      message: "it broke",
    });
  });

  it("reports an uncaught call error with its code", async () => {
    const { outcome } = await run("await tools.fail({});", {
      answer: () => ({ ok: false, code: "tool-not-found", message: "No tool fail" }),
    });
    expect(outcome).toMatchObject({ kind: "failed", code: "code-runtime-error" });
    expect((outcome as { message: string }).message).toBe("Uncaught Error: No tool fail (code tool-not-found)");
  });

  it("sends the calls of one Promise.all as one batch", async () => {
    const { outcome, batches } = await run(
      "const [a, b, c] = await Promise.all([tools.a({ i: 1 }), tools.b({ i: 2 }), tools.c({ i: 3 })]); return a.i + b.i + c.i;",
    );
    expect(outcome).toMatchObject({ kind: "returned", output: "6" });
    expect(batches).toEqual([
      [
        { seq: 1, tool: "a", input: { i: 1 } },
        { seq: 2, tool: "b", input: { i: 2 } },
        { seq: 3, tool: "c", input: { i: 3 } },
      ],
    ]);
  });

  it("answers calls in the order their answers come, not the order they were made", async () => {
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const code = `const order = [];
      await Promise.all([tools.slow({}).then(() => order.push("slow")), tools.fast({}).then(() => order.push("fast"))]);
      return order;`;
    const { outcome } = await run(code, {
      answer: async (request) => {
        if (request.tool === "slow") await first;
        else setTimeout(releaseFirst, 20);
        return { ok: true, value: null };
      },
    });
    expect(outcome).toMatchObject({ kind: "returned", output: '["fast","slow"]' });
  });

  it("refuses an input that is not JSON inside the program", async () => {
    const { outcome, batches } = await run("try { await tools.x({ n: 1n }); } catch (error) { return error.name; }");
    expect(outcome).toMatchObject({ kind: "returned", output: "TypeError" });
    expect(batches).toEqual([]);
  });

  it("turns a caller that rejects (a broken contract) into an error the program sees", async () => {
    const outcome = await runProgram({
      code: "try { await tools.x({}); } catch (error) { return error.code; }",
      limits: LIMITS,
      callTools: (requests) => requests.map(() => Promise.reject(new Error("bridge down"))),
    }).outcome;
    expect(outcome).toMatchObject({ kind: "returned", output: "execution-failed" });
  });

  it("turns an answer that is not JSON into an invalid-result error", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { outcome } = await run("try { await tools.x({}); } catch (error) { return error.code; }", {
      answer: () => ({ ok: true, value: cyclic as unknown as JsonValue }),
    });
    expect(outcome).toMatchObject({ kind: "returned", output: "invalid-result" });
  });

  it("round-trips any JSON value a tool answers into the program and back out unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }), async (value) => {
        const expected = JSON.parse(JSON.stringify(value)) as JsonValue;
        const { outcome } = await run(`return { got: await tools.data({}) };`, {
          answer: () => ({ ok: true, value: expected }),
        });
        expect(outcome.kind).toBe("returned");
        expect(JSON.parse((outcome as { output: string }).output)).toEqual({ got: expected });
      }),
      { numRuns: 60 },
    );
  });
});
