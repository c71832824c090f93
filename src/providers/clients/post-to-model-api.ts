// One POST to a model API over fetch: a timeout, retries with backoff on 408/429/5xx and lost connections, errors as
// ModelError.
import { describeThrown } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { ModelError } from "../errors.js";
import { waitUnlessAborted } from "./wait-unless-aborted.js";

/** A request to a model API and how to send it. */
interface ModelApiRequest {
  /** The client's name, for errors (`gemini:gemini-2.5-flash`). */
  readonly model: string;
  readonly url: string;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** The whole of one attempt, the body read included. */
  readonly timeoutMs: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
}

/** The statuses worth another try (the Gemini SDK's list): timeout, rate limit, and the server's passing faults. */
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** The longest wait a server may ask for between retries (`Retry-After`); a longer one is not waited for. */
const MAX_ASKED_DELAY_MS = 60_000;

/**
 * POSTs `body` as JSON and gives the response to `read`, within the attempt's timeout. A status of 408, 429, 500,
 * 502, 503 or 504, a lost connection, or a timeout before the server answered is retried up to `maxRetries` times,
 * after the delay the server asks for (`Retry-After`, or a Google `RetryInfo` in the error body, at most 60 s) or
 * an exponential backoff (0.5 s, 1 s, 2 s ... at most 8 s, less a little jitter); nothing is retried once `read`
 * has begun. `read` throws `ModelError` for what the server sent; anything else it throws counts as a lost
 * connection. Rejects with the signal's reason when it aborts (also during a wait), else with `ModelError`
 * `request-failed`: the HTTP status and the API's own error message, or the URL and why the connection failed, or
 * the timeout.
 */
export async function postToModelApi<T>(
  request: ModelApiRequest,
  read: (response: Response) => Promise<T>,
): Promise<T> {
  const { signal } = request;
  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw signal.reason;
    const outcome = await attemptOnce(request, read);
    if (outcome.kind === "done") return outcome.value;
    if (attempt >= request.maxRetries || !outcome.retryable) throw outcome.error;
    await waitUnlessAborted(outcome.askedDelayMs ?? backoffDelay(attempt), signal);
  }
}

type Attempt<T> =
  | { readonly kind: "done"; readonly value: T }
  | { readonly kind: "failed"; readonly error: unknown; readonly retryable: boolean; readonly askedDelayMs?: number };

async function attemptOnce<T>(request: ModelApiRequest, read: (response: Response) => Promise<T>): Promise<Attempt<T>> {
  const { model, url, signal, timeoutMs } = request;
  const controller = new AbortController();
  const timeout = new ModelError(
    "request-failed",
    model,
    `Model ${model} request timed out after ${timeoutMs} ms (to ${url})`,
  );
  const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: request.headers,
        body: JSON.stringify(request.body),
        signal: controller.signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted) return { kind: "failed", error: timeout, retryable: true };
      return { kind: "failed", error: connectionError(error, model, url), retryable: true };
    }
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      const error = new ModelError(
        "request-failed",
        model,
        `Model ${model} request failed (HTTP ${response.status}): ${apiErrorMessage(text, response.statusText)}`,
        { status: response.status },
      );
      const retryable = RETRYABLE_STATUSES.has(response.status);
      const askedDelayMs = askedDelay(response.headers.get("retry-after"), text);
      return { kind: "failed", error, retryable, ...(askedDelayMs === undefined ? {} : { askedDelayMs }) };
    }
    try {
      return { kind: "done", value: await read(response) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.aborted) throw timeout;
      if (error instanceof ModelError) throw error;
      throw connectionError(error, model, url);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/** The request got no whole answer: the URL, and the lowest cause (`connect ECONNREFUSED ...`, `other side closed`). */
function connectionError(error: unknown, model: string, url: string): ModelError {
  let cause: unknown = error;
  while (isRecord(cause) && cause.cause !== undefined) cause = cause.cause;
  const why = cause === error ? describeThrown(error) : `${describeThrown(error)}: ${describeThrown(cause)}`;
  return new ModelError("request-failed", model, `Model ${model} request failed (to ${url}): ${why}`, { cause: error });
}

/**
 * The message of an API's error body (`{ error: { message } }`, as Google, OpenAI and Anthropic send it), or its text.
 */
function apiErrorMessage(text: string, fallback: string): string {
  try {
    const body: unknown = JSON.parse(text);
    const error = isRecord(body) ? body.error : undefined;
    const message = isRecord(error) ? error.message : typeof error === "string" ? error : undefined;
    if (typeof message === "string" && message !== "") return message;
    if (isRecord(body) && typeof body.message === "string" && body.message !== "") return body.message;
  } catch {
    // not JSON: the text itself says what went wrong
  }
  const trimmed = text.trim();
  if (trimmed === "") return fallback === "" ? "no error message" : fallback;
  return trimmed.length > 500 ? `${trimmed.slice(0, 500)}…` : trimmed;
}

/** The delay a server asked for: `Retry-After` (seconds or a date), else `RetryInfo.retryDelay` ("37s") in the body. */
function askedDelay(retryAfter: string | null, text: string): number | undefined {
  let ms: number | undefined;
  if (retryAfter !== null && retryAfter.trim() !== "") {
    const seconds = Number(retryAfter);
    ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
  } else {
    const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(text);
    if (match !== null) ms = Number(match[1]) * 1000;
  }
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms <= MAX_ASKED_DELAY_MS ? ms : undefined;
}

function backoffDelay(attempt: number): number {
  return Math.min(8000, 500 * 2 ** attempt) * (1 - Math.random() * 0.25);
}
