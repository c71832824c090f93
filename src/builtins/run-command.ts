// Runs one `bash` command to its end, timeout or abort, and makes sure no process it started outlives the call.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { accessSync, constants } from "node:fs";
import type { Readable } from "node:stream";
import { ToolCallError } from "../core/errors.js";
import type { ToolResult } from "../core/types.js";
import type { CgroupStub } from "../sandbox/cgroup-stub.js";
import type { SandboxLaunch } from "../sandbox/prepare-sandbox-launch.js";
import { toolError } from "./builtin-context.js";
import {
  CALL_MARKER_VARIABLE,
  findMarkedProcesses,
  killMarkedProcesses,
  signalMarkedProcesses,
} from "./marked-processes.js";
import { OutputTail } from "./output-tail.js";
import { detectPidNamespace, findNamespaceInit, PID_NAMESPACE_INIT, SANDBOX_INIT } from "./pid-namespace.js";
import { isGroupAlive, waitForGroupExit } from "./process-group.js";

/** How often, at most, the output so far streams through `onOutput`. */
const UPDATE_INTERVAL_MS = 100;
/** How long to wait for the output pipes to close once the processes are gone. */
const PIPE_CLOSE_WAIT_MS = 2_000;
/** How long to wait for the namespace to empty after SIGKILL reached its PID 1. */
const KILL_WAIT_MS = 5_000;
/** Set to `process-group` in this process's environment to never use a PID namespace. */
export const CONTAINMENT_VARIABLE = "TOOLWIRE_BASH_CONTAINMENT";

/**
 * How a call kept track of what the command started: `pid-namespace` (every process, whatever it
 * does, is in the call's PID namespace and ends with it) or `process-group` (the command's process
 * group and the processes that kept its marker variable; see docs/builtins.md for what that misses).
 */
export type BashContainment = "pid-namespace" | "process-group";

/** What one command is and how it may run. */
interface RunOptions {
  readonly shell: string;
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal: AbortSignal;
  readonly onOutput: (partial: ToolResult) => void;
  /** Run inside bubblewrap as this launch says (see `prepareSandboxLaunch`); the caller releases it. */
  readonly sandbox?: SandboxLaunch;
}

/** How a command ended, and what is known about the processes it started. */
export interface RunOutcome {
  readonly output: OutputTail;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stoppedBy: "timeout" | "aborted" | undefined;
  /** Processes other than the shell were still running when it ended, and were stopped. */
  readonly strays: boolean;
  readonly containment: BashContainment;
  /** Every process the command started is known to have ended (only a PID namespace can know that). */
  readonly allEnded: boolean;
  /** The output pipes were still open after every tracked process had ended: an untracked process holds them. */
  readonly pipesHeld: boolean;
}

/**
 * Runs `shell -c command`. With `sandbox`, inside bubblewrap (always a PID namespace); else in a PID
 * namespace when this machine allows one (see `detectPidNamespace`, and `TOOLWIRE_BASH_CONTAINMENT=process-group`
 * to opt out), else in its own process group with a marker variable. On timeout or abort everything gets
 * SIGTERM, then SIGKILL after the grace period; when the shell exits, what it left running is ended the same
 * way. Throws `execution-failed` when the shell cannot be started or the sandbox cannot start (the message
 * names `sandbox-failed` and what bwrap said), `aborted` when the call was aborted before it started; never
 * rejects otherwise.
 */
export async function runCommand(options: RunOptions): Promise<RunOutcome> {
  if (options.shell.includes("/")) {
    try {
      accessSync(options.shell, constants.X_OK);
    } catch (error) {
      throw toolError("bash", `Could not start ${options.shell}: ${(error as Error).message}`);
    }
  }
  if (options.sandbox !== undefined) return runInSandbox(options, options.sandbox);
  const launcher = process.env[CONTAINMENT_VARIABLE] === "process-group" ? undefined : await detectPidNamespace();
  // An abort while waiting for the probe fired before any listener could hear it.
  if (options.signal.aborted) {
    throw new ToolCallError("aborted", "bash", "The command was not started: the call was aborted.");
  }
  if (launcher !== undefined) {
    const outcome = await runInNamespace(options, {
      file: launcher.unshare,
      args: [
        ...launcher.flags,
        "--",
        launcher.initShell,
        "-c",
        `echo started >&3\n${PID_NAMESPACE_INIT}`,
        "toolwire-bash",
        options.command,
        options.shell,
      ],
      env: options.env,
      signalsGroup: true,
    });
    // unshare can still fail per call (a namespace limit reached); the command did not start, so run it without.
    if (outcome.kind === "not-started") return runInProcessGroup(options);
    return outcome.outcome;
  }
  return runInProcessGroup(options);
}

