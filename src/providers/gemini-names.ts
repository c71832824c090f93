// Tool names as Gemini takes them (a letter or `_` first), and back: one more `_` in front where needed, reversibly.
import { createHash } from "node:crypto";

/** Gemini's longest function name. Its rule: a letter or `_` first, then letters, digits, `_`, `.`, `:` or `-`. */
const MAX_LENGTH = 64;

/** The original names of the shortened ones (the only mapped names with a `.`, which tool names never have). */
const shortened = new Map<string, string>();

/**
 * The name a tool goes to Gemini by. A name starting with a letter goes as it is. One starting with anything else
 * (a digit or `-`, which Gemini refuses, or `_`) gets one more `_` in front, so the mapping stays one-to-one: `1st`
 * becomes `_1st` and `_x` becomes `__x`. A 64-character name that would grow past Gemini's 64 becomes its first 54
 * characters, `.` and 8 hex digits of its hash (remembered, so that `fromGeminiName` can map it back).
 */
export function toGeminiName(name: string): string {
  if (/^[A-Za-z]/.test(name)) return name;
  if (name.length < MAX_LENGTH) return `_${name}`;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  const mapped = `_${name.slice(0, MAX_LENGTH - 10)}.${hash}`;
  shortened.set(mapped, name);
  return mapped;
}

/** The tool name a name from Gemini stands for: `toGeminiName` undone (a name it did not make comes back as is). */
export function fromGeminiName(name: string): string {
  if (name.includes(".")) return shortened.get(name) ?? name;
  const original = name.slice(1);
  return name.startsWith("_") && toGeminiName(original) === name ? original : name;
}
