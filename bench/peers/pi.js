// pi 0.73's side (what toolwire/pi is tested with): its cases are bench/lib/pi-cases.js.
import { piCases } from "../lib/pi-cases.js";
import { loadPi073 } from "../lib/pi-packages.js";

const pi = await loadPi073();

/** Every pi 0.73 case: turns of N calls (valid and invalid) and turns with N tools and no call. */
export function createCases(options = {}) {
  return piCases(pi, "pi", options);
}

/** What this library's cases were built with. */
export function describe() {
  return { library: "pi", version: pi.version };
}
