// The installed version of a package, read from its package.json in this repository's node_modules.
import { readFileSync } from "node:fs";

/** The `version` field of `node_modules/<name>/package.json`, or "unknown" when it cannot be read. */
export function packageVersion(name) {
  try {
    const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
    return JSON.parse(readFileSync(url, "utf8")).version ?? "unknown";
  } catch {
    return "unknown";
  }
}
