// `toolwire run [prompt...]`: the agent loop with a model, on a prompt or on the demo task in a copy of the sample
// workspace, asking for approvals on the terminal, ahead with --approve, or on the inspector's page.
import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { type Command, Option } from "commander";
import type { AgentSession } from "../../core/dispatch/session.js";
import type { Inspector } from "../../inspector/create-inspector.js";
import type { McpConnection } from "../../mcp/client/mcp-connection.js";
import type { RunRecord } from "../../replay/recording.js";
import { approveAhead, parseApprovePatterns } from "../approve-ahead.js";
import { askOnTerminal } from "../ask-on-terminal.js";
import { type CliContext, portOption, positiveIntegerOption } from "../cli-context.js";
import { defaultModelSpec } from "../default-model.js";
import { CliError, EXIT_OK, EXIT_USAGE } from "../exit-codes.js";
import { paint } from "../output.js";

interface RunOptions {
  model?: string;
  baseUrl?: string;
  maxTurns?: number;
  keep?: boolean;
  approve?: string[];
  stream?: boolean;
  toolsInSystemPrompt?: boolean;
  nativeToolSearch?: boolean;
  temperature?: number;
  reasoning?: "low" | "medium" | "high";
  inspect?: boolean;
  inspectPort?: number;
  codeMode?: boolean;
  record?: string;
  replay?: string;
  live?: string[];
  runId?: string;
}

/** Adds `toolwire run [options] [prompt...]`. */
export function registerRun(program: Command, cli: CliContext): void {
  program
    .command("run")
    .description("run the agent loop with a model (default: the demo task in a temporary copy of the sample workspace)")
    .argument("[prompt...]", "what to do (default: the demo task)")
    .addOption(
      new Option(
        "-m, --model <spec>",
        "scripted:FILE | anthropic:MODEL | openai:MODEL | openai-responses:MODEL | gemini:MODEL",
      ).env("TOOLWIRE_MODEL"),
    )
    .option(
      "--base-url <url>",
      "the server of an openai: model (Ollama, vLLM, llama.cpp; default $OPENAI_BASE_URL) or of a gemini: model",
    )
    .option("--stream", "print the model's text as it arrives even when stdout is not a terminal")
    .option("--no-stream", "print each text whole, also on a terminal")
    .option("--tools-in-system-prompt", "also list the active tools in the system prompt")
    .option(
      "--native-tool-search",
      "send deferred tools the provider's own way (anthropic: and openai-responses: models; the model must support it)",
    )
    .option(
      "--temperature <n>",
      "the model's sampling temperature (anthropic: 0 to 1; openai:, gemini: 0 to 2)",
      (value) => {
        const temperature = Number(value);
        if (value.trim() === "" || !Number.isFinite(temperature))
          throw new CliError(EXIT_USAGE, `--temperature must be a number, got ${value}`);
        return temperature;
      },
    )
    .addOption(
      new Option(
        "--reasoning <level>",
        "how hard the model thinks: openai: reasoning effort; anthropic: a thinking budget of 1024, 4096 or 16384 tokens; gemini: a thinking budget of 1024, 8192 or 24576 tokens",
      ).choices(["low", "medium", "high"]),
    )
    .option("--max-turns <n>", "most model turns", positiveIntegerOption("--max-turns"))
    .option(
      "--code-mode",
      "give the model run_code, one program that calls the tools, instead of the tools one by one (the config's codeMode options apply; docs/code-mode.md)",
    )
    .option(
      "--run-id <id>",
      "with the config's journal: the run's id; a run whose journal has entries resumes (default: a new id, printed)",
    )
    .option(
      "--record <file>",
      "write the run (model requests and responses, tool calls and results) to FILE as JSON lines",
    )
    .option(
      "--replay <file>",
      "run a recording again offline: the recorded model and tool results, failing at the first divergence (no --model; the prompt defaults to the recorded one)",
    )
    .option(
      "--live <patterns>",
      "with --replay: run these tools for real instead of answering from the recording (policy patterns, comma-separated)",
      (value: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        ...value
          .split(",")
          .map((pattern) => pattern.trim())
          .filter((pattern) => pattern !== ""),
      ],
    )
    .option("--keep", "keep the temporary copy of the sample workspace (the demo task, without a prompt)")
    .option(
      "--approve <patterns>",
      "approve ahead the calls the config's approvals cover, for these tools (policy patterns, comma-separated, or all)",
      (value: string, previous: string[] | undefined) => parseApprovePatterns(value, previous),
    )
    .option(
      "--inspect",
      "serve a local web page of the run as it happens (the URL goes to stderr); approve calls there; it stays open after the run until Ctrl-C",
    )
    .option(
      "--inspect-port <port>",
      "the inspector's loopback port (default: any free port)",
      portOption("--inspect-port"),
    )
    .addHelpText(
      "after",
      `
Without --model: anthropic:$ANTHROPIC_MODEL if ANTHROPIC_API_KEY is set, else openai:$OPENAI_MODEL (default
gpt-4.1) if OPENAI_API_KEY or OPENAI_BASE_URL is set. gemini: models read GEMINI_API_KEY (or GOOGLE_API_KEY).
On a terminal the model's text streams in; piped or with --json it comes whole (unless --stream).
Exit 0 when the run completed, 1 when it did not.

Examples:
  toolwire run --model scripted:turns.json "read notes.md"
  toolwire run --model scripted:turns.json --record run.jsonl "read notes.md"
  toolwire run --replay run.jsonl
  toolwire run --model openai:llama3.1 --base-url http://127.0.0.1:11434/v1 "what does src/cart.js do?"
  toolwire run --model anthropic:claude-sonnet-4-5 --reasoning medium "find the bug in src/cart.js"`,
    )
    .action((words: string[], options: RunOptions) => runCommand(cli, words, options));
}

