#!/usr/bin/env node
// The `toolwire` command: demo, plan, explain, call, run, serve, inspect, worker and auth, all reading
// toolwire.config.json.
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { Command, CommanderError, Option } from "commander";
import { describeThrown } from "../core/errors.js";
import type { ApprovalOptions } from "../core/types.js";
import type { Inspector } from "../inspector/create-inspector.js";
import { approveAhead, parseApprovePatterns } from "./approve-ahead.js";
import { askOnTerminal } from "./ask-on-terminal.js";
import { CliError, EXIT_CONFIG, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "./exit-codes.js";
import { jsonError, versioned } from "./json-output.js";
import { createOutput, type Output, paint } from "./output.js";

// The commands, the config loader and the providers are imported when a command runs, not at start:
// `--help` and usage errors then answer in about a third of the time.

interface GlobalOptions {
  config?: string;
  json?: boolean;
  color?: boolean;
}

const version = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

/** Aborts when the output pipe closes (`toolwire demo | head`): the work stops and cleans up, as on Ctrl-C. */
const outputClosed = new AbortController();

/**
 * An abort signal tied to Ctrl-C and to the output pipe closing: the first Ctrl-C stops the work cleanly, a second
 * one exits at once.
 */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once("SIGINT", () => {
    controller.abort(new Error("interrupted (Ctrl-C)"));
    process.once("SIGINT", () => process.exit(130));
  });
  return AbortSignal.any([controller.signal, outputClosed.signal]);
}

