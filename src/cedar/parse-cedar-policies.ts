// A Cedar policy text parsed once: each policy with its id, the name errors give it (@id or the id) and its line.
import { CedarPolicyError } from "./cedar-policy-error.js";
import type { CedarWasm } from "./load-cedar.js";

type DetailedError = {
  message: string;
  help: string | null;
  sourceLocations?: { start: number; label: string | null }[];
};

/** One policy of the set: Cedar's id (`policy0`, `policy1`, … in the text's order), its name, where it starts. */
export interface CedarRule {
  readonly id: string;
  /** Its `@id("...")` annotation, else its id: what a deny's `rule` says. */
  readonly name: string;
  /** 1-based line of the text where the policy (with its annotations) starts. */
  readonly line: number;
  /** Offset in the text (UTF-16 units) where it starts. */
  readonly offset: number;
  readonly text: string;
}

/** The parsed set: the policies by id, as Cedar takes them, and their rules in the text's order. */
export interface ParsedCedarPolicies {
  readonly policies: Record<string, string>;
  readonly rules: ReadonlyMap<string, CedarRule>;
}

/**
 * Parses `text` (named `source` in errors: the file's path, or `policies`). Throws `CedarPolicyError` with code
 * `cedar-policy-invalid` when it does not parse or holds a template, naming `source:line:column` and Cedar's words.
 */
export function parseCedarPolicies(cedar: CedarWasm, text: string, source: string): ParsedCedarPolicies {
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === "failure") {
    throw new CedarPolicyError(
      "cedar-policy-invalid",
      `${source} does not parse: ${describeErrors(parts.errors, text, source)}`,
    );
  }
  const template = parts.policy_templates[0];
  if (template !== undefined) {
    const at = locate(text, text.indexOf(template));
    throw new CedarPolicyError(
      "cedar-policy-invalid",
      `${source}:${at.line}:${at.column}: a template (a policy with ?principal or ?resource) is not supported; name the principal or the resource`,
    );
  }
  // Cedar hands the parts sorted by id as text (policy10 before policy2), each a slice of the text: their offsets
  // give back the text's order, which is the order Cedar numbers them in.
  const used = new Set<number>();
  const located = parts.policies.map((part) => {
    let offset = text.indexOf(part);
    while (offset !== -1 && used.has(offset)) offset = text.indexOf(part, offset + 1);
    used.add(offset);
    return { part, offset };
  });
  located.sort((a, b) => a.offset - b.offset);
  const policies: Record<string, string> = {};
  const rules = new Map<string, CedarRule>();
  located.forEach(({ part, offset }, index) => {
    const id = `policy${index}`;
    const json = cedar.policyToJson(part);
    const annotated = json.type === "success" ? json.json.annotations?.id : undefined;
    policies[id] = part;
    rules.set(id, { id, name: annotated ?? id, line: offset < 0 ? 0 : locate(text, offset).line, offset, text: part });
  });
  return { policies, rules };
}

/** Cedar's errors as one line each, `source:line:column: message (label)`, joined; at most three. */
export function describeErrors(errors: readonly DetailedError[], text: string, source: string): string {
  const shown = errors.slice(0, 3).map((error) => {
    const location = error.sourceLocations?.[0];
    const at = location === undefined ? "" : atOf(text, location.start, source);
    const label = location?.label ? ` (${location.label})` : "";
    const help = error.help ? `; ${error.help}` : "";
    return `${at}${error.message}${label}${help}`;
  });
  const more = errors.length > 3 ? `; and ${errors.length - 3} more` : "";
  return `${shown.join("; ")}${more}`;
}

function atOf(text: string, byteOffset: number, source: string): string {
  const at = locate(text, charOffset(text, byteOffset));
  return `${source}:${at.line}:${at.column}: `;
}

/** Cedar's offsets count UTF-8 bytes; JavaScript's strings count UTF-16 units. */
export function charOffset(text: string, byteOffset: number): number {
  return Buffer.from(text, "utf8").subarray(0, byteOffset).toString("utf8").length;
}

/** The 1-based line and column of a UTF-16 offset. */
export function locate(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lastBreak = before.lastIndexOf("\n");
  return { line: before.split("\n").length, column: offset - lastBreak };
}
