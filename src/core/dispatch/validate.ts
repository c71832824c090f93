// Input validation: a validator compiled once per schema (lazily, on a tool's first call) and messages a model can act
// on.
import { cutText, describeThrown } from "../errors.js";
import type { JsonObject } from "../types.js";

/** One schema violation: where (`input.path[0].key`) and what was expected. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}
/** Checks an input; `undefined` when it is valid. */
export type InputValidator = (input: JsonObject) => readonly ValidationIssue[] | undefined;
/** Compiles a validator for a schema. Called at most once per schema object by the session. */
export type InputValidatorFactory = (schema: JsonObject) => InputValidator;

/** A per-schema cache of compiled validators; a schema that fails to compile fails every call, without recompiling. */
export function createValidatorCache(factory: InputValidatorFactory): (schema: JsonObject) => InputValidator {
  const cache = new WeakMap<JsonObject, InputValidator>();
  return (schema) => {
    let validator = cache.get(schema);
    if (validator === undefined) {
      try {
        validator = factory(schema);
      } catch (error) {
        const message = describeThrown(error);
        validator = () => [
          {
            path: "input",
            message: `the tool's input schema cannot be compiled (${message}); this is a fault in the tool`,
          },
        ];
      }
      cache.set(schema, validator);
    }
    return validator;
  };
}

/** The most violations one error lists; the rest are counted. */
const MAX_LISTED_ISSUES = 20;
const MAX_ISSUE_PATH_CHARS = 200;
const MAX_ISSUE_MESSAGE_CHARS = 500;

/**
 * The message of the `invalid-input` refusal a model gets for schema violations: each with its path and what was
 * expected (20 listed, the rest counted).
 */
export function invalidInputMessage(toolName: string, issues: readonly ValidationIssue[], origin = "input"): string {
  // Paths hold the model's own keys, and an input can break hundreds of rules: both are bounded. Written as one
  // string, not lines joined: this message is most of what an invalid call costs.
  let text = `Invalid ${origin} for tool ${toolName}:`;
  const listed = Math.min(issues.length, MAX_LISTED_ISSUES);
  for (let index = 0; index < listed; index++) {
    const issue = issues[index] as ValidationIssue;
    text += `\n- ${cutText(issue.path, MAX_ISSUE_PATH_CHARS)}: ${cutText(issue.message, MAX_ISSUE_MESSAGE_CHARS)}`;
  }
  if (issues.length > MAX_LISTED_ISSUES) text += `\n- ... and ${issues.length - MAX_LISTED_ISSUES} more`;
  text += `\nFix ${issues.length === 1 ? "this field" : "these fields"} and call ${toolName} again.`;
  return text;
}
