// The `bash` tool: runs a command in the workspace with a timeout and an abort that end its whole process group.
import { spawn } from "node:child_process";
import { ToolCallError } from "../core/errors.js";
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { type BuiltinContext, toolError } from "./builtin-context.js";
import { OutputTail, type RenderedOutput } from "./output-tail.js";
import { endProcessGroup, isGroupAlive } from "./process-group.js";
import { formatSize, MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate.js";

/** `bash`'s timeout when neither the call nor `createBuiltinTools` names one: 120 s. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** The largest `timeoutMs` a call may ask for: 10 minutes. */
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** How long after SIGTERM `bash` sends SIGKILL to what is left of the group. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** How often, at most, `bash` streams its output so far through `onUpdate`. */
const UPDATE_INTERVAL_MS = 100;
/** How long `bash` waits for the output pipes to close once the processes are gone. */
const PIPE_CLOSE_WAIT_MS = 2_000;
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
    name: "bash",
    title: "Run shell command",
    description: [
      "Run a shell command with bash in the workspace root and get its exit code and output (stdout and stderr together).",
      `Output is cut to its last ${MAX_OUTPUT_LINES} lines or ${MAX_OUTPUT_BYTES / 1024} KB; for long output, redirect it to a file and read or grep the file.`,
      `The command has no input (stdin is empty) and is stopped, with every process it started, after timeoutMs (default ${DEFAULT_BASH_TIMEOUT_MS / 1000} s).`,
      "Background processes still running when the command ends are stopped too.",
      "Prefer read, edit, write, ls, grep and find for files.",
    ].join(" "),
    inputSchema,
    annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    executionMode: "sequential",
    // bash enforces its own timeout (the input's, or the default). The tool-level one, which wins over a session's
    // toolTimeoutMs, is only a backstop above the longest it can take, so a session default never cuts it first.
    timeoutMs: Math.max(MAX_BASH_TIMEOUT_MS, context.bashTimeoutMs) + context.killGraceMs + BACKSTOP_MARGIN_MS,
    async execute(input, { signal, onUpdate }): Promise<ToolResult<BashDetails>> {
      if (signal.aborted)
        throw new ToolCallError("aborted", "bash", "The command was not started: the call was aborted.");
      const asked = input.timeoutMs;
      const timeoutMs =
        typeof asked === "number" && asked > 0 ? Math.min(asked, MAX_BASH_TIMEOUT_MS) : context.bashTimeoutMs;
      const started = performance.now();
      const run = await runCommand({
        shell: context.shell,
        command: input.command,
        cwd: workspace.realRoot,
        env: context.env,
        timeoutMs,
        killGraceMs: context.killGraceMs,
        signal,
        onOutput: onUpdate,
      });
      const durationMs = Math.round(performance.now() - started);
      const rendered = run.output.render();
      const truncated = rendered.truncation?.truncated === true || rendered.totalBytes > MAX_OUTPUT_BYTES + 4;
      const details: BashDetails = {
        exitCode: run.exitCode,
        signal: run.signal,
        ...(run.stoppedBy === undefined ? {} : { stoppedBy: run.stoppedBy }),
        strayProcessesEnded: run.strays,
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
          `Command timed out after ${timeoutMs} ms and was stopped, with every process it started.\n\n${body}\n\nIf it needs longer, call bash again with a larger timeoutMs (at most ${MAX_BASH_TIMEOUT_MS}); if it waits for input, give it the input (for example with a pipe or a here-document).`,
        );
      }
      if (run.stoppedBy === "aborted") {
        throw new ToolCallError(
          "aborted",
          "bash",
          `Command was aborted and stopped, with every process it started.\n\n${body}`,
        );
      }
      const notes: string[] = [];
      if (run.strays) notes.push("[Background processes still running when the command ended were stopped.]");
      if (run.exitCode !== 0) {
        notes.push(
          run.exitCode === null
            ? `[Command was killed by signal ${run.signal ?? "unknown"}]`
            : `[Command exited with code ${run.exitCode}]`,
        );
      }
      const text = [body, ...notes].join("\n\n");
      return run.exitCode === 0
        ? { content: [{ type: "text", text }], details }
        : { content: [{ type: "text", text }], details, isError: true };
    },
  });
}

function describeOutput(rendered: RenderedOutput, truncated: boolean): string {
  if (rendered.totalBytes === 0) return "(no output)";
  if (rendered.binary || !truncated || rendered.truncation === undefined) return rendered.text;
  const kept = rendered.truncation;
  return `[Output cut: showing the last ${kept.keptLines} of ${rendered.totalLines} lines (${formatSize(kept.keptBytes)} of ${formatSize(rendered.totalBytes)}). The rest was not kept: run the command again with its output redirected to a file in the workspace (for example \`command > out.log 2>&1\`), then read or grep out.log.]\n${rendered.text}`;
}

interface RunOptions {
  readonly shell: string;
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal: AbortSignal;
  readonly onOutput: (partial: ToolResult) => void;
}

interface RunOutcome {
  readonly output: OutputTail;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stoppedBy: "timeout" | "aborted" | undefined;
  readonly strays: boolean;
}

/**
 * Runs the command in its own process group. On timeout or abort the group gets SIGTERM, then
 * SIGKILL after the grace period. When the shell exits, any process of its group still alive (a
 * background job, perhaps holding the output pipes) is ended the same way, so the call never waits
 * on a process that outlived its command.
 */
async function runCommand(options: RunOptions): Promise<RunOutcome> {
  const output = new OutputTail();
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn(options.shell, ["-c", options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw toolError("bash", `Could not start ${options.shell}: ${(error as Error).message}`);
  }
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
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
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

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

  if (first.kind === "error") {
    if (updateTimer !== undefined) clearTimeout(updateTimer);
    throw toolError("bash", `Could not start ${options.shell}: ${first.error.message}`);
  }
  const groupId = child.pid as number;
  let strays = false;
  if (first.kind === "stop") {
    await endProcessGroup(groupId, options.killGraceMs);
  } else if (isGroupAlive(groupId)) {
    strays = true;
    await endProcessGroup(groupId, options.killGraceMs);
  }
  // Everything in the group is gone; a process that left the group may still hold the pipes.
  await withDeadline(closed, PIPE_CLOSE_WAIT_MS);
  child.stdout?.destroy();
  child.stderr?.destroy();
  if (updateTimer !== undefined) clearTimeout(updateTimer);
  const exit = first.kind === "exit" ? first.exit : await withDeadline(exited, PIPE_CLOSE_WAIT_MS);
  return {
    output,
    exitCode: exit?.code ?? null,
    signal: exit?.signal ?? null,
    stoppedBy: first.kind === "stop" ? first.cause : undefined,
    strays,
  };
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
