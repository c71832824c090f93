// The environment `bash` commands get: a few harmless variables of the host, plus what the options pass or set.
import { BuiltinToolsError } from "./builtin-tools-error.js";

/** What `createBuiltinTools({ env })` adds to `bash`'s minimal environment. */
export interface BashEnvOptions {
  /** Names or globs (only `*` is special) of this process's variables to pass through; `["*"]` passes them all. */
  readonly pass?: readonly string[];
  /** Variables to set, over the passed ones. */
  readonly set?: Readonly<Record<string, string>>;
}

/**
 * The variables every `bash` command gets when this process has them. None of them holds a secret;
 * the locale ones (`LC_ALL`, `LC_CTYPE`, ...) are there because sorting, `grep` and messages depend on them.
 */
export const BASE_BASH_ENV = Object.freeze(["PATH", "HOME", "LANG", "TERM", "USER", "SHELL", "TMPDIR", "LC_*"]);

/**
 * Builds `bash`'s environment from `parent` (normally `process.env`): the variables of `BASE_BASH_ENV`,
 * those `options.pass` names or matches, then `options.set`. Never the whole parent unless `pass` says `*`.
 * Throws `BuiltinToolsError` (`invalid-option`) for a `pass` or `set` that is not of that shape, a variable
 * name that is empty or holds `=` or a NUL, or a value that holds a NUL.
 */
export function buildBashEnv(
  parent: Readonly<Record<string, string | undefined>>,
  options: BashEnvOptions | undefined,
): Record<string, string> {
  const pass = options?.pass ?? [];
  const set = options?.set ?? {};
  if (!Array.isArray(pass) || !pass.every((pattern) => typeof pattern === "string" && pattern !== "")) {
    throw new BuiltinToolsError(
      "invalid-option",
      `env.pass must be a list of variable names or globs (such as "MY_*"), got ${JSON.stringify(pass)}`,
    );
  }
  if (typeof set !== "object" || set === null || Array.isArray(set)) {
    throw new BuiltinToolsError(
      "invalid-option",
      `env.set must be an object of variable names to string values, got ${JSON.stringify(set)}`,
    );
  }
  const matchers = [...BASE_BASH_ENV, ...pass].map(globMatcher);
  // No prototype: a variable may be called `__proto__`, and it must be a variable like any other.
  const env: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && matchers.some((matches) => matches(name))) env[name] = value;
  }
  for (const [name, value] of Object.entries(set)) {
    if (name === "" || name.includes("=") || name.includes("\0")) {
      throw new BuiltinToolsError(
        "invalid-option",
        `env.set has an invalid variable name ${JSON.stringify(name)}: a name must be non-empty, without "=" or NUL`,
      );
    }
    if (typeof value !== "string" || value.includes("\0")) {
      throw new BuiltinToolsError(
        "invalid-option",
        `env.set.${name} must be a string without NUL bytes, got ${JSON.stringify(value)}`,
      );
    }
    env[name] = value;
  }
  return env;
}

/** A test for a name against a glob where only `*` (any run of characters) is special. */
function globMatcher(pattern: string): (name: string) => boolean {
  if (!pattern.includes("*")) return (name) => name === pattern;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[\\^$.+?()[\]{}|]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${source}$`, "s");
  return (name) => regex.test(name);
}