async function runInSandbox(options: RunOptions, launch: SandboxLaunch): Promise<RunOutcome> {
  if (options.signal.aborted) {
    throw new ToolCallError("aborted", "bash", "The command was not started: the call was aborted.");
  }
  const line = launch.commandLine([
    launch.initShell,
    "-c",
    `echo started >&3\n${SANDBOX_INIT}`,
    "toolwire-bash",
    options.command,
    options.shell,
    launch.rlimit === undefined ? "" : String(launch.rlimit),
    ...(launch.bridge ?? []),
  ]);
  const outcome = await runInNamespace(options, {
    ...line,
    env: { ...options.env, ...launch.env },
    // bwrap's PID 1 leads its own session (--new-session): signals go to it, not to bwrap's group.
    signalsGroup: false,
    ...(launch.stub === undefined ? {} : { stub: launch.stub }),
  });
  if (outcome.kind === "not-started") {
    const said = outcome.stderr.trim();
    throw toolError(
      "bash",
      `The command was not run: the sandbox could not start (sandbox-failed)${said === "" ? "" : `: ${said}`}. bubblewrap worked when toolwire checked it at start-up; check the sandbox's paths (writable, readOnly, denyRead) and that this machine still allows user namespaces.`,
    );
  }
  if (outcome.report.includes("bridge-failed")) {
    const said = outcome.stderr.trim();
    throw toolError(
      "bash",
      `The command was not run: the sandbox's network bridge did not start (sandbox-failed)${said === "" ? "" : `: ${said}`}.`,
    );
  }
  return outcome.outcome;
}

/** How to start the init script in a new PID namespace: the launcher binary and its whole command line. */
interface NamespaceStart {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** SIGTERM goes to the launcher's process group (unshare: PID 1 is in it), else to PID 1 alone. */
  readonly signalsGroup: boolean;
  /** A process already waiting in its cgroup that becomes the launcher, instead of spawning one. */
  readonly stub?: CgroupStub;
}

type NamespaceRun =
  | { kind: "ran"; outcome: RunOutcome; report: string; stderr: string }
  | { kind: "not-started"; stderr: string };

/** The most of the launcher's stderr kept for a message about why it failed. */
const STDERR_KEPT_CHARS = 2_000;

async function runInNamespace(options: RunOptions, launch: NamespaceStart): Promise<NamespaceRun> {
  const child =
    launch.stub === undefined
      ? start(launch.file, launch.args, options, launch.env, ["ignore", "pipe", "pipe", "pipe", "pipe"])
      : launch.stub.exec(launch.file, launch.args, launch.env);
  let report = "";
  (child.stdio[3] as Readable | null)?.on("data", (chunk: Buffer) => {
    report += chunk.toString("utf8");
  });
  // The launcher's own messages and the init script's job notices: not the command's output, kept for errors.
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < STDERR_KEPT_CHARS) stderr += chunk.toString("utf8").slice(0, STDERR_KEPT_CHARS - stderr.length);
  });
  const run = await watch(child, options, [child.stdout]);
  if (run.kind === "error") throw toolError("bash", `Could not start ${launch.file}: ${run.error.message}`);
  const launcherPid = child.pid as number;
  let exit = run.kind === "exit" ? run.exit : undefined;
  let allEnded = true;
  let killedInit = false;
  if (run.kind === "stop") {
    if (launch.signalsGroup) signalQuietly(-launcherPid, "SIGTERM");
    else {
      const init = findNamespaceInit(launcherPid);
      // Before PID 1 exists, ending the launcher ends everything (--die-with-parent).
      if (init === undefined || !signalQuietly(init, "SIGTERM")) signalQuietly(launcherPid, "SIGKILL");
    }
    exit = await withDeadline(run.exited, options.killGraceMs);
    if (exit === undefined) {
      const init = findNamespaceInit(launcherPid);
      // Without PID 1 yet (or any more) only the launcher is left, and it takes the namespace with it.
      killedInit = init !== undefined && signalQuietly(init, "SIGKILL");
      if (!killedInit) signalQuietly(-launcherPid, "SIGKILL");
      exit = await withDeadline(run.exited, KILL_WAIT_MS);
      if (exit === undefined) {
        signalQuietly(-launcherPid, "SIGKILL");
        allEnded = false;
      }
    }
  }
  // The launcher has exited, so its PID 1 has, and the kernel ends a namespace's processes before its PID 1's exit
  // completes.
  const pipesHeld = (await withDeadline(run.closed, PIPE_CLOSE_WAIT_MS)) === undefined;
  run.finish();
  if (!report.startsWith("started") && run.kind === "exit") return { kind: "not-started", stderr };
  return {
    kind: "ran",
    report,
    stderr,
    outcome: {
      output: run.output,
      exitCode: killedInit ? null : (exit?.code ?? null),
      signal: killedInit ? "SIGKILL" : (exit?.signal ?? null),
      stoppedBy: run.kind === "stop" ? run.cause : undefined,
      strays: report.includes("strays"),
      containment: "pid-namespace",
      allEnded: allEnded && !pipesHeld,
      pipesHeld,
    },
  };
}

