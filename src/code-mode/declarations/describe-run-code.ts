// run_code's description: how to write a program, its limits, one example, then the declarations of `tools`.
import type { ProgramLimits } from "../engine/types.js";
import type { ToolDeclarations } from "./types.js";

/** The limits run_code's description states. */
export type DescribedLimits = Pick<ProgramLimits, "timeoutMs" | "maxToolCalls" | "maxOutputChars">;

const EXAMPLE = [
  'const ids = ["a", "b", "c"];',
  "const items = await Promise.all(ids.map((id) => tools.get_item({ id }).catch((error) => ({ id, failed: error.code }))));",
  'console.log("failed:", items.filter((item) => item.failed).length);',
  "return items.filter((item) => !item.failed).map((item) => item.title);",
].join("\n");

/**
 * The description of run_code: what a program is and may do (the body of an async function, `await
 * tools.<name>(input)`, `Promise.all`, what `return` and `console.log` give back, errors with `code`, no network,
 * files or modules), the limits, a short example, and `declarations.text` in a `ts` block. The same arguments
 * always give the same bytes (the description is sent on every turn, so prompt caches keep it).
 */
export function describeRunCode(declarations: ToolDeclarations, limits: DescribedLimits): string {
  return [
    "Runs a JavaScript program (`code`) that calls the tools declared below; only its console lines and what it returns come back.",
    "The code is the body of an async function (TypeScript annotations allowed). Call a tool with `await tools.<name>(input)`; run independent calls at once with `Promise.all`.",
    "`return` what you need: a string as is, anything else as JSON. `console.log` lines come back first.",
    "A failed call throws an Error with `code` and `message`; catch it to go on.",
    "There is no network, file system, `require` or `import`: only `tools`, `console` and standard JavaScript.",
    `Limits: ${duration(limits.timeoutMs)} in all, ${limits.maxToolCalls} tool calls, ${limits.maxOutputChars} characters of output (more is cut).`,
    "Example (made-up tool):",
    "```js",
    EXAMPLE,
    "```",
    "```ts",
    declarations.text,
    "```",
  ].join("\n");
}

function duration(ms: number): string {
  return ms >= 1000 && ms % 100 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
