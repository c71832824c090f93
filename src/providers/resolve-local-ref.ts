// The node a local JSON Pointer reference (`#/$defs/Item`) names inside a schema.
import { isRecord } from "../core/json.js";

/**
 * The node `ref` (`#/…`, JSON Pointer escapes `~0` `~1` and percent-encoding undone) points to in `root`, or
 * `undefined`.
 */
export function resolveLocalRef(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}
