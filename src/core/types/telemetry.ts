// A call's span as its executor sees it, and the W3C trace context it passes on.

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
      readonly attributes?: Readonly<Record<string, string | number | boolean>>;
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
