// A value in a divergence message: its canonical JSON, cut short.
import { canonicalJson } from "../core/approve/input-digest.js";

/** `value`'s canonical JSON (keys sorted), cut to `max` characters. */
export function shortJson(value: unknown, max = 200): string {
  const text = canonicalJson(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
