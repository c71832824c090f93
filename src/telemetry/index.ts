// toolwire/telemetry: the shapes of the tracer and meter a session takes (OpenTelemetry's own fit them), its spans,
// and the names of its instrumentation scope and histogram. createAgentSession's `telemetry` option turns it on.
export type {
  SessionTelemetryOptions,
  TelemetryAttributes,
  TelemetryMeter,
  TelemetrySpan,
  TelemetryTracer,
} from "../core/types/telemetry.js";
export type { ToolCallChildSpan, ToolCallSpan, TraceContext } from "../core/types.js";
export { TELEMETRY_SCOPE, TOOL_DURATION_METRIC } from "./create-otel-telemetry.js";
