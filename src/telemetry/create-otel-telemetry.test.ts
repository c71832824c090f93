// Telemetry (docs/telemetry.md) against the real OpenTelemetry SDK: spans, their attributes, parent/child links,
// errors, the duration histogram.
import { context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deferred, echoTool, sessionWith, textOf } from "../../test/support/session.js";
import type { AgentSessionOptions } from "../core/dispatch/session.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { AgentTool, ToolCallContext } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { connectMcpServer, serveMcp } from "../mcp/api.js";

const SPAN_KIND_INTERNAL = 0;
const SPAN_KIND_CLIENT = 2;
const STATUS_UNSET = 0;
const STATUS_ERROR = 2;

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("toolwire-test");
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const metricReader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [metricReader] });
const meter = meterProvider.getMeter("toolwire-test");
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
  await meterProvider.shutdown();
});
afterEach(() => exporter.reset());

function telemetrySession(tools: AgentTool[], options: Omit<AgentSessionOptions, "registry" | "telemetry"> = {}) {
  return sessionWith(tools, { ...options, telemetry: { tracer, meter } });
}

function spanNamed(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((span) => span.name === name);
  expect(found.map((span) => span.name)).toEqual([name]);
  return found[0] as ReadableSpan;
}

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

const failing = defineTool({
  name: "fails",
  description: "Always throws",
  inputSchema: { type: "object" },
  execute: () => {
    throw new Error("boom");
  },
});

const answersWithError = defineTool({
  name: "refuses",
  description: "Answers with an error result",
  inputSchema: { type: "object" },
  execute: () => ({ content: [{ type: "text", text: "nope" }], isError: true }),
});

describe("a call's span", () => {
  it("is execute_tool <name>, INTERNAL, with the GenAI attributes and no error", async () => {
    const session = telemetrySession([echoTool()]);
    const block = await session.dispatch({ id: "call-1", name: "echo", input: { text: "hi" } });
    expect(textOf(block)).toBe("hi");
    const span = spanNamed("execute_tool echo");
    expect(span.kind).toBe(SPAN_KIND_INTERNAL);
    expect(span.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "echo",
      "gen_ai.tool.call.id": "call-1",
      "gen_ai.tool.type": "function",
      "gen_ai.tool.description": "Echoes its text back",
    });
    expect(span.attributes["error.type"]).toBeUndefined();
    expect(span.status.code).toBe(STATUS_UNSET);
  });

  it("leaves the arguments and the result out unless recordContent asks", async () => {
    await telemetrySession([echoTool()]).dispatch({ id: "a", name: "echo", input: { text: "secret" } });
    const plain = spanNamed("execute_tool echo");
    expect(plain.attributes["gen_ai.tool.call.arguments"]).toBeUndefined();
    expect(plain.attributes["gen_ai.tool.call.result"]).toBeUndefined();
    exporter.reset();
    const session = sessionWith([echoTool()], { telemetry: { tracer, meter, recordContent: true } });
    await session.dispatch({ id: "b", name: "echo", input: { text: "shown" } });
    const recorded = spanNamed("execute_tool echo");
    expect(recorded.attributes["gen_ai.tool.call.arguments"]).toBe('{"text":"shown"}');
    expect(recorded.attributes["gen_ai.tool.call.result"]).toBe("shown");
  });

  it("a refused call has one too, with status ERROR and error.type the error code", async () => {
    await telemetrySession([echoTool()]).dispatch({ id: "x", name: "nope", input: {} });
    const span = spanNamed("execute_tool nope");
    expect(span.status.code).toBe(STATUS_ERROR);
    expect(span.attributes["error.type"]).toBe("tool-not-found");
    await telemetrySession([echoTool()]).dispatch({ id: "y", name: "echo", input: { text: 3 } });
    expect(spanNamed("execute_tool echo").attributes["error.type"]).toBe("invalid-input");
  });

  it("an executor that throws is execution-failed; a result the tool marks isError is tool-error", async () => {
    const session = telemetrySession([failing, answersWithError]);
    await session.dispatchAll([
      { id: "1", name: "fails", input: {} },
      { id: "2", name: "refuses", input: {} },
    ]);
    expect(spanNamed("execute_tool fails").attributes["error.type"]).toBe("execution-failed");
    const refused = spanNamed("execute_tool refuses");
    expect(refused.attributes["error.type"]).toBe("tool-error");
    expect(refused.status).toEqual({ code: STATUS_ERROR, message: "nope" });
  });

  it("a call that times out is timeout", async () => {
    const hangs = defineTool({
      name: "hangs",
      description: "Never ends",
      inputSchema: { type: "object" },
      timeoutMs: 20,
      execute: () => new Promise<string>(() => {}),
    });
    await telemetrySession([hangs]).dispatch({ id: "t", name: "hangs", input: {} });
    expect(spanNamed("execute_tool hangs").attributes["error.type"]).toBe("timeout");
  });

  it("lasts from the dispatch to the result", async () => {
    const slow = defineTool({
      name: "slow",
      description: "Takes 30 ms",
      inputSchema: { type: "object" },
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve("done"), 30)),
    });
    await telemetrySession([slow]).dispatch({ id: "s", name: "slow", input: {} });
    const span = spanNamed("execute_tool slow");
    const ms = span.duration[0] * 1000 + span.duration[1] / 1e6;
    expect(ms).toBeGreaterThanOrEqual(25);
    expect(ms).toBeLessThan(2_000);
  });
});

