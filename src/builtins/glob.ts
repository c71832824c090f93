// Globs for find and grep: without "/" a pattern matches names at any depth, with "/" the whole relative path.
import picomatch from "picomatch";

/** A matcher for paths relative to a search folder (`/`-separated). Throws on a malformed pattern. */
export function compileGlob(pattern: string): (path: string) => boolean {
  const cleaned = pattern
    .trim()
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+/, "");
  // picomatch's `basename` option also changes how patterns with "/" match, so set it only for bare names.
  return picomatch(cleaned, { dot: true, basename: !cleaned.includes("/") });
}
