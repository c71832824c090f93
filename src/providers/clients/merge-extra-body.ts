// A request body with the user's extra fields merged in last: objects key by key, anything else replaced.
import { isRecord, setOwn } from "../../core/json.js";

/**
 * `body` with `extra` merged in: where both hold an object (not a list) under a key, the two are merged the same way;
 * otherwise `extra`'s value replaces `body`'s. `body` itself when there is no `extra`. Neither argument is changed.
 */
export function mergeExtraBody(
  body: Record<string, unknown>,
  extra: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  if (extra === undefined) return body;
  const merged: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    const next = isRecord(current) && isRecord(value) ? mergeExtraBody(current, value) : value;
    // A `__proto__` key (JSON.parse makes one) is a field like any other.
    setOwn(merged, key, next);
  }
  return merged;
}