describe("child spans", () => {
  it("hooks are children of the call's span, and a block is their error too", async () => {
    const session = telemetrySession([echoTool()], {
      beforeToolCall: [(call) => (call.input.text === "stop" ? { block: true, reason: "no" } : undefined)],
      afterToolCall: [() => undefined],
    });
    await session.dispatch({ id: "h1", name: "echo", input: { text: "go" } });
    const call = spanNamed("execute_tool echo");
    const before = spanNamed("toolwire.before_hooks");
    const after = spanNamed("toolwire.after_hooks");
    expect(parentOf(before)).toBe(call.spanContext().spanId);
    expect(parentOf(after)).toBe(call.spanContext().spanId);
    expect(before.spanContext().traceId).toBe(call.spanContext().traceId);
    exporter.reset();
    await session.dispatch({ id: "h2", name: "echo", input: { text: "stop" } });
    expect(spanNamed("toolwire.before_hooks").attributes["error.type"]).toBe("blocked-by-hook");
    expect(spanNamed("execute_tool echo").attributes["error.type"]).toBe("blocked-by-hook");
  });

  it("the wait for a person's approval is a child span; a decline is its error", async () => {
    const asked = deferred();
    let answer: (approve: boolean) => void = () => {};
    const session = telemetrySession([echoTool()], {
      approvals: {
        require: ["echo"],
        approver: () =>
          new Promise((resolve) => {
            answer = (approve) => resolve(approve ? { approve: true } : { approve: false, reason: "no" });
            asked.resolve();
          }),
      },
    });
    const running = session.dispatch({ id: "a1", name: "echo", input: { text: "hi" } });
    await asked.promise;
    await new Promise((resolve) => setTimeout(resolve, 15));
    answer(false);
    await running;
    const approval = spanNamed("toolwire.approval");
    expect(parentOf(approval)).toBe(spanNamed("execute_tool echo").spanContext().spanId);
    expect(approval.attributes["error.type"]).toBe("approval-declined");
    expect(approval.duration[0] * 1000 + approval.duration[1] / 1e6).toBeGreaterThanOrEqual(10);
  });

  it("an executor runs inside its call's span, and can start children of it", async () => {
    let active: string | undefined;
    const works = defineTool({
      name: "works",
      description: "Starts a span of its own",
      inputSchema: { type: "object" },
      execute: async (_input, call: ToolCallContext) => {
        await Promise.resolve();
        active = trace.getActiveSpan()?.spanContext().spanId;
        const child = call.span?.startChild("lookup", { kind: "client", attributes: { "db.system.name": "redis" } });
        child?.end("connection-refused");
        return "ok";
      },
    });
    await telemetrySession([works]).dispatch({ id: "w", name: "works", input: {} });
    const call = spanNamed("execute_tool works");
    expect(active).toBe(call.spanContext().spanId);
    const child = spanNamed("lookup");
    expect(parentOf(child)).toBe(call.spanContext().spanId);
    expect(child.kind).toBe(SPAN_KIND_CLIENT);
    expect(child.attributes).toMatchObject({ "db.system.name": "redis", "error.type": "connection-refused" });
  });
});

describe("nested calls", () => {
  it("a call made with the executor's nestedDispatchOptions is a child of its call's span, with no active context", async () => {
    let session: ReturnType<typeof telemetrySession> | undefined;
    const program = defineTool({
      name: "program",
      description: "Calls echo through the session, as code mode's run_code does",
      inputSchema: { type: "object" },
      // Code mode answers a program's calls from a worker's messages, where the async context is lost: ROOT_CONTEXT.
      execute: (_input, callContext) =>
        context.with(ROOT_CONTEXT, () =>
          session
            ?.dispatch({ id: "p.1", name: "echo", input: { text: "x" } }, callContext.nestedDispatchOptions?.())
            .then(textOf),
        ) ?? "",
    });
    session = telemetrySession([program, echoTool()]);
    await session.dispatch({ id: "p", name: "program", input: {} });
    const outer = spanNamed("execute_tool program");
    const nested = spanNamed("execute_tool echo");
    expect(parentOf(nested)).toBe(outer.spanContext().spanId);
    expect(nested.spanContext().traceId).toBe(outer.spanContext().traceId);
  });
});

