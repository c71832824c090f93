// The `bash` tool: runs a command in the workspace with a timeout and an abort that end its whole process group.
import { constants } from "node:os";
import { relative } from "node:path";
import { ToolCallError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolAvailabilityExpression, ToolResult } from "../core/types.js";
import { checkSandboxNow, detectSandbox } from "../sandbox/detect-sandbox.js";
import type { SandboxLaunch } from "../sandbox/prepare-sandbox-launch.js";
import { SandboxError } from "../sandbox/sandbox-error.js";
import type { ResolvedSandbox } from "../sandbox/sandbox-options.js";
import type { BuiltinContext } from "./builtin-context.js";
import type { RenderedOutput } from "./output-tail.js";
import { type BashContainment, type RunOutcome, runCommand } from "./run-command.js";
import { formatSize, MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate.js";

/** `bash`'s timeout when neither the call nor `createBuiltinTools` names one: 120 s. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** The largest `timeoutMs` a call may ask for: 10 minutes. */
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** How long after SIGTERM `bash` sends SIGKILL to what is left of the group. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** What the tool-level timeout adds to the longest run: SIGKILL's own wait, the pipe wait, and slack. */
const BACKSTOP_MARGIN_MS = 10_000;

/** What `bash` reports to programs beside the text. */
export interface BashDetails {
  /** The shell's exit code; `null` when it ended by a signal or was stopped. */
  readonly exitCode: number | null;
  /** The signal that ended the shell, if any. */
  readonly signal: string | null;
  /** Set when the tool stopped the command. */
  readonly stoppedBy?: "timeout" | "aborted";
  /** Processes that outlived the shell (background jobs) were ended. */
  readonly strayProcessesEnded: boolean;
  /**
   * How the call tracked what the command started: `pid-namespace` (everything; nothing outlives the
   * call) or `process-group` (its process group and the processes that kept its environment).
   */
  readonly containment: BashContainment;
  /**
   * Where the command ran: `bubblewrap` (the sandbox of docs/sandbox.md), `off` (`sandbox: "off"`), or
   * `unavailable` (mode `auto` on a machine where bubblewrap is not usable: it ran unsandboxed).
   */
  readonly sandbox: "bubblewrap" | "off" | "unavailable";
  readonly durationMs: number;
  readonly outputBytes: number;
  readonly outputLines: number;
  readonly truncated: boolean;
  readonly binary: boolean;
}

const inputSchema = {
  type: "object",
  properties: {
    command: {
      type: "string",
      minLength: 1,
      description: "The command line, run by bash -c in the workspace root.",
    },
    timeoutMs: {
      type: "integer",
      minimum: 1,
      maximum: MAX_BASH_TIMEOUT_MS,
      description: `Milliseconds before the command and everything it started are stopped. Default ${DEFAULT_BASH_TIMEOUT_MS}, at most ${MAX_BASH_TIMEOUT_MS}.`,
    },
  },
  required: ["command"],
  additionalProperties: false,
} as const;

/** Builds the `bash` tool for one workspace. */
export function createBashTool(context: BuiltinContext): AgentTool {
  const { workspace } = context;
  return defineTool({
    effects: "external",
    name: "bash",
    title: "Run shell command",
    description: [
      "Run a shell command with bash in the workspace root and get its exit code and output (stdout and stderr together).",
      `Output is cut to its last ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB; for long output, redirect it to a file and read or grep the file.`,
      `The command has no input (stdin is empty) and is stopped, with every process it started, after timeoutMs (default ${DEFAULT_BASH_TIMEOUT_MS / 1000} s).`,
      "Background processes still running when the command ends are stopped too.",
      ...describeConfinement(context.sandbox),
      "Prefer read, edit, write, ls, grep and find for files.",
    ].join(" "),
    inputSchema,
    ...(context.sandbox?.mode === "required" ? sandboxOnlyAvailability() : {}),
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    executionMode: "sequential",
    // bash enforces its own timeout (the input's, or the default). The tool-level one, which wins over a session's
    // toolTimeoutMs, is only a backstop above the longest it can take, so a session default never cuts it first.
    timeoutMs: Math.max(MAX_BASH_TIMEOUT_MS, context.bashTimeoutMs) + context.killGraceMs + BACKSTOP_MARGIN_MS,
    async execute(input, call): Promise<ToolResult<BashDetails>> {
      const { signal, onUpdate } = call;
      if (signal.aborted)
        throw new ToolCallError("aborted", "bash", "The command was not started: the call was aborted.");
      const asked = input.timeoutMs;
      const timeoutMs =
        typeof asked === "number" && asked > 0 ? Math.min(asked, MAX_BASH_TIMEOUT_MS) : context.bashTimeoutMs;
      const started = performance.now();
      const { launch, state } = await prepareSandbox(context.sandbox);
      if (launch !== undefined) call.phase?.("sandbox_start", started);
      const run = await runCommand({
        shell: context.shell,
        command: input.command,
        cwd: workspace.realRoot,
        env: context.env,
        timeoutMs,
        killGraceMs: context.killGraceMs,
        signal,
        onOutput: onUpdate,
        ...(launch === undefined ? {} : { sandbox: launch }),
      }).finally(() => launch?.release());
      const durationMs = Math.round(performance.now() - started);
      const rendered = run.output.render();
      const truncated = rendered.truncation?.truncated === true || rendered.totalBytes > MAX_OUTPUT_BYTES + 4;
      const details: BashDetails = {
        exitCode: run.exitCode,
        signal: run.signal,
        ...(run.stoppedBy === undefined ? {} : { stoppedBy: run.stoppedBy }),
        strayProcessesEnded: run.strays,
        containment: run.containment,
        sandbox: state,
        durationMs,
        outputBytes: rendered.totalBytes,
        outputLines: rendered.totalLines,
        truncated,
        binary: rendered.binary,
      };
      const body = describeOutput(rendered, truncated);
      if (run.stoppedBy === "timeout") {
        throw new ToolCallError(
          "timeout",
          "bash",
          `Command timed out after ${timeoutMs} ms and was stopped, ${describeStop(run)}\n\n${body}\n\nIf it needs longer, call bash again with a larger timeoutMs (at most ${MAX_BASH_TIMEOUT_MS}); if it waits for input, give it the input (for example with a pipe or a here-document).`,
        );
      }
      if (run.stoppedBy === "aborted") {
        throw new ToolCallError("aborted", "bash", `Command was aborted and stopped, ${describeStop(run)}\n\n${body}`);
      }
      const notes: string[] = [];
      if (run.strays) {
        notes.push(
          run.containment === "pid-namespace"
            ? "[Background processes still running when the command ended were stopped.]"
            : `[Background processes still running when the command ended were stopped: those of its process group and those that kept its environment. ${UNTRACKED}]`,
        );
      }
      if (run.pipesHeld) notes.push(PIPES_HELD);
      if (run.exitCode !== 0) notes.push(describeExit(run));
      const text = [body, ...notes].join("\n\n");
      return run.exitCode === 0
        ? { content: [{ type: "text", text }], details }
        : { content: [{ type: "text", text }], details, isError: true };
    },
  });
}

/** The launch for one call, or why there is none; throws the call's error when a required sandbox is missing. */
async function prepareSandbox(
  sandbox: ResolvedSandbox | undefined,
): Promise<{ launch: SandboxLaunch | undefined; state: BashDetails["sandbox"] }> {
  if (sandbox === undefined) return { launch: undefined, state: "off" };
  const support = await detectSandbox();
  if (!support.usable) {
    if (sandbox.mode === "required") {
      throw new ToolCallError(
        "execution-failed",
        "bash",
        `The command was not run: the sandbox is required (mode "required") but bubblewrap is not usable here (sandbox-unavailable): ${support.reason}. See docs/sandbox.md.`,
      );
    }
    return { launch: undefined, state: "unavailable" };
  }
  try {
    // The launch (bwrap's arguments, the network proxy, the cgroup) is loaded at the first sandboxed command.
    const { prepareSandboxLaunch } = await import("../sandbox/prepare-sandbox-launch.js");
    return { launch: await prepareSandboxLaunch(sandbox, support, { prestart: true }), state: "bubblewrap" };
  } catch (error) {
    if (error instanceof SandboxError) {
      throw new ToolCallError("execution-failed", "bash", `The command was not run (${error.code}): ${error.message}`);
    }
    throw error;
  }
}

/** What the description tells the model about its confinement (the same for every call of this tool). */
/**
 * The availability of a `bash` that runs only sandboxed (mode `"required"`): none where bubblewrap starts here, so
 * `bash` is visible without the program naming the `sandbox` capability; else the capability, saying why it is
 * missing, so `bash` is hidden with that reason (docs/sandbox.md).
 */
function sandboxOnlyAvailability(): { availability?: ToolAvailabilityExpression } {
  const here = checkSandboxNow();
  if (here.usable) return {};
  const explanation = `bash runs only in a sandbox (sandbox mode "required"), and bubblewrap cannot start one: ${here.reason}`;
  return { availability: { kind: "capability", name: "sandbox", explanation } };
}

function describeConfinement(sandbox: ResolvedSandbox | undefined): string[] {
  if (sandbox === undefined) return [];
  const network =
    sandbox.network.kind === "on"
      ? "The network is reachable."
      : sandbox.network.kind === "off"
        ? "There is no network."
        : `The network is reachable only over HTTP(S) through a proxy (HTTP_PROXY is set) to these hosts: ${sandbox.network.allowHosts.join(", ")}.`;
  const readOnly = sandbox.readOnly.map((path) => relative(sandbox.root, path)).join(", ");
  const where =
    sandbox.mode === "required" ? "It runs in a sandbox:" : "Where this machine allows it, it runs in a sandbox:";
  return [
    `${where} outside the workspace root and /tmp (private to the call) files are read-only${readOnly === "" ? "" : `, and so is ${readOnly} inside it`}; credential folders of the home are hidden. ${network}`,
  ];
}

/** What the fallback cannot see, said wherever a result would otherwise claim too much. */
const UNTRACKED =
  "Processes that left the command's process group and cleared their environment cannot be tracked without a PID namespace and may still be running.";
const PIPES_HELD =
  "[A process the command started still held its output open after everything toolwire could track had ended; it may still be running.]";

/** The end of a timeout or abort message's first sentence: what is known to have been stopped. */
function describeStop(run: RunOutcome): string {
  if (run.allEnded) return "with every process it started.";
  if (run.containment === "pid-namespace") {
    return "but toolwire could not confirm that every process it started has ended: SIGKILL or the output pipes did not finish in time.";
  }
  return `with every process of its process group and every process that kept its environment. ${UNTRACKED}${run.pipesHeld ? ` ${PIPES_HELD}` : ""}`;
}

function describeExit(run: RunOutcome): string {
  if (run.exitCode === null) return `[Command was killed by signal ${run.signal ?? "unknown"}]`;
  // In a PID namespace the shell's status comes through its parent script, where a death by signal N reads as 128 + N.
  const name = run.containment === "pid-namespace" && run.exitCode > 128 ? signalName(run.exitCode - 128) : undefined;
  return name === undefined
    ? `[Command exited with code ${run.exitCode}]`
    : `[Command exited with code ${run.exitCode}: 128 + ${run.exitCode - 128}, probably killed by signal ${name}]`;
}

function signalName(signal: number): string | undefined {
  return Object.entries(constants.signals).find(([, value]) => value === signal)?.[0];
}

function describeOutput(rendered: RenderedOutput, truncated: boolean): string {
  if (rendered.totalBytes === 0) return "(no output)";
  if (rendered.binary || !truncated || rendered.truncation === undefined) return rendered.text;
  const kept = rendered.truncation;
  return `[Output cut: showing the last ${kept.keptLines} of ${rendered.totalLines} lines (${formatSize(kept.keptBytes)} of ${formatSize(rendered.totalBytes)}). The rest was not kept: run the command again with its output redirected to a file in the workspace (for example \`command > out.log 2>&1\`), then read or grep out.log.]\n${rendered.text}`;
}
