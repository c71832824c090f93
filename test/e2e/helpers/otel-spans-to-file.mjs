// Loaded with `node --import` by the CLI telemetry test: registers the OpenTelemetry SDK as a user would, with an
// exporter that writes each finished span as a JSON line to the file $TOOLWIRE_TEST_SPANS.
import { appendFileSync } from "node:fs";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

const file = process.env.TOOLWIRE_TEST_SPANS;
const exporter = {
  export(spans, done) {
    for (const span of spans) {
      const line = {
        name: span.name,
        kind: span.kind,
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        status: span.status,
        attributes: span.attributes,
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
    }
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
