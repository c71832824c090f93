// `toolwire inspect`: a local web page of the config's plan, kept live, where tools can be called by hand; or of a
// stored run, read from a run journal or a recording.
import { basename } from "node:path";
import type { Command } from "commander";
import type { StoredRun } from "../../inspector/stored-run.js";
import type { McpConnection } from "../../mcp/client/mcp-connection.js";
import { type CliContext, portOption } from "../cli-context.js";
import { CliError, EXIT_FAILED, EXIT_USAGE } from "../exit-codes.js";

interface InspectOptions {
  port?: number;
  journal?: string;
  runId?: string;
  recording?: string;
}

/** The journals `--journal` names: the config's `journal` forms, a file path relative to the current folder. */
const JOURNAL_SPEC = /^(file:.+|postgres:env:[A-Za-z_][A-Za-z0-9_]*)$/;

/** Adds `toolwire inspect [--port <port>] [--journal <spec> --run-id <id> | --recording <file>]`. */
export function registerInspect(program: Command, cli: CliContext): void {
  program
    .command("inspect")
    .description(
      "serve a local web page of the config's plan, kept live, where you can call tools by hand, or of a stored run (until Ctrl-C)",
    )
    .option("--port <port>", "the loopback port (default: any free port)", portOption("--port"))
    .option(
      "--journal <spec>",
      "with --run-id: show a run from this run journal, file:PATH (a folder, relative to here) or postgres:env:NAME; read only",
    )
    .option("--run-id <id>", "with --journal: the run to show")
    .option("--recording <file>", "show the run a recording holds (toolwire run --record FILE); no config is read")
    .addHelpText(
      "after",
      `
Examples:
  toolwire inspect
  toolwire inspect --journal file:runs --run-id order-42
  toolwire inspect --recording run.jsonl`,
    )
    .action(async (options: InspectOptions) => {
      const stored = await readStoredRun(options);
      const { startInspector, waitForStopSignal } = await import("../start-inspector.js");
      if (stored !== undefined) {
        const inspector = await startInspector(cli.output(), {
          title: `toolwire inspect: ${stored.label}`,
          ...(options.port === undefined ? {} : { port: options.port }),
        });
        try {
          inspector.showRun(stored.run, { label: stored.label });
          cli.output().error(`inspector: the page shows ${stored.label} (${stored.run.status}); Ctrl-C ends it`);
          await waitForStopSignal();
        } finally {
          await inspector.close();
        }
        return;
      }
      let connections: readonly McpConnection[] = [];
      const inspector = await startInspector(cli.output(), {
        title: "toolwire inspect",
        allowToolCalls: true,
        connections: () => connections,
        ...(options.port === undefined ? {} : { port: options.port }),
      });
      try {
        const runtime = await cli.open({ approver: inspector.approver });
        connections = runtime.connections;
        try {
          inspector.watch(runtime.session, { label: runtime.fromFile ? runtime.loaded.file : "defaults" });
          cli.output().error("inspector: the page follows the config's session; Ctrl-C ends it");
          await waitForStopSignal();
        } finally {
          await runtime.close();
        }
      } finally {
        await inspector.close();
      }
    });
}

/**
 * The stored run the options name, read before the page starts (so a bad one fails with no page), or `undefined`
 * for the config's session. The journal is only read: the run is not taken from a process that may be running it.
 */
async function readStoredRun(options: InspectOptions): Promise<{ run: StoredRun; label: string } | undefined> {
  const { journal: spec, runId, recording } = options;
  if (recording !== undefined) {
    if (spec !== undefined || runId !== undefined) {
      throw new CliError(EXIT_USAGE, "--recording and --journal (--run-id) do not go together: show one run");
    }
    const { readRecording } = await import("../../replay/recording.js");
    const { buildRecordingRunView } = await import("../../inspector/build-recording-run-view.js");
    return { run: buildRecordingRunView(await readRecording(recording)), label: `recording ${basename(recording)}` };
  }
  if (spec === undefined && runId === undefined) return undefined;
  if (spec === undefined || runId === undefined) {
    throw new CliError(EXIT_USAGE, "--journal and --run-id go together: the journal, and the run in it to show");
  }
  if (!JOURNAL_SPEC.test(spec)) {
    throw new CliError(EXIT_USAGE, `--journal needs file:PATH or postgres:env:NAME, got ${spec}`);
  }
  const variable = spec.startsWith("postgres:env:") ? spec.slice("postgres:env:".length) : undefined;
  if (variable !== undefined && (process.env[variable] ?? "") === "") {
    throw new CliError(EXIT_USAGE, `--journal names ${variable}, which is not set: set it to the connection string`);
  }
  const { openJournal } = await import("../open-journal.js");
  // A file journal's path is relative to the current folder here (the config's is relative to the config).
  const here = { config: {}, file: "--journal", dir: process.cwd() };
  const journal = await openJournal(here, spec, process.env);
  let entries: Awaited<ReturnType<typeof journal.read>>;
  try {
    entries = await journal.read(runId);
  } finally {
    await journal.close?.();
  }
  if (entries.length === 0) {
    throw new CliError(EXIT_FAILED, `The journal ${spec} has no run ${runId}: nothing was journaled under that id`);
  }
  const { buildJournalRunView } = await import("../../inspector/build-journal-run-view.js");
  return { run: buildJournalRunView(entries), label: `run ${runId}` };
}
