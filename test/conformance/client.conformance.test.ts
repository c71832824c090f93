// The MCP conformance suite's client scenarios against toolwire's bridge (connectMcpServer), driven by client-driver.mjs.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "../e2e/helpers/build.js";
import {
  CAN_RUN_CONFORMANCE,
  type ConformanceCheck,
  type ConformanceRun,
  ERAS,
  judgeScenario,
  type ListedScenario,
  listScenarios,
  readResults,
  runConformance,
  runKeys,
  sortingProblems,
} from "./helpers/conformance.js";

const DRIVER = fileURLToPath(new URL("./client-driver.mjs", import.meta.url));

const NO_CLIENT = "no client here implements it: the bridge's OAuth client has";
const SKILLS = "the bridge does not consume the skills extension (SEP-2640): it bridges tools only";

/**
 * Scenarios (every run of them) or runs (`name@version`) for things the bridge is not meant to do, with why. They are
 * not run.
 */
const NOT_APPLICABLE: Record<string, string> = {
  "auth/enterprise-managed-authorization": `${NO_CLIENT} no enterprise-managed authorization (identity assertion grant)`,
  "auth/wif-jwt-bearer": `${NO_CLIENT} no workload identity federation (JWT bearer grant)`,
  "sep-2640-client-no-prefetch": SKILLS,
  "sep-2640-client-verify-digest": SKILLS,
  "sep-2640-client-verify-size": SKILLS,
  "sep-2640-client-verify-frontmatter": SKILLS,
};

/**
 * Runs the bridge fails, with why. The test fails when one of them passes: move it to PASSING then.
 */
const EXPECTED_TO_FAIL: Record<string, string> = {};

/** Runs of scenarios that apply to both eras and pass at both. */
const BOTH_ERAS = [
  "tools_call",
  "json-schema-2020-12-preservation",
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
];

/** Runs that pass: the bridge with toolwire's OAuth providers for auth/* (see client-driver.mjs), negotiating the era. */
const PASSING = [
  ...BOTH_ERAS.flatMap((scenario) => ERAS.map((era) => `${scenario}@${era}`)),
  "initialize@2025-11-25",
  "sse-retry@2025-11-25",
  "request-metadata@2026-07-28",
  "http-standard-headers@2026-07-28",
  // input_required answered through onElicitation, the request state sent back (SEP-2322).
  "sep-2322-client-request-state@2026-07-28",
  // Mcp-Param-* headers sent for x-mcp-header parameters; tools with invalid declarations left out (SEP-2243).
  "http-custom-headers@2026-07-28",
  "http-invalid-tool-headers@2026-07-28",
  // The driver's onElicitation accepts; the bridge fills in the form's defaults.
  "elicitation-sep1034-client-defaults@2025-11-25",
  "json-schema-ref-no-deref@2026-07-28",
  // The client must not authorize when the resource metadata names another resource: the SDK refuses it.
  "auth/resource-mismatch@2026-07-28",
  "auth/metadata-issuer-mismatch@2026-07-28",
  "auth/offline-access-scope@2026-07-28",
  "auth/offline-access-not-supported@2026-07-28",
  // The resource names a new authorization server: the bridge discovers it, registers there, never reuses the old
  // server's client or tokens (SEP-2352).
  "auth/authorization-server-migration@2026-07-28",
  // RFC 9207: the authorization response's iss is compared with the issuer when the server says it sends one.
  "auth/iss-supported@2026-07-28",
  "auth/iss-not-advertised@2026-07-28",
  "auth/iss-supported-missing@2026-07-28",
  "auth/iss-wrong-issuer@2026-07-28",
  "auth/iss-unexpected@2026-07-28",
  "auth/iss-normalized@2026-07-28",
  "auth/2025-03-26-oauth-endpoint-fallback@2025-03-26",
  // Its authorization server's metadata now names the issuer it is found at, so the RFC 8414 issuer check accepts it.
  "auth/2025-03-26-oauth-metadata-backcompat@2025-03-26",
  "auth/client-credentials-jwt@extension",
  // DPoP (RFC 9449, SEP-1932): the authorization server offers ES256, so the bridge asks for DPoP-bound tokens with
  // its stored key, proves it on every request, and retries once with a server's nonce.
  "auth/dpop@extension",
  "auth/dpop-nonce@extension",
  "auth/client-credentials-basic@extension",
];

/**
 * The suite's groups run per era, each running its scenarios in parallel; every other applicable run then runs alone
 * (the driver's exit code counts, and sse-retry measures the reconnect delay to the ms).
 */
const SUITES = ["auth", "draft"];
/**
 * Scenarios whose checks time the client to the millisecond: a busy machine's late timer fails them while the
 * behaviour is right, so a failed run is tried again, three runs at most. A real fault fails all three.
 */
