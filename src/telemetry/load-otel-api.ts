// `@opentelemetry/api`, loaded when a session first asks for telemetry (it is an optional peer dependency).
import { createRequire } from "node:module";
import type { TelemetryMeter, TelemetrySpan, TelemetryTracer } from "../core/types/telemetry.js";
import { isPackageNotFound, MissingPeerDependencyError } from "../load-optional.js";

/** The part of `@opentelemetry/api` toolwire calls. Contexts are opaque to toolwire. */
export interface OtelApi {
  readonly trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    setSpan(context: unknown, span: TelemetrySpan): unknown;
    wrapSpanContext(spanContext: {
      traceId: string;
      spanId: string;
      traceFlags: number;
      isRemote?: boolean;
      traceState?: unknown;
    }): TelemetrySpan;
    createTraceState?(raw: string): unknown;
  };
  readonly context: {
    active(): unknown;
    with<T>(context: unknown, work: () => T): T;
  };
  readonly metrics: { getMeter(name: string, version?: string): TelemetryMeter };
  readonly ROOT_CONTEXT: unknown;
}

const OTEL_API_PACKAGE = "@opentelemetry/api";

let loaded: OtelApi | undefined;

/** The API, once per process. Throws `MissingPeerDependencyError` when it is not installed. */
export function loadOtelApi(): OtelApi {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)(OTEL_API_PACKAGE) as OtelApi;
  } catch (error) {
    if (!isPackageNotFound(error, OTEL_API_PACKAGE)) throw error;
    throw new MissingPeerDependencyError("Telemetry", [OTEL_API_PACKAGE], [OTEL_API_PACKAGE], { cause: error });
  }
  return loaded;
}
