// Input validation: a validator compiled once per schema (lazily, on a tool's first call) and messages a model can act on.
import { describeThrown, type ToolCallError, toolCallRefusal } from "../errors.js";
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

/** The error a model gets for schema violations: every violation with its path and what was expected. */
export function invalidInputError(
  toolName: string,
  issues: readonly ValidationIssue[],
  origin = "input",
): ToolCallError {
  const lines = issues.map((issue) => `- ${issue.path}: ${issue.message}`);
  return toolCallRefusal(
    "invalid-input",
    toolName,
    `Invalid ${origin} for tool ${toolName}:\n${lines.join("\n")}\nFix ${issues.length === 1 ? "this field" : "these fields"} and call ${toolName} again.`,
  );
}
