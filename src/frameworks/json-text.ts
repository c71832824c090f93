// Any value as one line of text for a content block: its JSON, or what String makes of it.

/**
 * `value`'s JSON, or `String(value)` when it has none (undefined, a function) or cannot be stringified (a cycle, a
 * BigInt).
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
