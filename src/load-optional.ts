// The optional peer dependencies (the MCP SDK, the provider SDKs): found or not, and one clear error when not.
import { ToolwireError } from "./core/errors.js";

/** The three packages of the MCP SDK that `toolwire/mcp`, `toolwire serve` and MCP servers in a config need. */
export const MCP_SDK_PACKAGES = [
  "@modelcontextprotocol/client",
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/node",
] as const;

/**
 * A feature needs optional peer dependencies of toolwire that are not installed. `packages` are the ones the
 * feature needs (install them all, at compatible versions), `missing` the ones not found. Code
 * `missing-peer-dependency`.
 */
export class MissingPeerDependencyError extends ToolwireError<"missing-peer-dependency"> {
  override readonly name = "MissingPeerDependencyError";
  constructor(
    readonly feature: string,
    readonly packages: readonly string[],
    readonly missing: readonly string[],
    options?: { cause?: unknown },
  ) {
    const none = missing.length === packages.length ? "" : ` (not installed: ${listNames(missing)})`;
    const message = `${feature} needs ${listNames(packages)}${none}: npm install ${packages.join(" ")}`;
    super("missing-peer-dependency", message, options);
  }
}

/** Whether `error` is Node's "package not found" for `name` itself (not for a package `name` depends on). */
export function isPackageNotFound(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  // Node names the package in quotes: "Cannot find package 'openai' imported from …", "Cannot find module 'openai'".
  return new RegExp(`^Cannot find (?:package|module) '${escapeRegExp(name)}(?:/[^']*)?'`).test(error.message);
}

/** The names among `packages` that do not resolve from toolwire's own location. Synchronous; loads nothing. */
function findMissingPackages(packages: readonly string[]): string[] {
  return packages.filter((name) => {
    try {
      import.meta.resolve(name);
      return false;
    } catch (error) {
      if (isPackageNotFound(error, name)) return true;
      throw error;
    }
  });
}

/** Throws `MissingPeerDependencyError` when any of `packages` is not installed. */
export function assertPackagesInstalled(feature: string, packages: readonly string[]): void {
  const missing = findMissingPackages(packages);
  if (missing.length > 0) throw new MissingPeerDependencyError(feature, packages, missing);
}

/**
 * Runs `load` (a dynamic `import()` of an optional package, or of a toolwire module that imports one): a
 * rejection because one of `packages` is not installed becomes `MissingPeerDependencyError`; any other rejects as is.
 */
export async function loadOptional<T>(
  feature: string,
  packages: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const named = packages.filter((name) => isPackageNotFound(error, name));
    if (named.length === 0) throw error;
    const missing = findMissingPackages(packages);
    throw new MissingPeerDependencyError(feature, packages, missing.length === 0 ? named : missing, { cause: error });
  }
}

/** Loads a toolwire module that imports the MCP SDK, with the MCP SDK's missing-package error. */
export function loadMcpModule<T>(load: () => Promise<T>): Promise<T> {
  return loadOptional(MCP_FEATURE, MCP_SDK_PACKAGES, load);
}

/** What needs the MCP SDK, as the error message names it. */
export const MCP_FEATURE = "toolwire's MCP support";

/** The packages that remote executors on BullMQ (`toolwire/workers`, config `executors`, `toolwire worker`) need. */
export const BULLMQ_PACKAGES = ["bullmq", "ioredis"] as const;

/** What needs BullMQ, as the error message names it. */
export const BULLMQ_FEATURE = "toolwire's remote executors";

/** The package that the Redis stores (`toolwire/redis`, config `approvals.store`) need. */
export const REDIS_PACKAGES = ["ioredis"] as const;

/** What needs ioredis alone, as the error message names it. */
export const REDIS_FEATURE = "toolwire's Redis stores";

function listNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
