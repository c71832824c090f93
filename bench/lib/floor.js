// The floor every process measures: the same turns with the function called directly, so ratios stay within one process.
import { CALL_COUNTS, directTurn, noop, turnCalls, validInput } from "./workload.js";

/** The floor's turns (no calls, then N direct calls of the no-op function) and one direct call. */
export function floorCases() {
  const cases = [];
  for (const variant of ["valid", "invalid"]) {
    for (const n of CALL_COUNTS) {
      const calls = turnCalls(n, variant);
      const response = { role: "assistant", content: calls.map((call) => ({ type: "tool_use", ...call })) };
      const model = async () => response;
      cases.push({
        group: "turn",
        library: "floor",
        variant,
        n,
        run: async () => directTurn((await model()).content),
        check: (value) => (Array.isArray(value) && value.length === n ? undefined : "wrong number of results"),
      });
    }
  }
  const input = validInput(0);
  cases.push({ group: "single", library: "floor", variant: "direct", n: 1, run: () => noop(input) });
  return cases;
}
