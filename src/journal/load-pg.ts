// node-postgres (`pg`), loaded at the first PostgreSQL journal used, with one clear error when it is not installed.
import { loadOptional } from "../load-optional.js";

/** The optional peer dependency the PostgreSQL journal needs. */
export const PG_PACKAGES = ["pg"] as const;

/** What needs `pg`, as the error message names it. */
export const PG_FEATURE = "toolwire's PostgreSQL journal";

/** `pg`'s module (CommonJS: its exports arrive as `default`). */
export type PgModule = typeof import("pg");

/** Loads `pg`; rejects with `MissingPeerDependencyError` (code `missing-peer-dependency`) when it is not installed. */
export async function loadPg(): Promise<PgModule> {
  const loaded = await loadOptional(PG_FEATURE, PG_PACKAGES, () => import("pg"));
  return (loaded as unknown as { default?: PgModule }).default ?? loaded;
}
