// Checks that a turn did its job: one result per call, the tool's answer when valid, an error naming the fault when not.

/**
 * Checks a list of `{ text, isError }` results against the turn's calls. For invalid inputs each
 * result must be an error and, unless `faultNamed` is false, its text must name the faulty field `id`.
 */
export function checkResults(results, calls, variant, options = {}) {
  if (!Array.isArray(results)) return `expected an array of results, got ${typeof results}`;
  if (results.length !== calls.length) return `expected ${calls.length} results, got ${results.length}`;
  for (let index = 0; index < results.length; index++) {
    const { text, isError } = results[index];
    if (variant === "invalid") {
      if (!isError) return `result ${index} is not an error result: ${String(text)}`;
      if (options.faultNamed !== false && !/\bid\b/.test(String(text))) {
        return `result ${index} does not name the faulty field: ${String(text)}`;
      }
    } else if (isError || text !== "ok") {
      return `result ${index} is not the tool's answer: ${JSON.stringify(text)}`;
    }
  }
  return undefined;
}
