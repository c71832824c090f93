// `toolwire worker --executor <id>`: registers the command; the work is in ./run-worker.ts, loaded when it runs.
import type { Command } from "commander";
import { type CliContext, positiveIntegerOption } from "../cli-context.js";

/** Adds `toolwire worker --executor <id> [--concurrency <n>]`. */
export function registerWorker(program: Command, cli: CliContext): void {
  program
    .command("worker")
    .description("run the calls of a remote executor of the config (BullMQ on Redis) here, until SIGINT or SIGTERM")
    .requiredOption("--executor <id>", "the id of an entry of the config's executors")
    .option("--concurrency <n>", "how many calls to run at once (default 1)", positiveIntegerOption("--concurrency"))
    .addHelpText(
      "after",
      `
The first SIGINT or SIGTERM stops taking calls and lets the running ones finish; a second stops them too (their
jobs go back to the queue for another worker). See docs/workers.md.`,
    )
    .action(async (options: { executor: string; concurrency?: number }) => {
      const { runWorker } = await import("./run-worker.js");
      const stop = new AbortController();
      const force = new AbortController();
      const onSignal = () => (stop.signal.aborted ? force.abort() : stop.abort());
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
      const runtime = await cli.open({ remoteExecutors: false });
      try {
        cli.setExit(
          await runWorker(runtime, cli.output(), {
            executor: options.executor,
            ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
            json: cli.globals().json === true,
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
}
