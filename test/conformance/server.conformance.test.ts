// The MCP conformance suite's server scenarios against `toolwire serve --http`, serving the fixture plugin's tools.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv } from "../e2e/helpers/cli.js";
import {
  CAN_RUN_CONFORMANCE,
  type ConformanceCheck,
  ERAS,
  judgeScenario,
  type ListedScenario,
  listScenarios,
  readResults,
  runConformance,
  runKeys,
  runsNatively,
  sortingProblems,
} from "./helpers/conformance.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

const TOOLS_ONLY = "toolwire serves tools only";
const APPS_ONLY =
  "the only resources serve offers are its served tools' MCP Apps (docs/mcp.md#apps), not the scenario's own";
const SAMPLING_OR_ROOTS =
  "its tool must ask the client's model (sampling/createMessage) or its roots (roots/list); a toolwire tool asks only " +
  "elicitation questions (context.ask, docs/approvals.md#questions-from-tools)";

/**
 * Scenarios (every run of them) or runs (`name@version`) for things toolwire does not serve, with why. Runs are keyed
 * `<scenario>@<version>`: every scenario runs at each era it applies to (see `runKeys`).
 */
const NOT_APPLICABLE: Record<string, string> = {
  "completion-complete": `${TOOLS_ONLY}: completions are not its job`,
  "resources-list": APPS_ONLY,
  "resources-read-text": APPS_ONLY,
  "resources-read-binary": APPS_ONLY,
  "resources-templates-read": APPS_ONLY,
  "resources-subscribe": APPS_ONLY,
  "resources-unsubscribe": APPS_ONLY,
  "prompts-list": `${TOOLS_ONLY}: prompts are not its job`,
  "prompts-get-simple": `${TOOLS_ONLY}: prompts are not its job`,
  "prompts-get-with-args": `${TOOLS_ONLY}: prompts are not its job`,
  "prompts-get-embedded-resource": `${TOOLS_ONLY}: prompts are not its job`,
  "prompts-get-with-image": `${TOOLS_ONLY}: prompts are not its job`,
  "sep-2640-skills-directory": `${TOOLS_ONLY}: the skills extension (SEP-2640) serves skills as resources`,
  "sep-2640-skills-enumeration": `${TOOLS_ONLY}: the skills extension (SEP-2640) serves skills as resources`,
  "sep-2640-skills-manifest": `${TOOLS_ONLY}: the skills extension (SEP-2640) serves skills as resources`,
  "tools-call-sampling": "a toolwire tool cannot ask the client's model (sampling/createMessage); no tool API for it",
  "input-required-result-basic-sampling": SAMPLING_OR_ROOTS,
  "input-required-result-basic-list-roots": SAMPLING_OR_ROOTS,
  "input-required-result-multiple-input-requests": `${SAMPLING_OR_ROOTS}; it asks all three at once`,
  "input-required-result-capability-check": `${SAMPLING_OR_ROOTS}; its client declares sampling only`,
  "input-required-result-non-tool-request": `${TOOLS_ONLY}: its question comes from prompts/get`,
};

/**
 * Applicable runs that fail today, with why in one line. A fix must remove its entry: the test fails when a run
 * listed here passes, so the list stays true.
 */
const KNOWN_FAILING: Record<string, string> = {
  "server-stateless@2026-07-28":
    "its capability checks call a test_missing_capability tool that needs the client's sampling (no toolwire tool can), " +
    "and its list_changed check a test_trigger_tool_change hook that changes the served tools (a SHOULD); the other 26 checks pass",
  "caching@2026-07-28":
    `${TOOLS_ONLY}: the scenario also asks prompts/list for caching hints (-32601); its tools/list, resources/list and ` +
    "resources/templates/list hints checks pass (serve lists the served tools' MCP Apps), and it skips resources/read " +
    "when the list is empty",
  "tasks-status-notifications@extension":
    "the suite only skips it (its notifications/tasks check waits for a subscriptions/listen harness), so it has no " +
    "check to pass; serve sends no notifications/tasks either (a MAY): clients poll",
};

