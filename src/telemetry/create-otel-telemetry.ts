// A session's telemetry over OpenTelemetry (docs/telemetry.md): a span `execute_tool <name>` per call, following the
// GenAI semantic conventions, child spans for its phases and for what its executor starts, and a duration histogram.
// A tracer or meter that throws is ignored: telemetry never changes a call.
import type { CallTelemetry, CallTrace } from "../core/dispatch/call-watch.js";
import { cutText } from "../core/errors.js";
import type {
  SessionTelemetryOptions,
  TelemetryAttributes,
  TelemetrySpan,
  TelemetryTracer,
} from "../core/types/telemetry.js";
import type {
  AgentTool,
  ToolCallChildSpan,
  ToolCallErrorCode,
  ToolCallPhase,
  ToolCallSpan,
  ToolResult,
  TraceContext,
} from "../core/types.js";
import { loadOtelApi, type OtelApi } from "./load-otel-api.js";
import { readTraceparent, readTracestate, writeTraceContext } from "./trace-context.js";

/** The instrumentation scope of toolwire's spans and metrics. */
export const TELEMETRY_SCOPE = "toolwire";

/** The histogram of call durations, in seconds. */
export const TOOL_DURATION_METRIC = "gen_ai.execute_tool.duration";

/** OpenTelemetry's `SpanKind` and `SpanStatusCode`, as the numbers its API defines. */
const KIND_INTERNAL = 0;
const KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** The most characters of arguments or result text a span records (`recordContent`). */
const MAX_CONTENT_CHARS = 8192;
/** The most characters of a name (a model may write anything) on a span. */
const MAX_NAME_CHARS = 100;
/** Bucket bounds in seconds, as the GenAI conventions advise for operation durations. */
const DURATION_BUCKETS = [
  0.001, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 81.92,
];
/** Phases that are no child spans: checking the input, waiting and the executor's own time are the call span's. */
const UNSPANNED_PHASES: ReadonlySet<string> = new Set(["validate", "queued", "execute"]);

