// JSON with object keys sorted, so two equal values read the same whatever order their keys were written in.

/** `value` as JSON text with every object's keys sorted (`undefined` members left out, as JSON does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === "object" && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}

/** A value for a message: its canonical JSON, cut to `max` characters. */
export function shortJson(value: unknown, max = 200): string {
  const text = canonicalJson(value) ?? "undefined";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
