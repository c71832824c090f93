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
 * as it is, else a `ModelError`: `request-failed` carrying the HTTP status when there was one, or naming the
 * server's URL when there was no answer, or the server's own error sent inside a stream; `invalid-response` when
 * the answer was not JSON, or (`answered`) when a stream that had begun broke down for any other reason than the
 * connection.
 */
export function toModelError(
  error: unknown,
  model: string,
  signal: AbortSignal | undefined,
  /** The server's base URL, named when the request got no HTTP answer at all (a connection error). */
  url?: string,
  /** The server had answered with a stream (HTTP 200) before this went wrong. */
  answered = false,
): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof ModelError) return error;
  const status = isRecord(error) && typeof error.status === "number" ? error.status : undefined;
  // An SDK error that carries the server's own error body (an `error` event inside a stream) is the server's answer.
  const serverSaid = isRecord(error) && isRecord(error.error);
  if (
    status === undefined &&
    !serverSaid &&
    (causes(error).some((cause) => cause instanceof SyntaxError) || answered)
  ) {
    if (!isConnectionFault(error)) {
      return new ModelError(
        "invalid-response",
        model,
        `Model ${model} answered with something that is not a ${answered ? "valid stream" : "JSON body"}: ${describeThrown(error)}`,
        { cause: error },
      );
    }
  }
  const where = status !== undefined ? ` (HTTP ${status})` : url === undefined ? "" : ` (to ${url})`;
  return new ModelError("request-failed", model, `Model ${model} request failed${where}: ${describeThrown(error)}`, {
    cause: error,
    ...(status === undefined ? {} : { status }),
  });
}

/** The error and its chain of causes (at most a few deep). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let next = error; next !== undefined && next !== null && chain.length < 8; ) {
    chain.push(next);
    next = isRecord(next) || next instanceof Error ? (next as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

/** Whether a failure came from the connection (refused, reset, cut off mid-body), not from what the server sent. */
function isConnectionFault(error: unknown): boolean {
  return causes(error).some((cause) => {
    if (!isRecord(cause) && !(cause instanceof Error)) return false;
    const { code, name, message } = cause as { code?: unknown; name?: unknown; message?: unknown };
    return (
      (typeof code === "string" && /^(E[A-Z0-9]+|UND_ERR_[A-Z_]+)$/.test(code)) ||
      name === "APIConnectionError" ||
      name === "APIConnectionTimeoutError" ||
      message === "terminated"
    );
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
