// How a failed SDK call becomes a ModelError, and how a missing SDK package is reported.
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { ModelError } from "../errors.js";

/**
 * What a client rejects with when its request failed: the abort reason when the caller aborted, a `ModelError`
 * as it is, else a `ModelError` (`request-failed`) carrying the HTTP status when there was one.
 */
export function toModelError(error: unknown, model: string, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof ModelError) return error;
  const status = isRecord(error) && typeof error.status === "number" ? error.status : undefined;
  const where = status === undefined ? "" : ` (HTTP ${status})`;
  return new ModelError("request-failed", model, `Model ${model} request failed${where}: ${describeThrown(error)}`, {
    cause: error,
    ...(status === undefined ? {} : { status }),
  });
}

/** Loads an SDK module lazily, so importing toolwire never pays for it; a missing package is a `sdk-missing` error. */
export async function loadSdk<T>(load: () => Promise<T>, packageName: string, model: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new ModelError(
      "sdk-missing",
      model,
      `Model ${model} needs the ${packageName} package, which could not be loaded (${describeThrown(error)}). Install it: npm i ${packageName}`,
      { cause: error },
    );
  }
}

/** A number field of an untrusted record, or 0. */
export function count(record: unknown, key: string): number {
  if (!isRecord(record)) return 0;
  const value = record[key];
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
