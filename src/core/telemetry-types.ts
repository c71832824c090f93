// The shapes telemetry takes from OpenTelemetry, written structurally: toolwire's declarations never import the
// optional `@opentelemetry/api`, and any tracer and meter of its 1.x API fit them.

/** Attributes as OpenTelemetry takes them. */
export type TelemetryAttributes = Readonly<Record<string, string | number | boolean>>;

/** What toolwire needs of an OpenTelemetry `Tracer` (`trace.getTracer(...)` of `@opentelemetry/api` 1.x fits). */
export interface TelemetryTracer {
  startSpan(
    name: string,
    options?: {
      kind?: number;
      attributes?: TelemetryAttributes;
      startTime?: number;
    },
    // biome-ignore lint/suspicious/noExplicitAny: an OpenTelemetry Context, which toolwire only passes through
    context?: any,
  ): TelemetrySpan;
}

/** What toolwire needs of an OpenTelemetry `Span`. */
export interface TelemetrySpan {
  spanContext(): {
    traceId: string;
    spanId: string;
    traceFlags: number;
    traceState?: { serialize(): string };
  };
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}

/** What toolwire needs of an OpenTelemetry `Meter` (`metrics.getMeter(...)` fits). */
export interface TelemetryMeter {
  createHistogram(
    name: string,
    options?: {
      description?: string;
      unit?: string;
      advice?: { explicitBucketBoundaries?: number[] };
    },
  ): { record(value: number, attributes?: TelemetryAttributes): void };
}

/** `createAgentSession({ telemetry })`, beyond `true`. */
export interface SessionTelemetryOptions {
  /** Default: the tracer `toolwire` of the global tracer provider of `@opentelemetry/api`. */
  readonly tracer?: TelemetryTracer;
  /** Default: the meter `toolwire` of the global meter provider; it records `gen_ai.execute_tool.duration`. */
  readonly meter?: TelemetryMeter;
  /**
   * Also record each call's arguments and result text on its span (`gen_ai.tool.call.arguments`,
   * `gen_ai.tool.call.result`, each cut to 8 KB). Default false: they may hold personal data or secrets.
   */
  readonly recordContent?: boolean;
}
