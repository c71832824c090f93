// pi's current release (`@earendil-works/pi-agent-core`, Node 22.19 or later): the same cases as pi.js.
import { piCases } from "../lib/pi-cases.js";
import { loadPiCurrent } from "../lib/pi-packages.js";

const pi = await loadPiCurrent();

/** Every case of pi's current release. */
export function createCases(options = {}) {
  return piCases(pi, "pi", options);
}

/** What this library's cases were built with. */
export function describe() {
  return { library: "pi", version: pi.version };
}
