// The MCP conformance suite's client scenarios against toolwire's bridge (connectMcpServer), driven by client-driver.mjs.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "../e2e/helpers/build.js";
import {
  CAN_RUN_CONFORMANCE,
  type ConformanceCheck,
  type ConformanceRun,
  judgeScenario,
  listScenarios,
  readResults,
  runConformance,
} from "./helpers/conformance.js";

const DRIVER = fileURLToPath(new URL("./client-driver.mjs", import.meta.url));

/** Scenarios for things the bridge is not meant to do, with why. */
const NOT_APPLICABLE: Record<string, string> = {
  "auth/cross-app-access-complete-flow": "the cross-app access extension is outside issue 13's OAuth client",
};

/**
 * Scenarios the bridge fails on purpose, with why. The test fails when one of them passes: move it to PASSING then.
 */
const EXPECTED_TO_FAIL: Record<string, string> = {
  "auth/2025-03-26-oauth-metadata-backcompat":
    "the scenario's authorization server serves issuer <origin>/oauth at the root metadata path; RFC 8414 section 3.3 " +
    "says the issuer must match where the metadata was found, and the SDK's check (a defense against mix-up attacks) " +
    "refuses it. toolwire keeps the check",
};

/** Scenarios that pass: the bridge with toolwire's OAuth providers for auth/* (see client-driver.mjs). */
const PASSING = [
  "initialize",
  "tools_call",
  "sse-retry",
  // The driver's onElicitation accepts; the bridge fills in the form's defaults.
  "elicitation-sep1034-client-defaults",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  // The client must not authorize when the resource metadata names another resource: the SDK refuses it.
  "auth/resource-mismatch",
];

/** Run one at a time (the driver's exit code counts, and sse-retry measures the reconnect delay to the ms). */
const RUN_ALONE = ["initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults"];
/**
 * Scenarios whose checks time the client to the millisecond: a busy machine's late timer fails them while the
 * behaviour is right, so a failed run is tried again, three runs at most. A real fault fails all three.
 */
const TIMED = ["sse-retry"];
/** The suite's groups that hold every other scenario; each runs its scenarios in parallel. */
const SUITES = ["auth", "backcompat", "draft", "extensions"];

let output: string | undefined;
let listed: string[] = [];
let results = new Map<string, ConformanceCheck[]>();
const aloneRuns = new Map<string, ConformanceRun>();
let log = "";

describe.skipIf(!CAN_RUN_CONFORMANCE)("MCP conformance: client scenarios against the bridge", () => {
  beforeAll(async () => {
    builtScript("dist/mcp/index.js"); // the driver imports dist/
    const dir = await mkdtemp(join(tmpdir(), "toolwire-conformance-client-"));
    output = dir;
    listed = await listScenarios("client");
    // The suite splits --command at spaces and appends the server URL.
    const command = `${process.execPath} ${DRIVER}`;
    if (command.split(" ").length !== 2) throw new Error(`the driver's command must not contain spaces: ${command}`);
    const common = ["--command", command, "--timeout", "45000", "-o", dir];
    for (const scenario of RUN_ALONE) {
      for (let attempt = 1; ; attempt++) {
        const run = await runConformance(["client", "--scenario", scenario, ...common], { timeoutMs: 60_000 });
        log += run.stdout + run.stderr;
        if (run.code === 0 || !TIMED.includes(scenario) || attempt === 3) {
          aloneRuns.set(scenario, run);
          break;
        }
        // The next run's results replace this one's.
        for (const folder of await readdir(dir)) {
          if (folder.startsWith(`${scenario}-`)) await rm(join(dir, folder), { recursive: true, force: true });
        }
      }
    }
    for (const suite of SUITES) {
      const run = await runConformance(["client", "--suite", suite, ...common], { timeoutMs: 90_000 });
      log += run.stdout + run.stderr;
    }
    results = await readResults(dir, "client");
  }, 360_000);

  afterAll(async () => {
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it("sorts every scenario of the suite into passing, expected to fail or not applicable, each once", () => {
    const sorted = [...PASSING, ...Object.keys(EXPECTED_TO_FAIL), ...Object.keys(NOT_APPLICABLE)];
    expect(new Set(sorted).size, "a scenario sits in two lists").toBe(sorted.length);
    // A newer suite's new scenario shows up here: put it in one of the lists (and in RUN_ALONE if no suite holds it).
    expect([...sorted].sort()).toEqual([...listed].sort());
  });

  it("ran every applicable scenario", () => {
    const applicable = [...PASSING, ...Object.keys(EXPECTED_TO_FAIL)];
    expect(
      applicable.filter((scenario) => !results.has(scenario)),
      log,
    ).toEqual([]);
  });

  it.each(PASSING)("%s passes", (scenario) => {
    const verdict = judgeScenario(results.get(scenario));
    expect(verdict.problems, `${scenario} failed:\n${verdict.problems.join("\n")}`).toEqual([]);
    const alone = aloneRuns.get(scenario);
    if (alone !== undefined) expect(alone.code, `the suite's verdict on ${scenario}:\n${alone.stderr}`).toBe(0);
  });

  it.each(Object.entries(EXPECTED_TO_FAIL))("%s still fails (%s)", (scenario) => {
    const verdict = judgeScenario(results.get(scenario));
    expect(verdict.passed, `${scenario} passes now: move it to PASSING`).toBe(false);
  });
});
