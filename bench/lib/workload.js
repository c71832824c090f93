// The job every library does in the benchmark: the same no-op tool, schema, inputs and call counts.

/** How many calls one model turn asks for (0 is the baseline subtracted from the others). */
export const CALL_COUNTS = [0, 1, 10, 100];
/** How many tools the registry-size benchmarks use. */
export const TOOL_COUNTS = [10, 100, 1000, 10000];

/** The no-op tool's name. */
export const NOOP_NAME = "noop";
/** The no-op tool's description. */
export const NOOP_DESCRIPTION = "Does nothing and answers ok.";
/** A small object schema: two required fields, no extra ones. */
export const NOOP_SCHEMA = Object.freeze({
  type: "object",
  properties: Object.freeze({
    id: Object.freeze({ type: "integer", description: "Which item" }),
    label: Object.freeze({ type: "string", description: "A short label" }),
  }),
  required: Object.freeze(["id", "label"]),
  additionalProperties: false,
});
/** What the no-op tool answers. */
export const NOOP_OUTPUT = "ok";

/** A valid input for call `index`. */
export function validInput(index) {
  return { id: index, label: "item" };
}

/** An input with three faults: `id` has the wrong type, `label` is missing, `extra` is not allowed. */
export function invalidInput(index) {
  return { id: `n${index}`, extra: true };
}

/** The calls of one turn: `count` calls of the no-op tool, with valid or invalid inputs. */
export function turnCalls(count, variant) {
  const make = variant === "invalid" ? invalidInput : validInput;
  return Array.from({ length: count }, (_, index) => ({ id: `call_${index}`, name: NOOP_NAME, input: make(index) }));
}

/** The no-op executor every library wraps: the floor is a direct call of this function. */
export async function noop() {
  return NOOP_OUTPUT;
}

/**
 * The floor: a turn that calls the function directly, `count` times in a row, and collects the results.
 * Each library's process measures it too, so every ratio is taken within one process.
 */
export async function directTurn(calls) {
  const results = [];
  for (const call of calls) results.push(await noop(call.input));
  return results;
}
