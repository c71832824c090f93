// What createCodeMode takes: the tools a program may call, its limits, and the declarations' budget; checked once.
import type { ProgramLimits } from "./engine/types.js";

/** The limits of each program (docs/code-mode.md#limits). */
export type CodeModeLimits = ProgramLimits;

/** Options of `createCodeMode`. */
export interface CodeModeOptions {
  /**
   * Policy patterns (names, globs, `group:*`, `mcp:<id>`, `plugin:<id>`) of the tools a program may call; default
   * every active tool but run_code itself.
   */
  readonly tools?: readonly string[];
  /** Defaults: 30 000 ms, 64 MiB, 1000 calls, 50 000 characters. */
  readonly limits?: Partial<CodeModeLimits>;
  /**
   * A budget, in estimated tokens, for the declarations run_code's description carries: over it, the largest tools
   * get one line each and a program finds their full declaration with `tools.tool_search`. Default 12 000.
   */
  readonly declarationTokens?: number;
}

/** The limits a program gets when the options do not say. */
export const DEFAULT_CODE_MODE_LIMITS: CodeModeLimits = Object.freeze({
  timeoutMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  maxToolCalls: 1000,
  maxOutputChars: 50_000,
});

/** The declarations' budget when the options do not say. */
export const DEFAULT_DECLARATION_TOKENS = 12_000;

/** The smallest memory limit: below it the engine cannot start a program. */
const MIN_MEMORY_BYTES = 4 * 1024 * 1024;
/** The largest memory limit: the engine's memory is 32-bit WebAssembly. */
const MAX_MEMORY_BYTES = 2 * 1024 * 1024 * 1024;

/** The options, checked, with the defaults filled in. Throws a `TypeError` naming the bad option. */
export function readCodeModeOptions(options: CodeModeOptions | undefined): {
  readonly patterns: readonly string[] | undefined;
  readonly limits: CodeModeLimits;
  readonly declarationTokens: number;
} {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new TypeError("createCodeMode: options must be an object");
  }
  const { tools, limits = {}, declarationTokens = DEFAULT_DECLARATION_TOKENS } = options ?? {};
  if (tools !== undefined && (!Array.isArray(tools) || !tools.every((pattern) => typeof pattern === "string"))) {
    throw new TypeError("createCodeMode: tools must be a list of policy patterns (strings)");
  }
  if (typeof limits !== "object" || limits === null) throw new TypeError("createCodeMode: limits must be an object");
  const read = { ...DEFAULT_CODE_MODE_LIMITS, ...definedOnly(limits) };
  checkPositive("limits.timeoutMs", read.timeoutMs, "milliseconds");
  checkPositive("limits.maxToolCalls", read.maxToolCalls, "calls");
  checkPositive("limits.maxOutputChars", read.maxOutputChars, "characters");
  checkPositive("declarationTokens", declarationTokens, "estimated tokens");
  const memory = read.memoryBytes;
  if (
    typeof memory !== "number" ||
    !Number.isInteger(memory) ||
    memory < MIN_MEMORY_BYTES ||
    memory > MAX_MEMORY_BYTES
  ) {
    throw new TypeError(
      `createCodeMode: limits.memoryBytes must be a whole number of bytes from ${MIN_MEMORY_BYTES} (4 MiB) to ${MAX_MEMORY_BYTES} (2 GiB), got ${String(memory)}`,
    );
  }
  return { patterns: tools, limits: Object.freeze(read), declarationTokens };
}

function definedOnly(limits: Partial<CodeModeLimits>): Partial<CodeModeLimits> {
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

function checkPositive(option: string, value: unknown, unit: string): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new TypeError(`createCodeMode: ${option} must be a positive whole number of ${unit}, got ${String(value)}`);
  }
}