/** Applicable runs that pass today. `tools-call-elicitation` passes through approvals: serve elicits the yes. */
const PASSING = [
  ...[
    "server-initialize",
    "server-session-lifecycle",
    "logging-set-level",
    "tools-call-with-logging",
    "ping",
    "tools-call-elicitation",
    // Forms a fixture tool asks through context.ask, pushed to the client as elicitation/create unchanged.
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    // A session that agreed on 2025-11-25 gets primed, resumable streams whatever version a request's header names.
    "server-sse-polling",
  ].map((scenario) => `${scenario}@2025-11-25`),
  ...[
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "tools-call-with-progress",
    "json-schema-2020-12",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
  ].flatMap((scenario) => [`${scenario}@2025-11-25`, `${scenario}@2026-07-28`]),
  "http-header-validation@2026-07-28",
  // SEP-2322's multi-round trip: the fixture's test_input_required_result_* tools ask through context.ask with the
  // scenario's keys; serve holds the call across the retries, names the call and the round in its requestState,
  // refuses a requestState it did not give (-32602), asks again when a retry lacks the answer, and takes an answer
  // a request brings ahead.
  ...[
    "basic-elicitation",
    "request-state",
    "multi-round",
    "missing-input-response",
    "result-type",
    "unsupported-methods",
    "tampered-state",
    "ignore-extra-params",
    "validate-input",
  ].map((scenario) => `input-required-result-${scenario}@2026-07-28`),
  // resources/read answers any URI that is not a served tool's MCP App with -32602 and the URI in its data.
  "sep-2164-resource-not-found@2026-07-28",
  // Mcp-Param-* headers checked against the body: a missing or mismatched one gets 400 / -32020.
  "http-custom-header-server-validation@2026-07-28",
  // The tasks extension (docs/mcp.md#tasks) on the fixture plugin's greet, slow_compute, confirm_delete (an approval),
  // multi_input (two questions at once), failing_job (serve.tasks.require: a task only), protocol_error_job (its
  // invalid result ends the task failed, -32603) and test_tool_with_task (a question as input_required before the
  // call is answered with its task).
  ...[
    "tasks-lifecycle",
    "tasks-mrtr-composition",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-mrtr-input",
    "tasks-required-task-error",
  ].map((scenario) => `${scenario}@extension`),
];

let serve: ChildProcess | undefined;
let output: string | undefined;
/** The checks of each run, by `name@version`. */
const results = new Map<string, ConformanceCheck[]>();
let listed: ListedScenario[] = [];
let log = "";

/** Starts `toolwire serve --http 0` on the fixture config and resolves with the URL it prints on stderr. */
function startServe(): Promise<string> {
  const child = spawn(
    process.execPath,
    [CLI, "-c", join(FIXTURES, "toolwire.config.json"), "serve", "--http", "0", "--no-auth"],
    {
      cwd: FIXTURES,
      env: cliEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  serve = child;
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = / at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    child.on("exit", (code) => reject(new Error(`toolwire serve exited with ${code} before listening: ${stderr}`)));
  });
}

describe.skipIf(!CAN_RUN_CONFORMANCE)("MCP conformance: server scenarios against toolwire serve --http", () => {
  beforeAll(async () => {
    const [url, scenarios, dir] = await Promise.all([
      startServe(),
      listScenarios("server"),
      mkdtemp(join(tmpdir(), "toolwire-conformance-server-")),
    ]);
    listed = scenarios;
    output = dir;
    // One invocation per era runs every scenario that applies to it in turn against the one server. The extensions, on
    // neither era, are all in the suite's "pending" group, run at the version the suite picks for each; only their
    // results are read from it. All three at once: each scenario has its own session.
    const native = listed.filter(runsNatively);
    const runs = await Promise.all([
      ...ERAS.map((era) =>
        runConformance(["server", "--url", url, "--suite", "all", "--spec-version", era, "-o", join(dir, era)], {
          timeoutMs: 90_000,
        }),
      ),
      runConformance(["server", "--url", url, "--suite", "pending", "-o", join(dir, "native")], { timeoutMs: 90_000 }),
    ]);
    log = runs.map((run) => run.stdout + run.stderr).join("");
    for (const era of ERAS) {
      for (const [scenario, checks] of await readResults(join(dir, era), "server")) {
        results.set(`${scenario}@${era}`, checks);
      }
    }
    const nativeResults = await readResults(join(dir, "native"), "server");
    for (const scenario of native) {
      const checks = nativeResults.get(scenario.name);
      if (checks !== undefined) results.set(runKeys(scenario)[0] as string, checks);
    }
  }, 120_000);

  afterAll(async () => {
    const pid = serve?.pid;
    if (pid !== undefined && serve?.exitCode === null && serve.signalCode === null) {
      const exited = new Promise((resolve) => serve?.once("exit", resolve));
      process.kill(pid, "SIGTERM");
      const timer = setTimeout(() => process.kill(pid, "SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    }
    if (output !== undefined) await rm(output, { recursive: true, force: true });
  });

  it("sorts every run of every scenario into passing, known failing or not applicable, each once", () => {
    // A newer suite's new scenario (or a scenario's new era) shows up here: put it in one of the lists.
    expect(
      sortingProblems(listed, {
        passing: PASSING,
        knownFailing: Object.keys(KNOWN_FAILING),
        notApplicable: Object.keys(NOT_APPLICABLE),
      }),
    ).toEqual([]);
  });

  it("ran every run of every scenario", () => {
    const runs = listed.flatMap(runKeys);
    expect(
      runs.filter((key) => !results.has(key)),
      log,
    ).toEqual([]);
  });

  it.each(PASSING)("%s passes", (scenario) => {
    const verdict = judgeScenario(results.get(scenario));
    expect(verdict.problems, `${scenario} failed:\n${verdict.problems.join("\n")}`).toEqual([]);
    expect(verdict.passed).toBe(true);
  });

  it.each(Object.entries(KNOWN_FAILING))("%s still fails (known: %s)", (scenario) => {
    const verdict = judgeScenario(results.get(scenario));
    expect(verdict.passed, `${scenario} passes now: remove it from KNOWN_FAILING and add it to PASSING`).toBe(false);
  });
});
