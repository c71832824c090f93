// The config's `executors` (docs/workers.md) as registry routes for a session, and as the tools and options of one
// worker.

import { compilePolicyPattern } from "../../core/filter/policy.js";
import type { AgentTool, ToolExecutorRoute } from "../../core/types.js";
import type { ExecutorConfig } from "../executor-config.js";
import { ExecutorError } from "../executor-error.js";
import { type BullmqExecutor, createBullmqExecutor } from "./create-bullmq-executor.js";
import type { BullmqWorkerOptions } from "./start-bullmq-worker.js";

/** The session side of the config's executors: routes for the registry, and `close` for their connections. */
interface ConfiguredExecutors {
  readonly routes: readonly ToolExecutorRoute[];
  readonly executors: readonly BullmqExecutor[];
  close(): Promise<void>;
}

/** Builds one executor per entry (none connects before its first call). Throws `ExecutorError` for a bad entry. */
export function createConfiguredExecutors(
  entries: readonly ExecutorConfig[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): ConfiguredExecutors {
  const executors = entries.map((entry) =>
    createBullmqExecutor({
      id: entry.id,
      connection: readConnection(entry, env),
      ...(entry.queue === undefined ? {} : { queue: entry.queue }),
      ...(entry.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: entry.connectTimeoutMs }),
    }),
  );
  return {
    routes: executors.map((executor, index) => ({ executor, tools: (entries[index] as ExecutorConfig).tools })),
    executors,
    close: async () => {
      await Promise.allSettled(executors.map((executor) => executor.close()));
    },
  };
}

/**
 * The worker of executor `id`: the entry's connection, queue and lock, and the tools among `tools` (the worker's own,
 * run here) that its patterns match. Throws `ExecutorError` `unknown-executor` when no entry has that id.
 */
export function workerOptionsFor(
  entries: readonly ExecutorConfig[] | undefined,
  id: string,
  tools: Iterable<AgentTool>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): BullmqWorkerOptions & { readonly tools: readonly AgentTool[] } {
  const entry = entries?.find((candidate) => candidate.id === id);
  if (entry === undefined) {
    const known = (entries ?? []).map((candidate) => candidate.id);
    throw new ExecutorError(
      "unknown-executor",
      `The config has no executor ${JSON.stringify(id)}; its executors: ${known.length === 0 ? "none" : known.join(", ")}.`,
    );
  }
  const matchers = entry.tools.map(compilePolicyPattern);
  const mine = [...tools].filter((tool) =>
    matchers.some((matches) => matches(tool.descriptor, tool.descriptor.name.toLowerCase())),
  );
  return {
    id: entry.id,
    connection: readConnection(entry, env),
    ...(entry.queue === undefined ? {} : { queue: entry.queue }),
    ...(entry.lockDurationMs === undefined ? {} : { lockDurationMs: entry.lockDurationMs }),
    tools: mine,
  };
}

/** The entry's Redis address, read from the environment for `env:NAME`. */
function readConnection(entry: ExecutorConfig, env: Readonly<Record<string, string | undefined>>): string {
  if (!entry.connection.startsWith("env:")) return entry.connection;
  const name = entry.connection.slice("env:".length);
  const value = env[name];
  if (value === undefined || value === "") {
    throw new ExecutorError(
      "invalid-executor",
      `Executor ${entry.id}: its connection is env:${name}, and ${name} is not set; set it to redis://HOST:PORT (or rediss://)`,
    );
  }
  return value;
}