async function runInProcessGroup(options: RunOptions): Promise<RunOutcome> {
  const marker = randomUUID();
  const env = { ...options.env, [CALL_MARKER_VARIABLE]: marker };
  const child = start(options.shell, ["-c", options.command], options, env, ["ignore", "pipe", "pipe"]);
  const run = await watch(child, options, [child.stdout, child.stderr]);
  if (run.kind === "error") throw toolError("bash", `Could not start ${options.shell}: ${run.error.message}`);
  const groupId = child.pid as number;
  let strays = false;
  if (run.kind === "stop") {
    await endTracked(groupId, marker, options.killGraceMs);
  } else if (isGroupAlive(groupId) || findMarkedProcesses(marker).length > 0) {
    strays = true;
    await endTracked(groupId, marker, options.killGraceMs);
  }
  // A process that left the group and cleared its environment may still hold the pipes.
  const pipesHeld = (await withDeadline(run.closed, PIPE_CLOSE_WAIT_MS)) === undefined;
  run.finish();
  const exit = run.kind === "exit" ? run.exit : await withDeadline(run.exited, PIPE_CLOSE_WAIT_MS);
  return {
    output: run.output,
    exitCode: exit?.code ?? null,
    signal: exit?.signal ?? null,
    stoppedBy: run.kind === "stop" ? run.cause : undefined,
    strays,
    containment: "process-group",
    allEnded: false,
    pipesHeld,
  };
}

/** SIGTERM to the group and the marked processes, the grace period, then SIGKILL to what is left. Never throws. */
async function endTracked(groupId: number, marker: string, graceMs: number): Promise<void> {
  signalQuietly(-groupId, "SIGTERM");
  signalMarkedProcesses(marker, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && (isGroupAlive(groupId) || findMarkedProcesses(marker).length > 0)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  signalQuietly(-groupId, "SIGKILL");
  await killMarkedProcesses(marker);
  try {
    await waitForGroupExit(groupId, 2000);
  } catch {
    // Nothing more can be done from here.
  }
}

type Exit = { code: number | null; signal: string | null };

interface Watched {
  readonly output: OutputTail;
  readonly exited: Promise<Exit>;
  /** All of the child's pipes closed (never false: a promise to race against a deadline). */
  readonly closed: Promise<true>;
  /** Stops the updates and drops the pipes; call once the processes are gone. */
  finish(): void;
}

type WatchResult =
  | (Watched & { kind: "exit"; exit: Exit })
  | (Watched & { kind: "stop"; cause: "timeout" | "aborted" })
  | { kind: "error"; error: Error };

function start(
  file: string,
  args: readonly string[],
  options: RunOptions,
  env: Readonly<Record<string, string>>,
  stdio: ("ignore" | "pipe")[],
): ChildProcess {
  try {
    // detached: the child leads a new process group, so one kill(-pid) reaches everything that stayed in it.
    return spawn(file, args, { cwd: options.cwd, env, detached: true, stdio });
  } catch (error) {
    throw toolError("bash", `Could not start ${file}: ${(error as Error).message}`);
  }
}

/** Streams the output and waits for the first of: the child's exit, the timeout, the abort, a start failure. */
async function watch(child: ChildProcess, options: RunOptions, streams: (Readable | null)[]): Promise<WatchResult> {
  const output = new OutputTail();
  const closed = new Promise<true>((resolve) => child.once("close", () => resolve(true)));
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  // Kept for the child's whole life: an 'error' event without a listener would crash the host.
  const failed = new Promise<Error>((resolve) => child.on("error", resolve));

  let lastUpdate = 0;
  let updateTimer: NodeJS.Timeout | undefined;
  const sendUpdate = () => {
    updateTimer = undefined;
    lastUpdate = performance.now();
    try {
      options.onOutput({ content: [{ type: "text", text: output.render().text }] });
    } catch {
      // A listener's fault must not crash the host from inside a stream handler; the final result still comes.
    }
  };
  const onData = (chunk: Buffer) => {
    output.push(chunk);
    if (updateTimer !== undefined) return;
    const wait = UPDATE_INTERVAL_MS - (performance.now() - lastUpdate);
    if (wait <= 0) sendUpdate();
    else updateTimer = setTimeout(sendUpdate, wait);
  };
  for (const stream of streams) stream?.on("data", onData);

  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<"timeout" | "aborted">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
    onAbort = () => resolve("aborted");
    options.signal.addEventListener("abort", onAbort, { once: true });
  });
  const first = await Promise.race([
    exited.then((exit) => ({ kind: "exit" as const, exit })),
    stopped.then((cause) => ({ kind: "stop" as const, cause })),
    failed.then((error) => ({ kind: "error" as const, error })),
  ]);
  clearTimeout(timer);
  if (onAbort !== undefined) options.signal.removeEventListener("abort", onAbort);
  const finish = () => {
    for (const stream of child.stdio) stream?.destroy();
    if (updateTimer !== undefined) clearTimeout(updateTimer);
  };
  if (first.kind === "error") {
    finish();
    return first;
  }
  return { ...first, output, exited, closed, finish };
}

/** Sends a signal to a pid (negative: a group); false when there was nothing to signal. Never throws. */
function signalQuietly(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The promise's value, or `undefined` once `ms` passed first. */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
