// The config's `journal` as a run journal: `file:PATH` (relative to the config's folder) or `postgres:env:NAME`.
import { resolve } from "node:path";
import type { LoadedConfig } from "../config/load-config.js";
import { ConfigError } from "../config/load-config.js";
import type { RunJournal } from "../journal/run-journal.js";

/** A journal the run closes when it ends. */
export type OpenedJournal = RunJournal & { close?(): Promise<void> };

/**
 * Opens the journal the config names (docs/durable-runs.md). Throws `ConfigError` `invalid-config` when a
 * `postgres:env:NAME` variable is not set; the journal modules (and `pg`) load only here.
 */
export async function openJournal(
  loaded: LoadedConfig,
  spec: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<OpenedJournal> {
  const journals = await import("../journal/index.js");
  if (spec.startsWith("file:")) return journals.createFileJournal(resolve(loaded.dir, spec.slice("file:".length)));
  const name = spec.slice("postgres:env:".length);
  const connectionString = env[name];
  if (connectionString === undefined || connectionString === "") {
    const message = `journal names ${name}, which is not set: set it to the PostgreSQL connection string`;
    throw new ConfigError("invalid-config", loaded.file, [{ path: "journal", message }], message);
  }
  return journals.createPostgresJournal({ connectionString });
}
