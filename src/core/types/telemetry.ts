// The telemetry vocabulary: a call's span as its executor sees it, the W3C trace context it passes on, and the shapes
// a session takes from OpenTelemetry, written structurally: toolwire's declarations never import the optional
// `@opentelemetry/api`, and any tracer and meter of its 1.x API fit them.

/** The span of one call, as its executor sees it (`context.span`): for child spans and trace propagation. */
export interface ToolCallSpan {
  /**
   * Starts a child span of the call's span (kind `client` for a request to another process, else `internal`).
   * End it with `end`, giving the error type when the work failed.
   */
  startChild(
    name: string,
    options?: {
      readonly kind?: "client" | "internal";
      readonly attributes?: TelemetryAttributes;
    },
  ): ToolCallChildSpan;
  /** The W3C trace context (`traceparent`, and `tracestate` when there is one) naming the call's span as parent. */
  traceContext(): TraceContext;
}

/** A child span of a call (`ToolCallSpan.startChild`). */
export interface ToolCallChildSpan {
  /** The W3C trace context naming this span as parent, for the process it calls. */
  traceContext(): TraceContext;
  setAttribute(key: string, value: string | number | boolean): void;
  /** Ends the span: with `errorType`, its status is ERROR and `error.type` is set. Later calls do nothing. */
  end(errorType?: string): void;
}

/** W3C trace context headers, as they travel in MCP's `_meta` or in HTTP headers. */
export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

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
