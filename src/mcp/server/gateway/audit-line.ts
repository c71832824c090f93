// One line of the gateway's audit log: its fields in a fixed order, picked one by one so nothing else leaks in.
import { inputDigest } from "../../../core/approve/input-digest.js";
import type { JsonObject } from "../../../core/types.js";

/**
 * One line of the audit log (docs/serve.md). It has no field for a credential: the call's input is its only user data.
 */
export interface AuditEntry {
  /** When the call started, ISO 8601. */
  readonly time: string;
  readonly principal: string;
  readonly tool: string;
  readonly toolCallId: string;
  /** `inputDigest` of the input (`sha256:` and hex), the same digest approvals are bound to. */
  readonly inputDigest: string;
  /** `"ok"`, or the error code the call ended with. */
  readonly outcome: string;
  readonly durationMs: number;
  /** The input itself, only when the log was opened with `inputs: true`. */
  readonly input?: unknown;
}

/**
 * The line written in place of entries dropped while the queue was full (`whenFull: "drop"`): `dropped` entries
 * were recorded from `since` on and never written. It has no `tool`, which tells it from an entry.
 */
export interface AuditDropRecord {
  /** When the queue had room again. */
  readonly time: string;
  readonly dropped: number;
  /** When the first of them was dropped. */
  readonly since: string;
}

/** What the caller hands `record`: the entry with the call's input, which the log digests (and keeps only if asked). */
export type AuditRecord = Omit<AuditEntry, "input" | "inputDigest"> & { readonly input: unknown };

/** What `inputDigest` says of an input that is not JSON data (a cycle, a BigInt). */
export const UNSERIALIZABLE = "unavailable";

/**
 * The JSON line of `entry`: the fields docs/serve.md lists, in a fixed order, picked one by one so nothing else leaks
 * in.
 */
export function auditLine(entry: AuditRecord, withInputs: boolean, digest?: string): string {
  const line: Record<string, unknown> = {
    time: entry.time,
    principal: entry.principal,
    tool: entry.tool,
    toolCallId: entry.toolCallId,
    // canonicalJson (under inputDigest) takes any JSON value, so an input that is not an object digests too.
    inputDigest: digest ?? inputDigest(entry.input as JsonObject),
    outcome: entry.outcome,
    durationMs: entry.durationMs,
  };
  if (withInputs) line.input = entry.input;
  return `${JSON.stringify(line)}\n`;
}

/** The entry's fields other than its input, as strings and a number, so they serialize whatever they were. */
export function pickFields(entry: AuditRecord): Omit<AuditRecord, "input"> {
  return {
    time: String(entry.time),
    principal: String(entry.principal),
    tool: String(entry.tool),
    toolCallId: String(entry.toolCallId),
    outcome: String(entry.outcome),
    durationMs: Number(entry.durationMs),
  };
}
