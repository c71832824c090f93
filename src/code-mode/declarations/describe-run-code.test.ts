// describeRunCode: run_code's description states what a program may do and its limits, with a working example.
import { describe, expect, it } from "vitest";
import { declareTools } from "./declare-tools.js";
import { describeRunCode } from "./describe-run-code.js";

const declarations = declareTools([
  {
    name: "get_item",
    description: "Gets an item.",
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  },
]);
const limits = { timeoutMs: 30_000, maxToolCalls: 1000, maxOutputChars: 50_000 };

describe("describeRunCode", () => {
  it("states the program's form, its limits and an example, then the declarations", () => {
    const description = describeRunCode(declarations, limits);
    expect(description).toContain("body of an async function");
    expect(description).toContain("`await tools.<name>(input)`");
    expect(description).toContain("`Promise.all`");
    expect(description).toContain("an Error with `code` and `message`");
    expect(description).toContain("Limits: 30 s in all, 1000 tool calls, 50000 characters of output (more is cut).");
    expect(description.endsWith(`\`\`\`ts\n${declarations.text}\n\`\`\``)).toBe(true);
    expect(describeRunCode(declarations, limits)).toBe(description);
  });

  it("states a limit below a second in milliseconds", () => {
    expect(describeRunCode(declarations, { ...limits, timeoutMs: 250 })).toContain("Limits: 250 ms in all");
    expect(describeRunCode(declarations, { ...limits, timeoutMs: 1500 })).toContain("Limits: 1.5 s in all");
  });

  it("gives an example that runs as the body of an async function and catches a failed call", async () => {
    const description = describeRunCode(declarations, limits);
    const example = /```js\n([\s\S]*?)\n```/.exec(description)?.[1] ?? "";
    const AsyncFunction = (async () => {}).constructor as new (
      ...parameters: string[]
    ) => (...values: unknown[]) => Promise<unknown>;
    const logs: unknown[][] = [];
    const tools = {
      get_item: async ({ id }: { id: string }) => {
        if (id === "b") throw Object.assign(new Error("no item b"), { code: "tool-error" });
        return { title: `Item ${id}` };
      },
    };
    const program = new AsyncFunction("tools", "console", example);
    const value = await program(tools, { log: (...values: unknown[]) => logs.push(values) });
    expect(value).toEqual(["Item a", "Item c"]);
    expect(logs).toEqual([["failed:", 1]]);
  });

  it("is short: under 1200 characters besides the declarations", () => {
    const description = describeRunCode(declarations, limits);
    expect(description.length - declarations.text.length).toBeLessThan(1200);
  });
});
