// A bridged tool's structuredContent checked against the outputSchema its server published.
import type { JsonObject } from "../../core/types.js";
import { createAjvValidator } from "../../validation/ajv-validator.js";

/** The most violations an error result names. */
const MAX_NAMED_VIOLATIONS = 3;

/**
 * A check of structured content against `outputSchema`, compiled on first use: `undefined` when the
 * content fits, else a sentence naming the first violations. A schema that cannot be compiled is
 * reported as such rather than trusted.
 */
export function structuredContentCheck(outputSchema: JsonObject): (structured: unknown) => string | undefined {
  let validate: ((value: unknown) => string | undefined) | undefined;
  return (structured) => {
    validate ??= compile(outputSchema);
    return validate(structured);
  };
}

function compile(outputSchema: JsonObject): (value: unknown) => string | undefined {
  let validator: ReturnType<typeof createAjvValidator>;
  try {
    validator = createAjvValidator(outputSchema);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return () => `its outputSchema cannot be used (${reason})`;
  }
  return (value) => {
    if (value === undefined || value === null)
      return "it sent no structuredContent although its outputSchema asks for it";
    const issues = validator(value as JsonObject); // any JSON value: the validator reads it as data
    if (issues === undefined) return undefined;
    const named = issues
      .slice(0, MAX_NAMED_VIOLATIONS)
      .map((issue) => `${issue.path.replace(/^input/, "structuredContent")}: ${issue.message}`);
    const more = issues.length > MAX_NAMED_VIOLATIONS ? ` (and ${issues.length - MAX_NAMED_VIOLATIONS} more)` : "";
    return `its structuredContent does not match its outputSchema: ${named.join("; ")}${more}`;
  };
}