/** Telemetry over OpenTelemetry. Throws `MissingPeerDependencyError` when `@opentelemetry/api` is not installed. */
export function createOtelTelemetry(options: SessionTelemetryOptions): CallTelemetry {
  const api = loadOtelApi();
  const tracer = options.tracer ?? api.trace.getTracer(TELEMETRY_SCOPE);
  const meter = options.meter ?? api.metrics.getMeter(TELEMETRY_SCOPE);
  const durations = meter.createHistogram(TOOL_DURATION_METRIC, {
    description: "How long tool calls took, from dispatch to result",
    unit: "s",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const recordContent = options.recordContent === true;
  return {
    begin(call, tool, parent) {
      try {
        const parentContext = remoteParent(api, parent) ?? api.context.active();
        const name = cutText(call.name, MAX_NAME_CHARS);
        // The call's identity, on its span and on its duration measurement alike.
        const identity: TelemetryAttributes = {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": name,
          "gen_ai.tool.type": toolType(tool),
        };
        const attributes: Record<string, string | number | boolean> = { ...identity };
        if (call.id !== "") attributes["gen_ai.tool.call.id"] = cutText(call.id, MAX_NAME_CHARS);
        const description = tool?.descriptor.description;
        if (description !== undefined && description !== "") {
          attributes["gen_ai.tool.description"] = cutText(description, 1000);
        }
        const span = tracer.startSpan(
          `execute_tool ${name}`,
          { kind: KIND_INTERNAL, attributes, startTime: epochMs(call.started) },
          parentContext,
        );
        if (recordContent) span.setAttribute("gen_ai.tool.call.arguments", argumentsText(call.input));
        const context = api.trace.setSpan(parentContext, span);
        const measure = (seconds: number, errorType: string | undefined) =>
          durations.record(seconds, errorType === undefined ? identity : { ...identity, "error.type": errorType });
        return new OtelCallTrace(api, tracer, span, context, call.started, measure, recordContent);
      } catch {
        return NO_TRACE;
      }
    },
  };
}

function toolType(tool: AgentTool | undefined): "extension" | "function" {
  return tool?.descriptor.owner.kind === "mcp" ? "extension" : "function";
}

/** The context of a caller's span in another process, or `undefined` for none or a malformed one. */
function remoteParent(api: OtelApi, parent: TraceContext | undefined): unknown {
  if (parent === undefined) return undefined;
  const identity = readTraceparent(parent.traceparent);
  if (identity === undefined) return undefined;
  const tracestate = readTracestate(parent.tracestate);
  const traceState = tracestate === undefined ? undefined : api.trace.createTraceState?.(tracestate);
  const remote = api.trace.wrapSpanContext(traceState === undefined ? identity : { ...identity, traceState });
  return api.trace.setSpan(api.context.active(), remote);
}

function epochMs(performanceMs: number): number {
  return performance.timeOrigin + performanceMs;
}

function traceContextOf(span: TelemetrySpan): TraceContext {
  const identity = span.spanContext();
  return writeTraceContext(identity, identity.traceState?.serialize());
}

function markFailed(span: TelemetrySpan, errorType: string, message?: string): void {
  span.setAttribute("error.type", errorType);
  span.setStatus(message === undefined ? { code: STATUS_ERROR } : { code: STATUS_ERROR, message });
}

class OtelCallTrace implements CallTrace, ToolCallSpan {
  readonly span: ToolCallSpan = this;

  constructor(
    private readonly api: OtelApi,
    private readonly tracer: TelemetryTracer,
    private readonly callSpan: TelemetrySpan,
    /** The OpenTelemetry context holding the call's span: the parent of its children. */
    private readonly context: unknown,
    private readonly started: number,
    /** Records the call's duration in the histogram. */
    private readonly measure: (seconds: number, errorType: string | undefined) => void,
    private readonly recordContent: boolean,
  ) {}

  phase(phase: ToolCallPhase, start: number, end: number, errorCode: ToolCallErrorCode | undefined): void {
    if (UNSPANNED_PHASES.has(phase)) return;
    try {
      const child = this.tracer.startSpan(
        `toolwire.${cutText(phase, MAX_NAME_CHARS)}`,
        { kind: KIND_INTERNAL, attributes: { "toolwire.phase": phase }, startTime: epochMs(start) },
        this.context,
      );
      if (errorCode !== undefined) markFailed(child, errorCode);
      child.end(epochMs(end));
    } catch {
      // a tracer that throws records nothing
    }
  }

  enter<T>(work: () => T): T {
    let entered = false;
    try {
      return this.api.context.with(this.context, () => {
        entered = true;
        return work();
      });
    } catch (error) {
      if (entered) throw error; // the executor's own throw, which the executor's runner answers
      return work();
    }
  }

  end(result: ToolResult, errorCode: ToolCallErrorCode | undefined, end: number, paused: boolean): void {
    const errorType = errorCode ?? (result.isError === true && !paused ? "tool-error" : undefined);
    try {
      const span = this.callSpan;
      if (paused) span.setAttribute("toolwire.approval.pending", true);
      if (errorType !== undefined) markFailed(span, errorType, cutText(resultText(result), 500));
      if (this.recordContent && !paused) span.setAttribute("gen_ai.tool.call.result", resultText(result));
      span.end(epochMs(end));
      this.measure((end - this.started) / 1000, errorType);
    } catch {
      // as in phase
    }
  }

  startChild(
    name: string,
    options?: { readonly kind?: "client" | "internal"; readonly attributes?: TelemetryAttributes },
  ): ToolCallChildSpan {
    try {
      const child = this.tracer.startSpan(
        cutText(String(name), MAX_NAME_CHARS),
        {
          kind: options?.kind === "client" ? KIND_CLIENT : KIND_INTERNAL,
          ...(options?.attributes === undefined ? {} : { attributes: options.attributes }),
        },
        this.context,
      );
      return new OtelChildSpan(child);
    } catch {
      return NO_CHILD;
    }
  }

  traceContext(): TraceContext {
    return traceContextOf(this.callSpan);
  }
}

class OtelChildSpan implements ToolCallChildSpan {
  #ended = false;
  constructor(private readonly span: TelemetrySpan) {}

  traceContext(): TraceContext {
    return traceContextOf(this.span);
  }

  setAttribute(key: string, value: string | number | boolean): void {
    if (this.#ended) return;
    try {
      this.span.setAttribute(key, value);
    } catch {
      // as in phase
    }
  }

  end(errorType?: string): void {
    if (this.#ended) return;
    this.#ended = true;
    try {
      if (errorType !== undefined) markFailed(this.span, errorType);
      this.span.end();
    } catch {
      // as in phase
    }
  }
}

/** The arguments as the model wrote them, as JSON text (cut); a value that is not JSON, described. */
function argumentsText(input: unknown): string {
  try {
    return cutText(typeof input === "string" ? input : (JSON.stringify(input) ?? "undefined"), MAX_CONTENT_CHARS);
  } catch {
    return "(not JSON)";
  }
}

function resultText(result: ToolResult): string {
  const texts: string[] = [];
  let length = 0;
  for (const block of result.content) {
    if (block.type !== "text") continue;
    texts.push(block.text);
    length += block.text.length;
    if (length > MAX_CONTENT_CHARS) break;
  }
  return cutText(texts.join("\n"), MAX_CONTENT_CHARS);
}

/** A trace context that names no span: all zeros is invalid, so a receiver starts a trace of its own. */
const NO_TRACE_CONTEXT: TraceContext = { traceparent: `00-${"0".repeat(32)}-${"0".repeat(16)}-00` };

const NO_CHILD: ToolCallChildSpan = {
  traceContext: () => NO_TRACE_CONTEXT,
  setAttribute: () => {},
  end: () => {},
};

/** The trace of a call whose span could not be started: it records nothing. */
const NO_TRACE: CallTrace = {
  span: { startChild: () => NO_CHILD, traceContext: () => NO_TRACE_CONTEXT },
  phase: () => {},
  enter: (work) => work(),
  end: () => {},
};
