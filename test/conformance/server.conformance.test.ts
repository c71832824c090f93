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
  judgeScenario,
  listScenarios,
  readResults,
  runConformance,
} from "./helpers/conformance.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** Scenarios for things toolwire does not serve, with why. */
const NOT_APPLICABLE: Record<string, string> = {
  "completion-complete": "toolwire serves tools only: completions are not its job",
  "resources-list": "toolwire serves tools only: resources are not its job",
  "resources-read-text": "toolwire serves tools only: resources are not its job",
  "resources-read-binary": "toolwire serves tools only: resources are not its job",
  "resources-templates-read": "toolwire serves tools only: resources are not its job",
  "resources-subscribe": "toolwire serves tools only: resources are not its job",
  "resources-unsubscribe": "toolwire serves tools only: resources are not its job",
  "prompts-list": "toolwire serves tools only: prompts are not its job",
  "prompts-get-simple": "toolwire serves tools only: prompts are not its job",
  "prompts-get-with-args": "toolwire serves tools only: prompts are not its job",
  "prompts-get-embedded-resource": "toolwire serves tools only: prompts are not its job",
  "prompts-get-with-image": "toolwire serves tools only: prompts are not its job",
  "tools-call-sampling": "a toolwire tool cannot ask the client's model (sampling/createMessage); no tool API for it",
  "elicitation-sep1034-defaults":
    "a toolwire tool cannot ask the client's user its own questions; serve elicits only approvals, with its own schema",
  "elicitation-sep1330-enums":
    "a toolwire tool cannot ask the client's user its own questions; serve elicits only approvals, with its own schema",
};

/**
 * Applicable scenarios that fail today, with why in one line. A fix must remove its entry: the test fails when a
 * scenario listed here passes, so the list stays true.
 */
const KNOWN_FAILING: Record<string, string> = {};

/** Applicable scenarios that pass today. `tools-call-elicitation` passes through approvals: serve elicits the yes. */
const PASSING = [
  "logging-set-level",
  "tools-call-with-logging",
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "server-sse-multiple-streams",
  // A session that agreed on 2025-11-25 gets primed, resumable streams whatever version a request's header names.
  "server-sse-polling",
  "dns-rebinding-protection",
];

let serve: ChildProcess | undefined;
let output: string | undefined;
let results = new Map<string, ConformanceCheck[]>();
let listed: string[] = [];
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
    // One invocation runs every scenario in turn against the one server (about 2 s).
    const run = await runConformance(["server", "--url", url, "--suite", "all", "-o", dir], { timeoutMs: 60_000 });
    log = run.stdout + run.stderr;
    results = await readResults(dir, "server");
  }, 90_000);

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

  it("sorts every scenario of the suite into passing, known failing or not applicable, each once", () => {
    const sorted = [...PASSING, ...Object.keys(KNOWN_FAILING), ...Object.keys(NOT_APPLICABLE)];
    expect(new Set(sorted).size, "a scenario sits in two lists").toBe(sorted.length);
    // A newer suite's new scenario shows up here: put it in one of the lists.
    expect([...sorted].sort()).toEqual([...listed].sort());
  });

  it("ran every scenario of the suite", () => {
    expect([...results.keys()].sort(), log).toEqual([...listed].sort());
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
