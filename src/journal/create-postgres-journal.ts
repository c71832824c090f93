// A run journal in PostgreSQL: one row per entry, appends in one transaction, a run taken with an advisory lock.
import { describeThrown, isToolwireError, type ToolwireError } from "../core/errors.js";
import { checkRunId, isEntryShaped } from "./check-run-id.js";
import { groupAppends } from "./group-appends.js";
import { JournalError } from "./journal-error.js";
import { loadPg } from "./load-pg.js";
import type { JournalEntry, RunJournal, RunLease } from "./run-journal.js";

/** What the journal needs of a `pg` pool (`new pg.Pool(...)`); a pool you pass stays yours to end. */
export interface PostgresPool {
  connect(): Promise<PostgresClient>;
}

/** What the journal needs of a `pg` client checked out of a pool. */
export interface PostgresClient {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(error?: Error | boolean): void;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Options of `createPostgresJournal`: a connection string (the journal makes and ends its pool) or your pool. */
export type PostgresJournalOptions =
  | { readonly connectionString: string; readonly table?: string }
  | { readonly pool: PostgresPool; readonly table?: string };

/** A PostgreSQL journal, and `close` to end its pool. */
export interface PostgresJournal extends RunJournal {
  /** The table, `toolwire_journal` unless `table` said otherwise. */
  readonly table: string;
  acquire(runId: string): Promise<RunLease | undefined>;
  /** Releases the leases still held and ends the pool the journal made (not one you passed). Idempotent. */
  close(): Promise<void>;
}

/** The table's name when `table` is not given. */
export const DEFAULT_JOURNAL_TABLE = "toolwire_journal";

// An advisory lock's 64-bit key: the first 16 hex digits of the MD5 of a name (`toolwire:append:`, `:lease:`, `:table:`
// and the run id or table), so that locks of different runs practically never share a key.
const LOCK_KEY = "('x' || substr(md5($1), 1, 16))::bit(64)::bigint";
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A run journal in PostgreSQL. Creates `table` (run id, sequence, entry as `jsonb`, created at) when missing, at the
 * first use. `append` inserts the entries in one transaction, under a transaction advisory lock on the run, after
 * its last sequence: appends from any number of processes never collide and land whole or not at all. `read`
 * returns the run's entries by sequence. `acquire` takes a session advisory lock on the run on a connection of its
 * own: `undefined` while another session holds it; released by `release()`, and by PostgreSQL when the holder's
 * connection ends (its process died), so another process can then take the run.
 *
 * `pg` is an optional peer dependency, loaded at the first use (`missing-peer-dependency` without it). Failures
 * reject with `JournalError` (`journal-unavailable`, `journal-corrupt`, `invalid-run-id`); no message holds the
 * connection string's password.
 */
export function createPostgresJournal(options: PostgresJournalOptions): PostgresJournal {
  const given = options as { connectionString?: unknown; pool?: PostgresPool; table?: unknown };
  const hasString = typeof given?.connectionString === "string" && given.connectionString !== "";
  const hasPool = typeof given?.pool?.connect === "function";
  if (hasString === hasPool) {
    throw new JournalError(
      "invalid-journal-options",
      "createPostgresJournal needs exactly one of { connectionString: 'postgres://...' } and { pool }.",
    );
  }
  const named = given.table ?? DEFAULT_JOURNAL_TABLE;
  if (typeof named !== "string" || !TABLE_NAME.test(named)) {
    throw new JournalError(
      "invalid-journal-options",
      "createPostgresJournal: table must be 1 to 63 lowercase letters, digits or '_', not starting with a digit.",
    );
  }
  const table: string = named;
  const secret = hasString ? passwordOf(given.connectionString as string) : undefined;
  const leases = new Set<RunLease>();
  let pool: Promise<PostgresPool & { end?(): Promise<void> }> | undefined;
  let ready: Promise<void> | undefined;
  let closed = false;

  function getPool() {
    pool ??= hasString
      ? loadPg().then((pg) => {
          const made = new pg.Pool({ connectionString: given.connectionString as string });
          // An idle client's lost connection is reported here; the next query reports it to its caller.
          made.on("error", () => undefined);
          return made as unknown as PostgresPool & { end(): Promise<void> };
        })
      : Promise.resolve(given.pool as PostgresPool);
    return pool;
  }

  function fail(runId: string | undefined, what: string, error: unknown): ToolwireError {
    // Ours already (a corrupt entry, `pg` not installed): as is.
    if (isToolwireError(error)) return error;
    let reason = describeThrown(error);
    if (secret) reason = reason.split(secret).join("***");
    return new JournalError("journal-unavailable", `PostgreSQL journal: ${what}: ${reason}`, runId);
  }

  /** Runs `work` on a client of the pool, creating the table first if this journal has not yet. */
  async function withClient<T>(runId: string, what: string, work: (client: PostgresClient) => Promise<T>): Promise<T> {
    if (closed) throw new JournalError("journal-unavailable", "PostgreSQL journal: closed.", runId);
    let client: PostgresClient;
    try {
      client = await (await getPool()).connect();
    } catch (error) {
      throw fail(runId, `cannot connect (${what})`, error);
    }
    let broken: unknown;
    try {
      ready ??= createTable(client, table).catch((error) => {
        ready = undefined;
        throw error;
      });
      await ready;
      return await work(client);
    } catch (error) {
      broken = error;
      throw fail(runId, what, error);
    } finally {
      client.release(broken instanceof Error && !isToolwireError(broken) ? broken : undefined);
    }
  }

  /** Appends `entries` to the run in one transaction, after the run's last sequence. */
  function appendNow(runId: string, entries: readonly JournalEntry[]): Promise<void> {
    const rows = JSON.stringify(entries);
    return withClient(runId, `cannot append to run ${runId}`, async (client) => {
      await client.query("BEGIN");
      try {
        await client.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, [`toolwire:append:${runId}`]);
        await client.query(
          `INSERT INTO ${table} (run_id, seq, entry)
           SELECT $1, last.seq + e.ordinality, e.value
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ordinality),
                (SELECT coalesce(max(seq), 0) AS seq FROM ${table} WHERE run_id = $1) AS last`,
          [runId, rows],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    });
  }
  // This process's appends to one run go one transaction at a time, in order; those made meanwhile share the next.
  const appends = groupAppends(appendNow);

  return {
    table,
    async append(runId, entries) {
      checkRunId(runId);
      if (entries.length === 0) return;
      await appends.append(runId, entries);
    },

    async read(runId) {
      checkRunId(runId);
      return withClient(runId, `cannot read run ${runId}`, async (client) => {
        const { rows } = await client.query(`SELECT seq, entry FROM ${table} WHERE run_id = $1 ORDER BY seq`, [runId]);
        return rows.map((row) => {
          if (!isEntryShaped(row.entry)) {
            throw new JournalError(
              "journal-corrupt",
              `The journal of run ${runId} (table ${table}) is corrupt at sequence ${String(row.seq)}: not a journal entry.`,
              runId,
            );
          }
          return row.entry as JournalEntry;
        });
      });
    },

    async acquire(runId) {
      checkRunId(runId);
      if (closed) throw new JournalError("journal-unavailable", "PostgreSQL journal: closed.", runId);
      let client: PostgresClient;
      try {
        client = await (await getPool()).connect();
      } catch (error) {
        throw fail(runId, `cannot connect (to take run ${runId})`, error);
      }
      // The lease's connection sits idle while the run goes on: a loss is seen at release.
      client.on("error", () => undefined);
      let taken: boolean;
      try {
        const { rows } = await client.query(`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS taken`, [
          `toolwire:lease:${runId}`,
        ]);
        taken = rows[0]?.taken === true;
      } catch (error) {
        client.release(true);
        throw fail(runId, `cannot take run ${runId}`, error);
      }
      if (!taken) {
        client.release();
        return undefined;
      }
      let released: Promise<void> | undefined;
      const lease: RunLease = {
        release() {
          released ??= (async () => {
            leases.delete(lease);
            try {
              await client.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`, [`toolwire:lease:${runId}`]);
              client.release();
            } catch {
              // The connection is gone, and the lock with it.
              client.release(true);
            }
          })();
          return released;
        },
      };
      leases.add(lease);
      return lease;
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...leases].map((lease) => lease.release()));
      if (hasString && pool !== undefined) {
        const made = await pool.catch(() => undefined);
        await made?.end?.();
      }
    },
  };
}

async function createTable(client: PostgresClient, table: string): Promise<void> {
  // Two processes creating the table at once can both fail `IF NOT EXISTS`: the transaction lock lines them up.
  await client.query("BEGIN");
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, [`toolwire:table:${table}`]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
         run_id text NOT NULL,
         seq integer NOT NULL,
         entry jsonb NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now(),
         PRIMARY KEY (run_id, seq)
       )`,
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** The password of a connection string, to keep out of messages. */
function passwordOf(connectionString: string): string | undefined {
  try {
    const password = decodeURIComponent(new URL(connectionString).password);
    return password === "" ? undefined : password;
  } catch {
    return undefined;
  }
}
