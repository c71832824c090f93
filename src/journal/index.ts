// toolwire/journal: where a durable run's journal is kept: a folder of JSON-lines files, or PostgreSQL (docs/durable-runs.md).

export { checkRunId, RUN_ID_PATTERN } from "./check-run-id.js";
export { createFileJournal, type FileJournal } from "./create-file-journal.js";
export {
  createPostgresJournal,
  DEFAULT_JOURNAL_TABLE,
  type PostgresClient,
  type PostgresJournal,
  type PostgresJournalOptions,
  type PostgresPool,
} from "./create-postgres-journal.js";
export { JournalError, type JournalErrorCode } from "./journal-error.js";
export type { JournalEntry, RunJournal, RunLease } from "./run-journal.js";
