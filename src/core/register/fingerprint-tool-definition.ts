// Fingerprints of listed tool definitions: SHA-256 of their canonical JSON, and the parts two definitions differ in.
import { createHash } from "node:crypto";
import { canonicalJson } from "../approve/input-digest.js";
import { isRecord } from "../json.js";
import type { JsonObject, PinnedToolDefinition, ToolPin } from "../types.js";

/** The covered parts in the order a change names them, with the words it uses. */
export const DEFINITION_PARTS: readonly (readonly [keyof PinnedToolDefinition, string])[] = [
  ["name", "name"],
  ["title", "title"],
  ["description", "description"],
  ["inputSchema", "input schema"],
  ["outputSchema", "output schema"],
  ["annotations", "annotations"],
];

/**
 * `"sha256:"` and the hex SHA-256 of the definition's RFC 8785 canonical JSON (keys sorted, no white space): the same
 * for the same definition whatever the order of its keys, different when any covered part differs.
 */
export function fingerprintToolDefinition(definition: PinnedToolDefinition): string {
  return `sha256:${createHash("sha256").update(canonicalJson(definition)).digest("hex")}`;
}

/**
 * The covered parts of a listed tool (an entry of a server's `tools/list`), as plain JSON copies, and their
 * fingerprint. A part that is absent, or of the wrong type (a title that is not a string, a schema that is not an
 * object), is left out.
 */
export function pinToolDefinition(listed: { readonly name: string } & Readonly<Record<string, unknown>>): ToolPin {
  const definition: Record<string, unknown> = { name: listed.name };
  for (const key of ["title", "description"] as const) {
    if (typeof listed[key] === "string") definition[key] = listed[key];
  }
  for (const key of ["inputSchema", "outputSchema", "annotations"] as const) {
    const value = listed[key];
    if (isRecord(value)) definition[key] = JSON.parse(JSON.stringify(value)) as JsonObject;
  }
  const pinned = definition as unknown as PinnedToolDefinition;
  return { fingerprint: fingerprintToolDefinition(pinned), definition: pinned };
}

/**
 * The parts in which `after` differs from `before`, in words: `title`, `description`, `input schema`,
 * `output schema`, `annotations (readOnlyHint, title)` (the annotation keys that changed, sorted).
 */
export function describeDefinitionChange(before: PinnedToolDefinition, after: PinnedToolDefinition): string[] {
  const changed: string[] = [];
  for (const [key, words] of DEFINITION_PARTS) {
    if (canonicalJson(before[key]) === canonicalJson(after[key])) continue;
    if (key !== "annotations") {
      changed.push(words);
      continue;
    }
    const was = before.annotations ?? {};
    const now = after.annotations ?? {};
    const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])]
      .filter((name) => canonicalJson(was[name]) !== canonicalJson(now[name]))
      .sort();
    changed.push(keys.length === 0 ? words : `${words} (${keys.join(", ")})`);
  }
  return changed;
}