const TIMED = ["sse-retry"];

let output: string | undefined;
let listed: ListedScenario[] = [];
/** The checks of each run, by `name@version`. */
const results = new Map<string, ConformanceCheck[]>();
const aloneRuns = new Map<string, ConformanceRun>();
let log = "";

/** The `--spec-version` arguments that select the version a run key names (none for an off-era run). */
function versionOf(key: string): string[] {
  const version = key.slice(key.lastIndexOf("@") + 1);
  return (ERAS as readonly string[]).includes(version) ? ["--spec-version", version] : [];
}

/** The scenario a run key names. */
function nameOf(key: string): string {
  return key.slice(0, key.lastIndexOf("@"));
}

/** Runs one scenario by itself at the version its key names (a timed one up to three times) and keeps its checks. */
async function runAlone(key: string, dir: string, common: readonly string[]): Promise<void> {
  const scenario = nameOf(key);
  const args = versionOf(key);
  // A folder per run: runs at the same time must not read each other's results.
  const folder = join(dir, "alone", key.replace(/[/@]/g, "_"));
  for (let attempt = 1; ; attempt++) {
    // Generous: on a loaded 2-core machine one scenario has taken more than a minute.
    const run = await runConformance(["client", "--scenario", scenario, ...args, ...common, "-o", folder], {
      timeoutMs: 180_000,
    });
    log += run.stdout + run.stderr;
    if (run.code === 0 || !TIMED.includes(scenario) || attempt === 3) {
      aloneRuns.set(key, run);
      break;
    }
    // The next run's results replace this one's.
    await rm(folder, { recursive: true, force: true });
  }
  const checks = (await readResults(folder, "client")).get(scenario);
  if (checks !== undefined) results.set(key, checks);
}

describe.skipIf(!CAN_RUN_CONFORMANCE)("MCP conformance: client scenarios against the bridge", () => {
  beforeAll(async () => {
    builtScript("dist/mcp/index.js"); // the driver imports dist/
    const dir = await mkdtemp(join(tmpdir(), "toolwire-conformance-client-"));
    output = dir;
    listed = await listScenarios("client");
    // The suite splits --command at spaces and appends the server URL.
    const command = `${process.execPath} ${DRIVER}`;
    if (command.split(" ").length !== 2) throw new Error(`the driver's command must not contain spaces: ${command}`);
    const common = ["--command", command, "--timeout", "120000"];
    const readInto = async (folder: string, version: string) => {
      for (const [scenario, checks] of await readResults(join(dir, folder), "client")) {
        results.set(`${scenario}@${version}`, checks);
      }
    };
    for (const era of ERAS) {
      // The draft group holds only 2026-07-28 scenarios.
      for (const suite of SUITES.filter((name) => name !== "draft" || era === "2026-07-28")) {
        const run = await runConformance(
          ["client", "--suite", suite, "--spec-version", era, ...common, "-o", join(dir, era)],
          { timeoutMs: 300_000 },
        );
        log += run.stdout + run.stderr;
      }
      await readInto(era, era);
    }
    const applicable = [...PASSING, ...Object.keys(EXPECTED_TO_FAIL)];
    const alone = applicable.filter((key) => !results.has(key));
    for (const key of alone) await runAlone(key, dir, common);
  }, 1_200_000);

  afterAll(async () => {
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it("sorts every run of every scenario into passing, expected to fail or not applicable, each once", () => {
    // A newer suite's new scenario (or a scenario's new era) shows up here: put it in one of the lists.
    expect(
      sortingProblems(listed, {
        passing: PASSING,
        knownFailing: Object.keys(EXPECTED_TO_FAIL),
        notApplicable: Object.keys(NOT_APPLICABLE),
      }),
    ).toEqual([]);
  });

  it("ran every applicable run", () => {
    const applicable = [...PASSING, ...Object.keys(EXPECTED_TO_FAIL)];
    expect(
      applicable.filter((key) => !results.has(key)),
      log,
    ).toEqual([]);
    // Every key names a run of a listed scenario (checked above), so runKeys agrees with what ran.
    expect(listed.flatMap(runKeys).length).toBeGreaterThanOrEqual(applicable.length);
  });

  it.each(PASSING)("%s passes", (key) => {
    const verdict = judgeScenario(results.get(key));
    expect(verdict.problems, `${key} failed:\n${verdict.problems.join("\n")}`).toEqual([]);
    const alone = aloneRuns.get(key);
    if (alone !== undefined) expect(alone.code, `the suite's verdict on ${key}:\n${alone.stderr}`).toBe(0);
  });

  it.each(Object.entries(EXPECTED_TO_FAIL))("%s still fails (%s)", (key) => {
    const verdict = judgeScenario(results.get(key));
    expect(verdict.passed, `${key} passes now: move it to PASSING`).toBe(false);
  });
});
