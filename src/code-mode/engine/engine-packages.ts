// The optional peer dependencies code mode's engine needs, and the one clear error when they are not installed.
import { assertPackagesInstalled } from "../../load-optional.js";

/** QuickJS-NG (its API and its sync wasm build) and swc's TypeScript stripper. */
export const ENGINE_PACKAGES = [
  "quickjs-emscripten-core",
  "@jitl/quickjs-ng-wasmfile-release-sync",
  "@swc/wasm-typescript",
] as const;

/** What needs the engine, as the error message names it. */
export const ENGINE_FEATURE = "code mode";

let installed = false;

/** Throws `MissingPeerDependencyError` (code `missing-peer-dependency`) unless every engine package resolves. */
export function assertEngineInstalled(): void {
  if (installed) return;
  assertPackagesInstalled(ENGINE_FEATURE, ENGINE_PACKAGES);
  installed = true;
}
