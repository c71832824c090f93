// Compiled, never run (`npm run typecheck`): the tracer and meter of OpenTelemetry's own API fit toolwire's telemetry
// options with no cast, though toolwire's declarations never import `@opentelemetry/api` (an optional peer).
import { type Meter, metrics, type Tracer, trace } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import type { SessionTelemetryOptions, TelemetryMeter, TelemetryTracer } from "../../src/telemetry/index.js";

/** Compiles only when `value` is assignable to `T`. */
function accepts<T>(value: T): T {
  return value;
}

declare const tracer: Tracer;
declare const meter: Meter;

accepts<TelemetryTracer>(tracer);
accepts<TelemetryMeter>(meter);
accepts<TelemetryTracer>(trace.getTracer("app"));
accepts<TelemetryTracer>(new BasicTracerProvider().getTracer("app"));
accepts<SessionTelemetryOptions>({
  tracer: trace.getTracer("app"),
  meter: metrics.getMeter("app"),
  recordContent: true,
});
