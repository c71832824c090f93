// W3C trace context (`traceparent`, `tracestate`): read from another process, written for the next one.
import type { TraceContext } from "../core/types.js";

/** A span's identity, as OpenTelemetry's `SpanContext` holds it. */
interface SpanIdentity {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
/** The longest `tracestate` carried on: the W3C limit is 32 members of at most 256 characters each. */
const MAX_TRACESTATE_CHARS = 8192;

/**
 * The remote parent a `traceparent` names, or `undefined` when it is malformed (W3C Trace Context level 1:
 * version `ff` and all-zero ids are invalid; a later version may add fields after the four).
 */
export function readTraceparent(traceparent: unknown): SpanIdentity | undefined {
  if (typeof traceparent !== "string" || traceparent.length > 512) return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId = "", spanId = "", flags = "00"] = match;
  if (version === "ff" || (version === "00" && traceparent.trim().length !== 55)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
}

/** A `tracestate` worth carrying on, or `undefined`. */
export function readTracestate(tracestate: unknown): string | undefined {
  if (typeof tracestate !== "string" || tracestate === "" || tracestate.length > MAX_TRACESTATE_CHARS) return undefined;
  return tracestate;
}

/** The trace context naming `span` as the parent. */
export function writeTraceContext(span: SpanIdentity, tracestate: string | undefined): TraceContext {
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, "0");
  const traceparent = `00-${span.traceId}-${span.spanId}-${flags}`;
  return tracestate === undefined || tracestate === "" ? { traceparent } : { traceparent, tracestate };
}
