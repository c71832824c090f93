// `toolwire worker --executor <id>`: runs the calls of one remote executor of the config (docs/workers.md) until
// stopped.
import { BULLMQ_FEATURE, BULLMQ_PACKAGES, loadOptional } from "../../load-optional.js";
import { EXIT_OK } from "../exit-codes.js";
import { type Output, paint } from "../output.js";
import type { Runtime } from "../runtime.js";

/** What `toolwire worker` was asked. */
interface WorkerCommandOptions {
  readonly executor: string;
  readonly concurrency?: number;
  readonly json: boolean;
  /** Aborts on the first SIGINT or SIGTERM: the worker stops taking jobs and finishes the running ones. */
  readonly signal: AbortSignal;
  /** Aborts on a second SIGINT or SIGTERM: the running calls are stopped and their jobs go back to the queue. */
  readonly force: AbortSignal;
}

/**
 * Takes the executor's jobs from its queue and runs each with the tool of that name from `runtime` (opened with
 * `remoteExecutors: false`: built-ins in this machine's workspace, plugins, MCP servers), only the tools the
 * executor's patterns match. Prints one line once it listens (a JSON object with `--json`), and another when it
 * stops. Resolves with the exit code once stopped; throws `ExecutorError` for an unknown executor or a bad entry.
 */
export async function runWorker(runtime: Runtime, output: Output, options: WorkerCommandOptions): Promise<number> {
  const { startBullmqWorker, workerOptionsFor } = await loadOptional(BULLMQ_FEATURE, BULLMQ_PACKAGES, async () => ({
    ...(await import("../../executors/bullmq/start-bullmq-worker.js")),
    ...(await import("../../executors/bullmq/executors-from-config.js")),
  }));
  const workerOptions = workerOptionsFor(
    runtime.loaded.config.executors,
    options.executor,
    runtime.registry.tools.values(),
  );
  const worker = await startBullmqWorker({
    ...workerOptions,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    onError: (error) => output.error(paint(output, "yellow", `toolwire worker: ${error.message}`)),
  });
  const names = workerOptions.tools.map((tool) => tool.descriptor.name);
  const ready = {
    event: "worker_ready",
    executor: worker.id,
    queue: worker.queue,
    address: worker.address,
    pid: process.pid,
    tools: names,
    concurrency: options.concurrency ?? 1,
  };
  if (options.json) output.line(JSON.stringify(ready));
  else
    output.line(
      `worker of executor ${paint(output, "bold", worker.id)} on ${worker.address} queue ${worker.queue}, pid ${process.pid}: runs ${names.length === 0 ? "no tools" : names.join(", ")} (concurrency ${ready.concurrency})`,
    );
  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  const closing = worker.close();
  const forced = new Promise<void>((resolve) =>
    options.force.addEventListener("abort", () => resolve(), { once: true }),
  );
  await Promise.race([closing, forced.then(() => worker.close({ force: true }))]);
  if (options.json) output.line(JSON.stringify({ event: "worker_stopped", executor: worker.id }));
  else output.line(paint(output, "dim", `worker of executor ${worker.id} stopped`));
  return EXIT_OK;
}