/** Builds the program; `run(argv)` below parses and maps every failure to an exit code. */
export function buildProgram(output: () => Output, setExit: (code: number) => void): Command {
  const program = new Command("toolwire")
    .description("The tool system of an AI agent: see which tools a model gets and why, call them, run an agent.")
    .version(version)
    .option("-c, --config <file>", "config file (default: ./toolwire.config.json if present)")
    .option("--json", "machine-readable output")
    .option("--no-color", "no colour, even on a terminal")
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      "after",
      `
Exit codes:
  0  done (a run completed, a tool call succeeded, the tool is available)
  1  the work failed (a tool error, a run that did not complete, an unavailable tool)
  2  usage (an unknown command or option, a bad model spec, no model)
  3  config (the file is not a regular file, too large, not JSON or invalid, the file
     named by --config is missing, or the workspace folder does not exist)

Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_MODEL    run uses anthropic:$ANTHROPIC_MODEL when the key is set
  OPENAI_API_KEY, OPENAI_BASE_URL,      otherwise openai:$OPENAI_MODEL (default gpt-4.1) when
  OPENAI_MODEL                          either is set; OPENAI_BASE_URL names a local server
  TOOLWIRE_MODEL                        the model spec for run, like --model
  TOOLWIRE_OAUTH_DIR                    where MCP OAuth tokens are kept (default
                                        $XDG_CONFIG_HOME/toolwire/oauth or ~/.config/toolwire/oauth)
  TOOLWIRE_NO_BROWSER                   print MCP login URLs, never open a browser
  NO_COLOR, FORCE_COLOR                 colour off, or on even when piped`,
    )
    // One line and a hint, not the whole help: the error stays on the screen. Commander suggests a close command.
    .showHelpAfterError("(toolwire --help lists the commands; toolwire <command> --help, its options)")
    .showSuggestionAfterError(true)
    .exitOverride();

  const globals = () => program.opts<GlobalOptions>();
  const warn = (message: string) => output().error(paint(output(), "yellow", `toolwire: ${message}`));
  /** The config's runtime; `remoteExecutors: false` runs every tool here (a worker), `approver` answers approvals. */
  const open = async (
    options: {
      readonly connectMcp?: boolean;
      readonly remoteExecutors?: boolean;
      readonly approver?: ApprovalOptions["approver"] | undefined;
    } = {},
  ) => {
    const { connectMcp = true, remoteExecutors = true, approver } = options;
    const { createAuthorizationUrlShower } = await import("./show-authorization-url.js");
    const shower = createAuthorizationUrlShower({
      write: (text) => process.stderr.write(text),
      interactive: process.stderr.isTTY === true,
    });
    try {
      return await (await import("./runtime.js")).openRuntime({
        cwd: process.cwd(),
        ...(globals().config === undefined ? {} : { configPath: globals().config }),
        connectMcp,
        remoteExecutors,
        progress: (label, work) => output().progress(label, work),
        warn,
        onAuthorizationUrl: shower.show,
        ...(approver === undefined ? {} : { approver }),
      });
    } finally {
      shower.release();
    }
  };

  program
    .command("demo")
    .description("a scripted agent fixes a bug in a copy of a sample workspace with the built-in tools (npm start)")
    .option("--keep", "keep the temporary workspace")
    .action(async (options: { keep?: boolean }) => {
      const { runDemo } = await import("./commands/run-demo.js");
      setExit(
        await runDemo(output(), {
          json: globals().json === true,
          keep: options.keep === true,
          signal: interruptSignal(),
        }),
      );
    });

  program
    .command("plan")
    .description("the visible tools, the hidden ones with why, and what policy removed")
    .action(async () => {
      const { planAsJson, printPlan } = await import("./commands/print-plan.js");
      const runtime = await open();
      try {
        if (globals().json === true) output().line(JSON.stringify(versioned(planAsJson(runtime)), null, 2));
        else printPlan(runtime, output());
      } finally {
        await runtime.close();
      }
    });

  program
    .command("explain")
    .description("why a tool is available or not (exit 1 when it is not)")
    .argument("<tool>", "tool name")
    .action(async (tool: string) => {
      const { runExplain } = await import("./commands/run-explain.js");
      const runtime = await open();
      try {
        setExit(runExplain(runtime, output(), { tool, json: globals().json === true }));
      } finally {
        await runtime.close();
      }
    });

  program
    .command("call")
    .description("call one tool as a model would; exit 1 when the result is an error")
    .argument("<tool>", "tool name")
    .argument("[json]", 'input as JSON text, e.g. \'{"path":"README.md"}\' (default {})')
    .action(async (tool: string, input: string | undefined) => {
      const { runCall } = await import("./commands/run-call.js");
      const runtime = await open();
      try {
        setExit(
          await runCall(runtime, output(), { tool, input, json: globals().json === true, signal: interruptSignal() }),
        );
      } finally {
        await runtime.close();
      }
    });

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
    .option("--max-turns <n>", "most model turns", (value) => {
      const turns = Number(value);
      if (!Number.isInteger(turns) || turns < 1)
        throw new CliError(EXIT_USAGE, `--max-turns must be a positive integer, got ${value}`);
      return turns;
    })
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
  toolwire run --model openai:llama3.1 --base-url http://127.0.0.1:11434/v1 "what does src/cart.js do?"`,
    )
    .action(
      async (
        words: string[],
        options: {
          model?: string;
          baseUrl?: string;
          maxTurns?: number;
          keep?: boolean;
          approve?: string[];
          stream?: boolean;
          toolsInSystemPrompt?: boolean;
          nativeToolSearch?: boolean;
          inspect?: boolean;
          inspectPort?: number;
        },
      ) => {
        const { createModelFromSpec } = await import("../providers/clients/model-from-spec.js");
        const { copyDemoWorkspace, DEMO_PROMPT } = await import("./commands/run-demo.js");
        const { runAgentInTerminal } = await import("./commands/run-agent-in-terminal.js");
        const { openRuntime } = await import("./runtime.js");
        const spec = options.model ?? defaultModelSpec(process.env);
        // OPENAI_BASE_URL is for openai: models only; an anthropic: model keeps its SDK's own setting.
        const baseURL = spec.startsWith("openai")
          ? (options.baseUrl ?? process.env.OPENAI_BASE_URL)
          : spec.startsWith("gemini:")
            ? options.baseUrl
            : undefined;
        // Streamed on a terminal; piped output and --json stay as they were unless --stream asks.
        const stream = options.stream ?? (process.stdout.isTTY === true && globals().json !== true);
        const model = createModelFromSpec(spec, {
          stream,
          ...(baseURL === undefined ? {} : { baseURL }),
          ...(options.nativeToolSearch === true ? { nativeToolSearch: true } : {}),
        });
        const prompt = words.join(" ").trim();
        const demo = prompt === "";
        const inspecting = options.inspect === true || options.inspectPort !== undefined;
        const workspace = demo ? await copyDemoWorkspace() : undefined;
        let inspector: Inspector | undefined;
        try {
          if (inspecting) {
            const { startInspector } = await import("./start-inspector.js");
            inspector = await startInspector(output(), {
              title: `toolwire run: ${demo ? "the demo task" : prompt}`.slice(0, 200),
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
                ? approveAhead(patterns, (await import("./start-inspector.js")).announcedOnStderr(output(), inspector))
                : (await import("./first-answer.js")).firstAnswer([terminal, inspector.approver]);
          const runtime = await openRuntime({
            cwd: workspace ?? process.cwd(),
            ...(demo || globals().config === undefined ? {} : { configPath: globals().config }),
            progress: (label, work) => output().progress(label, work),
            warn,
            approver,
            // The demo task under the inspector asks, as `toolwire demo` does, before each edit: something to approve.
            ...(demo && inspector !== undefined ? { approvals: { require: ["edit"] } } : {}),
            systemPrompt: "You are a careful coding agent. Work in the workspace with the tools you have; be brief.",
          });
          try {
            if (!globals().json)
              output().line(paint(output(), "dim", `model ${spec}, workspace ${runtime.built.workspaceRoot}`));
            const watch = inspector?.watch(runtime.session, { label: demo ? "demo" : "run" });
            const signal = interruptSignal();
            setExit(
              await runAgentInTerminal(runtime, model, output(), {
                prompt: demo ? DEMO_PROMPT : prompt,
                json: globals().json === true,
                signal,
                streamText: stream,
                toolsInSystemPrompt: options.toolsInSystemPrompt === true,
                ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
                ...(watch === undefined ? {} : { onEvent: watch.record }),
              }),
            );
            // The page stays for a person to look at the run, unless Ctrl-C stopped it.
            if (inspector !== undefined && !signal.aborted) {
              const { waitForStopSignal } = await import("./start-inspector.js");
              output().error(`inspector: the run ended; the page stays open at ${inspector.url} until Ctrl-C`);
              await waitForStopSignal();
            }
          } finally {
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
      },
    );

  program
    .command("auth")
    .description("log in to an MCP server of the config ahead of time (its auth), or forget its tokens")
    .argument("<server-id>", "the id of an HTTP server in mcpServers with an auth")
    .option("--logout", "delete the stored tokens and registration of the server")
    .action(async (serverId: string, options: { logout?: boolean }) => {
      const { runAuth } = await import("./commands/run-auth.js");
      const { createAuthorizationUrlShower } = await import("./show-authorization-url.js");
      const shower = createAuthorizationUrlShower({
        write: (text) => process.stderr.write(text),
        interactive: process.stderr.isTTY === true,
      });
      const runtime = await open({ connectMcp: false });
      try {
        setExit(await runAuth(runtime, output(), { serverId, logout: options.logout === true, show: shower.show }));
      } finally {
        shower.release();
        await runtime.close();
      }
    });

  program
    .command("serve")
    .description("serve the active tools as an MCP server (stdio by default; loopback HTTP with --http)")
    .option("--stdio", "serve over stdin/stdout (the default)")
    .option("--http <port>", "serve Streamable HTTP on this port (0: any free port)", (value) => {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new CliError(EXIT_USAGE, `--http needs a port number, got ${value}`);
      return port;
    })
    .option("--host <host>", "host to bind for --http", "127.0.0.1")
    .option("--no-auth", "with --http on a loopback host: ask clients for no credential")
    .option(
      "--inspect",
      "serve a local web page of the sessions' plans and calls (the URL goes to stderr); it answers approvals the MCP client cannot",
    )
    .option(
      "--inspect-port <port>",
      "the inspector's loopback port (default: any free port)",
      portOption("--inspect-port"),
    )
    .action(
      async (options: {
        stdio?: boolean;
        http?: number;
        host: string;
        auth: boolean;
        inspect?: boolean;
        inspectPort?: number;
      }) => {
        if (options.stdio === true && options.http !== undefined)
          throw new CliError(EXIT_USAGE, "choose --stdio or --http, not both");
        const { runServe, checkServeAuthFlag } = await import("./commands/run-serve.js");
        // Refused before the config loads and any MCP server starts.
        checkServeAuthFlag({ host: options.host, auth: options.auth });
        let inspector: Inspector | undefined;
        if (options.inspect === true || options.inspectPort !== undefined) {
          const { startInspector } = await import("./start-inspector.js");
          inspector = await startInspector(output(), {
            title: "toolwire serve",
            ...(options.inspectPort === undefined ? {} : { port: options.inspectPort }),
          });
        }
        try {
          const runtime = await open({ approver: inspector?.approver });
          try {
            setExit(
              await runServe(runtime, output(), {
                ...(options.http === undefined ? {} : { http: options.http }),
                host: options.host,
                auth: options.auth,
                ...(inspector === undefined ? {} : { inspector }),
              }),
            );
          } finally {
            await runtime.close();
          }
        } finally {
          await inspector?.close();
        }
      },
    );

  program
    .command("inspect")
    .description(
      "serve a local web page of the config's plan, kept live, where you can call tools by hand (until Ctrl-C)",
    )
    .option("--port <port>", "the loopback port (default: any free port)", portOption("--port"))
    .action(async (options: { port?: number }) => {
      const { startInspector, waitForStopSignal } = await import("./start-inspector.js");
      const inspector = await startInspector(output(), {
        title: "toolwire inspect",
        allowToolCalls: true,
        ...(options.port === undefined ? {} : { port: options.port }),
      });
      try {
        const runtime = await open({ approver: inspector.approver });
        try {
          inspector.watch(runtime.session, { label: runtime.fromFile ? runtime.loaded.file : "defaults" });
          output().error("inspector: the page follows the config's session; Ctrl-C ends it");
          await waitForStopSignal();
        } finally {
          await runtime.close();
        }
      } finally {
        await inspector.close();
      }
    });

  program
    .command("worker")
    .description("run the calls of a remote executor of the config (BullMQ on Redis) here, until SIGINT or SIGTERM")
    .requiredOption("--executor <id>", "the id of an entry of the config's executors")
    .option("--concurrency <n>", "how many calls to run at once (default 1)", (value) => {
      const concurrency = Number(value);
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new CliError(EXIT_USAGE, `--concurrency must be a positive integer, got ${value}`);
      return concurrency;
    })
    .addHelpText(
      "after",
      `
The first SIGINT or SIGTERM stops taking calls and lets the running ones finish; a second stops them too (their
jobs go back to the queue for another worker). See docs/workers.md.`,
    )
    .action(async (options: { executor: string; concurrency?: number }) => {
      const { runWorker } = await import("./commands/run-worker.js");
      const stop = new AbortController();
      const force = new AbortController();
      const onSignal = () => (stop.signal.aborted ? force.abort() : stop.abort());
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      const runtime = await open({ remoteExecutors: false });
      try {
        setExit(
          await runWorker(runtime, output(), {
            executor: options.executor,
            ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
            json: globals().json === true,
            signal: stop.signal,
            force: force.signal,
          }),
        );
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
        await runtime.close();
      }
    });

  return program;
}

/** Parses a port option (0 to 65535; 0 is any free port). */
function portOption(flag: string): (value: string) => number {
  return (value) => {
    const port = Number(value);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new CliError(EXIT_USAGE, `${flag} needs a port number, got ${value}`);
    return port;
  };
}

/** The Anthropic model `run` uses when only `ANTHROPIC_API_KEY` is set: one the pinned SDK does not mark deprecated. */
export const DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5";

/** The model `run` uses without `--model`: from the keys in the environment. */
export function defaultModelSpec(env: NodeJS.ProcessEnv): string {
  if (env.ANTHROPIC_API_KEY) return `anthropic:${env.ANTHROPIC_MODEL ?? DEFAULT_ANTHROPIC_MODEL}`;
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) return `openai:${env.OPENAI_MODEL ?? "gpt-4.1"}`;
  throw new CliError(
    EXIT_USAGE,
    "No model: pass --model scripted:FILE | anthropic:MODEL | openai:MODEL, or set ANTHROPIC_API_KEY or OPENAI_API_KEY (and OPENAI_BASE_URL for a local server).",
  );
}

/** Parses argv, runs the command, and returns the exit code. Never throws. */
export async function run(argv: readonly string[]): Promise<number> {
  let exitCode = EXIT_OK;
  let output: Output | undefined;
  const program = buildProgram(
    () => {
      output ??= createOutput({ color: program.opts<GlobalOptions>().color !== false });
      return output;
    },
    (code) => {
      exitCode = code;
    },
  );
  const out = () => output ?? createOutput({ color: false });
  // With --json a program reads stdout: a failure is a JSON line there too (the message for people stays on stderr).
  const json = () => argv.includes("--json") || program.opts<GlobalOptions>().json === true;
  const fail = (exitCode: number, code: string, message: string): number => {
    out().error(paint(out(), "red", `toolwire: ${message}`));
    if (json()) out().line(jsonError(exitCode, code, message));
    return exitCode;
  };
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0) {
        return EXIT_OK;
      }
      // Commander has printed its message already.
      if (json()) out().line(jsonError(EXIT_USAGE, "usage", error.message.replace(/^error: /, "")));
      return EXIT_USAGE;
    }
    const { ConfigError } = await import("../config/load-config.js");
    const { ModelError } = await import("../providers/errors.js");
    // The message already names the file and every issue (with line and column for bad JSON).
    if (error instanceof ConfigError) return fail(EXIT_CONFIG, error.code, error.message);
    if (error instanceof CliError)
      return fail(error.exitCode, error.exitCode === EXIT_USAGE ? "usage" : "cli-error", error.message);
    if (error instanceof ModelError && error.code === "invalid-model-spec")
      return fail(EXIT_USAGE, error.code, error.message);
    const code = (error as { code?: unknown } | null)?.code;
    return fail(EXIT_FAILED, typeof code === "string" ? code : "failed", describeThrown(error));
  }
}

// `toolwire demo | head` closes the pipe early: no crash on EPIPE with a stack trace, and no exit on the spot either
// (the demo's temporary workspace and a run's tools would be left behind). The work is aborted, later writes go
// nowhere, and the command ends once it has cleaned up, or after 5 s at the latest.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") throw error;
    if (outputClosed.signal.aborted) return;
    outputClosed.abort(new Error("the output pipe closed"));
    setTimeout(() => process.exit(process.exitCode ?? EXIT_OK), 5_000).unref();
  });
}

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // A tool that ignored its abort signal must not keep the command alive once its result is out.
  setTimeout(() => process.exit(code), 200).unref();
});
