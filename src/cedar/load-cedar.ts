// Cedar's WebAssembly build, loaded at the first policy made, with one clear error when it is not installed.
import { loadOptional } from "../load-optional.js";

/** The Node build of `@cedar-policy/cedar-wasm` (CommonJS; its wasm compiles synchronously when it loads). */
export type CedarWasm = typeof import("@cedar-policy/cedar-wasm/nodejs");

/** The optional peer dependency Cedar call policies need. */
export const CEDAR_PACKAGES = ["@cedar-policy/cedar-wasm"] as const;

/** What needs Cedar, as the error message names it. */
export const CEDAR_FEATURE = "toolwire/cedar";

/** Loads Cedar; rejects with `MissingPeerDependencyError` (code `missing-peer-dependency`) when it is not installed. */
export function loadCedar(): Promise<CedarWasm> {
  return loadOptional(CEDAR_FEATURE, CEDAR_PACKAGES, () => import("@cedar-policy/cedar-wasm/nodejs"));
}
