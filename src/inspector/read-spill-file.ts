// readSpillFile: where the result budget saved a result too large to send, read from the preview it left.
import type { ToolResult } from "../core/types.js";

/** The budget's preview names the file twice; the `read (path "…")` hint carries it as JSON text. */
const PREVIEW_START = "The result of ";
const PATH_HINT = /was saved whole to [^\n]*? with read \(path ("(?:[^"\\]|\\.)*")/;

/**
 * The path of the file the result budget saved the whole result to (relative to the workspace, or absolute),
 * when `result` is such a preview; otherwise `undefined`. Never throws.
 */
export function readSpillFile(result: ToolResult | undefined): string | undefined {
  const first = result?.content?.[0];
  if (first?.type !== "text" || !first.text.startsWith(PREVIEW_START)) return undefined;
  const quoted = PATH_HINT.exec(first.text.slice(0, 4_000))?.[1];
  if (quoted === undefined) return undefined;
  try {
    const path = JSON.parse(quoted) as unknown;
    return typeof path === "string" ? path : undefined;
  } catch {
    return undefined;
  }
}