describe("trace context across processes", () => {
  it("a call given a traceparent continues that trace; a malformed one starts a new trace", async () => {
    const session = telemetrySession([echoTool()]);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    await session.dispatch({ id: "r", name: "echo", input: { text: "x" } }, { traceContext: { traceparent } });
    const span = spanNamed("execute_tool echo");
    expect(span.spanContext().traceId).toBe(traceId);
    expect(parentOf(span)).toBe("00f067aa0ba902b7");
    exporter.reset();
    await session.dispatch({ id: "m", name: "echo", input: { text: "x" } }, { traceContext: { traceparent: "junk" } });
    expect(spanNamed("execute_tool echo").spanContext().traceId).not.toBe(traceId);
  });

  it("an MCP call is a client span whose context the served session continues: one trace end to end", async () => {
    const served = await serveMcp(
      createAgentSession({ registry: createToolRegistry({ custom: [echoTool()] }), telemetry: { tracer, meter } }),
      {
        transport: "http",
        port: 0,
      },
    );
    const connection = await connectMcpServer({ id: "inner", url: served.url as string });
    try {
      const session = createAgentSession({
        registry: createToolRegistry({ extensions: [connection] }),
        telemetry: { tracer, meter },
      });
      const [name] = session.activeToolNames;
      const block = await session.dispatch({ id: "m1", name: name as string, input: { text: "through" } });
      expect(textOf(block)).toBe("through");
      const outer = spanNamed(`execute_tool ${name}`);
      expect(outer.attributes["gen_ai.tool.type"]).toBe("extension");
      const client = spanNamed("tools/call echo");
      expect(client.kind).toBe(SPAN_KIND_CLIENT);
      expect(client.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo" });
      expect(parentOf(client)).toBe(outer.spanContext().spanId);
      const inner = spanNamed("execute_tool echo");
      expect(inner.spanContext().traceId).toBe(outer.spanContext().traceId);
      expect(parentOf(inner)).toBe(client.spanContext().spanId);
    } finally {
      await connection.close();
      await served.close();
    }
  });

  it("a served call takes the trace context from the HTTP request's traceparent when _meta has none", async () => {
    const served = await serveMcp(
      createAgentSession({ registry: createToolRegistry({ custom: [echoTool()] }), telemetry: { tracer, meter } }),
      { transport: "http", port: 0 },
    );
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const connection = await connectMcpServer({
      id: "inner",
      url: served.url as string,
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    try {
      const session = createAgentSession({ registry: createToolRegistry({ extensions: [connection] }) });
      const [name] = session.activeToolNames;
      await session.dispatch({ id: "h1", name: name as string, input: { text: "x" } });
      const inner = spanNamed("execute_tool echo");
      expect(inner.spanContext().traceId).toBe(traceId);
      expect(parentOf(inner)).toBe("b7ad6b7169203331");
    } finally {
      await connection.close();
      await served.close();
    }
  });
});

describe("the duration histogram", () => {
  it("records gen_ai.execute_tool.duration in seconds, with the tool and the error type", async () => {
    const session = telemetrySession([echoTool(), failing]);
    await session.dispatchAll([
      { id: "1", name: "echo", input: { text: "a" } },
      { id: "2", name: "echo", input: { text: "b" } },
      { id: "3", name: "fails", input: {} },
    ]);
    await metricReader.forceFlush();
    const metrics = metricExporter
      .getMetrics()
      .at(-1)
      ?.scopeMetrics.flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === "gen_ai.execute_tool.duration");
    expect(metrics?.descriptor.unit).toBe("s");
    const points = metrics?.dataPoints ?? [];
    const echo = points.find((point) => point.attributes["gen_ai.tool.name"] === "echo");
    const fails = points.find((point) => point.attributes["gen_ai.tool.name"] === "fails");
    expect((echo?.value as { count: number } | undefined)?.count).toBeGreaterThanOrEqual(2);
    expect(echo?.attributes["error.type"]).toBeUndefined();
    expect(fails?.attributes).toMatchObject({
      "error.type": "execution-failed",
      "gen_ai.operation.name": "execute_tool",
    });
    expect((fails?.value as { max: number } | undefined)?.max).toBeLessThan(5);
  });
});

describe("a broken tracer", () => {
  it("changes nothing about the calls", async () => {
    const throwing = {
      startSpan: () => {
        throw new Error("tracer down");
      },
    };
    const session = sessionWith([echoTool()], { telemetry: { tracer: throwing, meter } });
    expect(textOf(await session.dispatch({ id: "b", name: "echo", input: { text: "still" } }))).toBe("still");
  });

  it("a span whose methods throw changes nothing either", async () => {
    const span = {
      spanContext: () => {
        throw new Error("x");
      },
      setAttribute: () => {
        throw new Error("x");
      },
      setStatus: () => {
        throw new Error("x");
      },
      end: () => {
        throw new Error("x");
      },
    };
    const session = sessionWith([failing], { telemetry: { tracer: { startSpan: () => span }, meter } });
    const block = await session.dispatch({ id: "b", name: "fails", input: {} });
    expect(block.is_error).toBe(true);
    expect(textOf(block)).toContain("boom");
  });
});
