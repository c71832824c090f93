// What the SDK-backed clients share: client options, lazy loading, and how a failed call becomes a ModelError.
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { isPackageNotFound, MissingPeerDependencyError } from "../../load-optional.js";
import { ModelError } from "../errors.js";
import type { ModelConnectionOptions } from "./types.js";

/** The constructor options both provider SDKs take, from ours; an absent option keeps the SDK's default. */
export function sdkClientOptions(options: ModelConnectionOptions, apiKey = options.apiKey) {
  return {
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } }),
  };
}

/**
 * What a client rejects with when its request failed: the abort reason when the caller aborted, a `ModelError`
 * as it is, else a `ModelError` (`request-failed`) carrying the HTTP status when there was one, or naming the
 * server's URL when there was no answer.
 */
export function toModelError(
  error: unknown,
  model: string,
  signal: AbortSignal | undefined,
  /** The server's base URL, named when the request got no HTTP answer at all (a connection error). */
  url?: string,
): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof ModelError) return error;
  const status = isRecord(error) && typeof error.status === "number" ? error.status : undefined;
  const where = status !== undefined ? ` (HTTP ${status})` : url === undefined ? "" : ` (to ${url})`;
  return new ModelError("request-failed", model, `Model ${model} request failed${where}: ${describeThrown(error)}`, {
    cause: error,
    ...(status === undefined ? {} : { status }),
  });
}

/**
 * Loads an SDK module lazily, so importing toolwire never pays for it (the SDKs are optional peer dependencies). A
 * package that is not installed, or that fails to load, is a `sdk-missing` error naming what to install.
 */
export async function loadSdk<T>(load: () => Promise<T>, packageName: string, model: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isPackageNotFound(error, packageName)) {
      const missing = new MissingPeerDependencyError(`Model ${model}`, [packageName], [packageName], { cause: error });
      throw new ModelError(
        "sdk-missing",
        model,
        `Model ${model} needs ${packageName}, an optional peer dependency of toolwire that is not installed: npm install ${packageName}`,
        { cause: missing },
      );
    }
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

/** The base URL an SDK client sends to (both SDKs keep it as `baseURL`), for error messages. */
export function baseUrlOf(client: unknown): string | undefined {
  const url = isRecord(client) ? client.baseURL : undefined;
  return typeof url === "string" && url !== "" ? url : undefined;
}
