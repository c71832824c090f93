// A whole run of the agent loop, each library's way, interleaved in one process: toolwire's `runAgent` over the
// Anthropic wire format, the same run written by hand (bench/lib/hand-loop.js), and pi's `runAgentLoop` (each release
// this Node runs). pi installs no async hooks, so it slows no other case here; the ratios are taken pass by pass.
import * as toolwire from "../../dist/index.js";
import * as anthropicClient from "../../dist/providers/clients/anthropic-model.js";
import { checkResults } from "../lib/checks.js";
import { createHandLoop } from "../lib/hand-loop.js";
import { checkPiRun, piLoopRun } from "../lib/pi-cases.js";
import { loadPi } from "../lib/pi-packages.js";
import { loopOutcome, toolwireLoopRun } from "../lib/toolwire-loop.js";
import { turnCalls } from "../lib/workload.js";

const pis = await loadPi();

/** More passes than the other processes: the ratios of this process are the loop's targets. */
export const measureOptions = { passes: 9, cpuTimeNs: 1_800_000_000 };

/** Checks one run: completed in two model turns, one result per call, each the tool's answer. */
export function checkLoopOutcome(outcome, calls) {
  if (outcome.reason !== "completed") return `the run ended with ${String(outcome.reason)}, expected completed`;
  if (outcome.turns !== 2) return `the run took ${String(outcome.turns)} model turns, expected 2`;
  return checkResults(outcome.results, calls, "valid");
}

/** The whole-run cases: by hand, runAgent, and pi's loop of each release; one call of the no-op tool each. */
export function createCases() {
  const calls = turnCalls(1, "valid");
  const hand = createHandLoop(calls);
  const cases = [
    {
      group: "loop",
      library: "hand",
      variant: "anthropic",
      n: 1,
      run: async () => {
        let done;
        for await (const event of hand("go")) if (event.type === "done") done = event;
        return done;
      },
      check: (done) => checkLoopOutcome(loopOutcome(done), calls),
    },
    {
      group: "loop",
      library: "toolwire",
      variant: "anthropic",
      n: 1,
      run: toolwireLoopRun(toolwire, anthropicClient, calls),
      check: (done) => checkLoopOutcome(loopOutcome(done), calls),
    },
  ];
  for (const pi of pis) {
    cases.push({
      group: "loop",
      library: "pi",
      variant: pi.version,
      n: 1,
      run: piLoopRun(pi, calls),
      check: (messages) => checkPiRun(messages, calls),
    });
  }
  return cases;
}

/** What this process's cases were built with. */
export function describe() {
  return {
    library: "loop",
    version: `toolwire workspace build (dist/), by hand, ${pis.map((pi) => pi.version).join(", ")}`,
  };
}