/** The run itself: the model, the workspace, the inspector and the approver, then the loop in the terminal. */
async function runCommand(cli: CliContext, words: string[], options: RunOptions): Promise<void> {
  const { createModelFromSpec } = await import("../../providers/clients/model-from-spec.js");
  const { copyDemoWorkspace, DEMO_PROMPT } = await import("./run-demo.js");
  const { runAgentInTerminal } = await import("./run-agent-in-terminal.js");
  const { openRuntime } = await import("../runtime.js");
  const output = cli.output;
  const json = cli.globals().json === true;
  if (options.replay !== undefined && options.model !== undefined) {
    throw new CliError(EXIT_USAGE, "--replay answers with the recorded model: leave out --model");
  }
  if (options.replay !== undefined && options.record !== undefined) {
    throw new CliError(EXIT_USAGE, "--record and --replay do not go together");
  }
  if (options.live !== undefined && options.replay === undefined) {
    throw new CliError(EXIT_USAGE, "--live names tools that run for real during a --replay");
  }
  const replay = options.replay === undefined ? undefined : await openReplay(options.replay);
  const spec = replay === undefined ? (options.model ?? defaultModelSpec(process.env)) : `replay:${options.replay}`;
  // OPENAI_BASE_URL is for openai: models only; an anthropic: model keeps its SDK's own setting.
  const baseURL = spec.startsWith("openai")
    ? (options.baseUrl ?? process.env.OPENAI_BASE_URL)
    : spec.startsWith("gemini:")
      ? options.baseUrl
      : undefined;
  // Streamed on a terminal; piped output and --json stay as they were unless --stream asks.
  const stream = options.stream ?? (process.stdout.isTTY === true && !json);
  const model =
    replay?.model ??
    createModelFromSpec(spec, {
      stream,
      ...(baseURL === undefined ? {} : { baseURL }),
      ...(options.nativeToolSearch === true ? { nativeToolSearch: true } : {}),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.reasoning === undefined ? {} : { reasoning: options.reasoning }),
    });
  // A replay without a prompt runs the recorded one (the demo task in its copy of the sample workspace too).
  const prompt = words.join(" ").trim() || (replay?.prompt ?? "");
  const demo = prompt === "" || (words.length === 0 && prompt === DEMO_PROMPT);
  const inspecting = options.inspect === true || options.inspectPort !== undefined;
  const workspace = demo ? await copyDemoWorkspace() : undefined;
  let inspector: Inspector | undefined;
  let connections: readonly McpConnection[] = [];
  let saveRecording: (() => Promise<void>) | undefined;
  try {
    if (inspecting) {
      const { startInspector } = await import("../start-inspector.js");
      inspector = await startInspector(output(), {
        title: `toolwire run: ${demo ? "the demo task" : prompt}`.slice(0, 200),
        connections: () => connections,
        ...(options.inspectPort === undefined ? {} : { port: options.inspectPort }),
      });
    }
    const patterns = options.approve ?? [];
    const terminal =
      process.stdin.isTTY === true && output().interactive ? askOnTerminal(output(), patterns) : undefined;
    // On a terminal a person is asked; without one, --approve answers ahead and declines the rest. With the
    // inspector, its page is asked too: the first answer, on the terminal or the page, counts.
    const approver =
      inspector === undefined
        ? (terminal ?? approveAhead(patterns))
        : terminal === undefined
          ? approveAhead(patterns, (await import("../start-inspector.js")).announcedOnStderr(output(), inspector))
          : (await import("../first-answer.js")).firstAnswer([terminal, inspector.approver]);
    const configPath = cli.globals().config;
    const runtime = await openRuntime({
      cwd: workspace ?? process.cwd(),
      ...(demo || configPath === undefined ? {} : { configPath }),
      progress: (label, work) => output().progress(label, work),
      warn: cli.warn,
      approver,
      ...(options.codeMode === true ? { codeMode: true } : {}),
      // The demo task under the inspector asks, as `toolwire demo` does, before each edit: something to approve.
      ...(demo && inspector !== undefined ? { approvals: { require: ["edit"] } } : {}),
      systemPrompt: "You are a careful coding agent. Work in the workspace with the tools you have; be brief.",
    });
    connections = runtime.connections;
    const journalSpec = runtime.loaded.config.journal;
    if (options.runId !== undefined && journalSpec === undefined) {
      await runtime.close();
      throw new CliError(
        EXIT_USAGE,
        '--run-id resumes a journaled run: set "journal" in the config (docs/durable-runs.md)',
      );
    }
    const journal =
      journalSpec === undefined
        ? undefined
        : await (await import("../open-journal.js"))
            .openJournal(runtime.loaded, journalSpec, process.env)
            .catch(async (error: unknown) => {
              await runtime.close();
              throw error;
            });
    const runId =
      journal === undefined ? undefined : (options.runId ?? `run-${Date.now()}-${randomBytes(4).toString("hex")}`);
    try {
      if (!json) output().line(paint(output(), "dim", `model ${spec}, workspace ${runtime.built.workspaceRoot}`));
      if (runId !== undefined && !json) {
        output().line(paint(output(), "dim", `run ${runId} (toolwire run --run-id ${runId} resumes it)`));
      }
      const recorder =
        options.record === undefined
          ? undefined
          : (await import("../../replay/create-recorder.js")).createRecorder({ model, session: runtime.session });
      if (recorder !== undefined) saveRecording = () => writeRecording(options.record as string, recorder.records);
      const session = recorder?.session ?? replay?.session(runtime.session, options.live ?? []);
      const watch = inspector?.watch(runtime.session, { label: demo ? "demo" : "run" });
      const signal = cli.interruptSignal();
      const exit = await runAgentInTerminal(runtime, recorder?.model ?? model, output(), {
        ...(journal === undefined || runId === undefined ? {} : { journal, runId }),
        prompt: demo ? DEMO_PROMPT : prompt,
        ...(session === undefined ? {} : { session }),
        json,
        signal,
        streamText: stream,
        toolsInSystemPrompt: options.toolsInSystemPrompt === true,
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
        ...(watch === undefined ? {} : { onEvent: watch.record }),
      });
      cli.setExit(exit);
      if (exit === EXIT_OK && replay !== undefined && replay.model.turnsLeft > 0) {
        const left = replay.model.turnsLeft;
        const { ReplayError } = await import("../../replay/replay-error.js");
        throw new ReplayError(
          "replay-diverged",
          `Replay diverged: the run completed with ${left} recorded model turn${left === 1 ? "" : "s"} not asked for`,
        );
      }
      // The page stays for a person to look at the run, unless Ctrl-C stopped it.
      if (inspector !== undefined && !signal.aborted) {
        const { waitForStopSignal } = await import("../start-inspector.js");
        output().error(`inspector: the run ended; the page stays open at ${inspector.url} until Ctrl-C`);
        await waitForStopSignal();
      }
    } finally {
      await saveRecording?.();
      await journal?.close?.();
      await runtime.close();
    }
  } finally {
    await inspector?.close();
    // The demo task's copy of the sample workspace is temporary, as in `toolwire demo`.
    if (workspace !== undefined) {
      if (options.keep === true) output().line(`The workspace is kept at ${workspace}`);
      else await rm(workspace, { recursive: true, force: true });
    }
  }
}

/** A recording's model, its prompt (the first request's last user message) and a session answering from it. */
async function openReplay(file: string) {
  const { readRecording } = await import("../../replay/recording.js");
  const { createReplayModel } = await import("../../replay/create-replay-model.js");
  const { createReplaySession } = await import("../../replay/create-replay-session.js");
  const records = await readRecording(file);
  const first = records.find((record) => record.kind === "model");
  const prompt = first?.request.messages.findLast((message) => message.role === "user");
  return {
    model: createReplayModel(records),
    prompt: prompt?.role === "user" ? prompt.text : undefined,
    session: (session: AgentSession, live: readonly string[]) => createReplaySession(session, records, { live }),
  };
}

/** Writes the recording, even of a run that failed: what it did until then. */
async function writeRecording(file: string, records: readonly RunRecord[]): Promise<void> {
  const { formatRecording } = await import("../../replay/recording.js");
  await writeFile(file, formatRecording(records));
}
