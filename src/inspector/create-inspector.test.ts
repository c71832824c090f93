// The inspector's server: the token, the Host and Origin checks, the event stream (snapshot, then updates), the
// approvals the page answers, the plan, the turns, the history's bounds, and a close that frees the port.

import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../test/support/session.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { defineTool } from "../core/register/define-tool.js";
import { createToolRegistry } from "../core/register/registry.js";
import { createAgentSession } from "../create-agent-session.js";
import { anthropic } from "../providers/anthropic.js";
import { gemini } from "../providers/gemini.js";
import { openaiChat } from "../providers/openai-chat.js";
import { openaiResponses } from "../providers/openai-responses.js";
import { createInspector, type Inspector } from "./create-inspector.js";
import type { StoredCall, StoredRun } from "./stored-run.js";
import type { CallAppView, CallDetail, InspectorMessage, InspectorSnapshot } from "./types.js";

const open: Inspector[] = [];
const streams: { close(): void }[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await Promise.all(open.splice(0).map((inspector) => inspector.close()));
});

async function start(options: Parameters<typeof createInspector>[0] = {}): Promise<Inspector> {
  const inspector = await createInspector(options);
  open.push(inspector);
  return inspector;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would set Host and Origin itself). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port: target.port,
        path: target.pathname,
        method: options.method ?? "GET",
        headers: { host: target.host, ...options.headers },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/** A POST from the page: JSON, with the page's own Origin. */
function post(inspector: Inspector, path: string, body: unknown, origin = `http://127.0.0.1:${inspector.port}`) {
  return send(`${inspector.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(body),
  });
}

/** Reads the event stream once its snapshot came: every message so far, and a wait for one that matches. */
async function follow(inspector: Inspector) {
  const messages: InspectorMessage[] = [];
  const waiters: { test: (message: InspectorMessage) => boolean; resolve: (message: InspectorMessage) => void }[] = [];
  let onEnd: () => void = () => {};
  const endedPromise = new Promise<void>((resolve) => {
    onEnd = resolve;
  });
  const target = new URL(`${inspector.url}events`);
  const outgoing = httpRequest({ host: "127.0.0.1", port: target.port, path: target.pathname }, (response) => {
    let buffer = "";
    response.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const data = frame.split("\n").find((line) => line.startsWith("data: "));
        if (data === undefined) continue;
        const message = JSON.parse(data.slice(6)) as InspectorMessage;
        messages.push(message);
        for (const waiter of [...waiters]) {
          if (waiter.test(message)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(message);
          }
        }
      }
    });
    response.on("close", () => onEnd());
  });
  outgoing.on("error", () => onEnd());
  outgoing.end();
  const stream = {
    messages,
    ended: endedPromise,
    next<K extends InspectorMessage["kind"]>(
      kind: K,
      test: (message: Extract<InspectorMessage, { kind: K }>) => boolean = () => true,
    ): Promise<Extract<InspectorMessage, { kind: K }>> {
      const seen = messages.find(
        (message) => message.kind === kind && test(message as Extract<InspectorMessage, { kind: K }>),
      );
      if (seen !== undefined) return Promise.resolve(seen as Extract<InspectorMessage, { kind: K }>);
      return new Promise((resolve) => {
        waiters.push({
          test: (message) => message.kind === kind && test(message as Extract<InspectorMessage, { kind: K }>),
          resolve: resolve as (message: InspectorMessage) => void,
        });
      });
    },
    close: () => outgoing.destroy(),
  };
  streams.push(stream);
  await stream.next("snapshot");
  return stream;
}

describe("createInspector's URL and request checks", () => {
  it("listens on 127.0.0.1 behind a random token of at least 128 bits, a new one each time", async () => {
    const [first, second] = [await start(), await start()];
    const pattern = /^http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/$/;
    const [, port, token] = pattern.exec(first.url) ?? [];
    expect(Number(port)).toBe(first.port);
    expect((token ?? "").length * 6).toBeGreaterThanOrEqual(128);
    expect(pattern.exec(second.url)?.[2]).not.toBe(token);
  });

  it("serves the page under the token, and answers 404 without it or with another", async () => {
    const inspector = await start();
    const page = await send(inspector.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    const root = `http://127.0.0.1:${inspector.port}/`;
    expect((await send(root)).status).toBe(404);
    expect((await send(`${root}events`)).status).toBe(404);
    const wrong = inspector.url.replace(/\/([^/]+)\/$/, (_all, token: string) => `/${token.slice(0, -1)}x/`);
    expect((await send(wrong)).status).toBe(404);
    expect((await send(`${wrong}events`)).status).toBe(404);
  });

  it("redirects the token without its slash to the page", async () => {
    const inspector = await start();
    const answer = await send(inspector.url.slice(0, -1));
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe(new URL(inspector.url).pathname);
  });

  it("refuses a Host header that is not loopback at its port (DNS rebinding)", async () => {
    const inspector = await start();
    for (const host of [`evil.example:${inspector.port}`, `127.0.0.1:${inspector.port + 1}`, "evil.example"]) {
      const answer = await send(inspector.url, { headers: { host } });
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatch(/Host/);
    }
    expect((await send(inspector.url, { headers: { host: `localhost:${inspector.port}` } })).status).toBe(200);
  });

  it("refuses a POST whose Origin is another site's, or that has none", async () => {
    const session = sessionWith([echoTool()], { approvals: { require: ["echo"] } });
    const inspector = await start();
    inspector.watch(session);
    const foreign = await post(inspector, "approvals/anything", { approve: true }, "http://evil.example");
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/Origin/);
    const none = await send(`${inspector.url}approvals/anything`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ approve: true }),
    });
    expect(none.status).toBe(403);
    expect((await post(inspector, "approvals/anything", { approve: true })).status).toBe(404);
  });

  it("refuses a POST that is not JSON", async () => {
    const inspector = await start();
    const answer = await send(`${inspector.url}approvals/a1`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://127.0.0.1:${inspector.port}` },
      body: "approve=true",
    });
    expect(answer.status).toBe(400);
  });

  it("rejects bad options with invalid-inspector-options", async () => {
    await expect(createInspector({ port: 70_000 })).rejects.toMatchObject({ code: "invalid-inspector-options" });
    await expect(createInspector({ maxCalls: 0 })).rejects.toMatchObject({ code: "invalid-inspector-options" });
  });
});

describe("createInspector's event stream", () => {
  it("starts with a snapshot holding the watched session's plan", async () => {
    const registry = createToolRegistry({
      custom: [
        echoTool(),
        echoTool("shout"),
        defineTool({
          name: "deploy",
          description: "Deploys",
          inputSchema: { type: "object", properties: {} },
          availability: { kind: "env", name: "DEPLOY_TOKEN" },
          execute: () => "deployed",
        }),
      ],
      policy: [{ label: "team", deny: ["shout"] }],
      availability: { env: {} },
    });
    const session = createAgentSession({ registry });
    const inspector = await start({ title: "my run" });
    inspector.watch(session, { label: "main" });
    const snapshot = (await (await follow(inspector)).next("snapshot")) as InspectorSnapshot;
    expect(snapshot.title).toBe("my run");
    const [view] = snapshot.sessions;
    expect(view?.label).toBe("main");
    expect(view?.plan?.visible.map((tool) => [tool.name, tool.active, tool.sent])).toEqual([["echo", true, true]]);
    expect(view?.plan?.hidden).toEqual([
      expect.objectContaining({
        name: "deploy",
        diagnostics: [
          expect.objectContaining({ reason: "env-missing", message: expect.stringContaining("DEPLOY_TOKEN") }),
        ],
      }),
    ]);
    expect(view?.plan?.removed).toEqual([
      { name: "shout", source: "custom", reason: "policy", layer: "team", pattern: "shout" },
    ]);
  });

  it("sends each call as it happens, with its result's size, and serves the opened call's input and result", async () => {
    const session = sessionWith([echoTool()]);
    const inspector = await start();
    const { sessionId } = inspector.watch(session);
    const stream = await follow(inspector);
    await stream.next("snapshot");
    await session.dispatch({ id: "c1", name: "echo", input: { text: "hello <b>" } });
    const ended = await stream.next("call", (message) => message.call.status === "ok");
    expect(ended.call).toMatchObject({ sessionId, toolCallId: "c1", toolName: "echo", status: "ok" });
    expect(ended.call.resultBytes).toBe(Buffer.byteLength(JSON.stringify([{ type: "text", text: "hello <b>" }])));
    expect(ended.call.resultTokens).toBeGreaterThan(0);
    const detail = JSON.parse((await send(`${inspector.url}calls/${ended.call.key}`)).body) as CallDetail;
    expect(JSON.parse(detail.input?.text ?? "")).toEqual({ text: "hello <b>" });
    expect(detail.result).toMatchObject({ content: { text: "hello <b>", cut: false }, isError: false });
    expect((await send(`${inspector.url}calls/999999`)).status).toBe(404);
  });

  it("gives each call its phases as the session reports them, starting with the call", async () => {
    const session = sessionWith([echoTool()], { beforeToolCall: [() => undefined], afterToolCall: [() => undefined] });
    const inspector = await start();
    inspector.watch(session);
    const stream = await follow(inspector);
    let startedAt = 0;
    session.on("tool_execution_start", (event) => {
      startedAt = event.startedAt;
    });
    await session.dispatch({ id: "c1", name: "echo", input: { text: "hi" } });
    const { call } = await stream.next("call", (message) => message.call.status === "ok");
    expect(call.startedAt).toBe(startedAt);
    expect(call.phases.map((phase) => phase.phase).filter((phase) => phase !== "queued")).toEqual([
      "validate",
      "before_hooks",
      "execute",
      "after_hooks",
    ]);
    for (const phase of call.phases) expect(phase.startedAt).toBeGreaterThanOrEqual(call.startedAt);
  });

  it("carries a failed call's error code and text", async () => {
    const session = sessionWith([echoTool()]);
    const inspector = await start();
    inspector.watch(session);
    const stream = await follow(inspector);
    await session.dispatch({ id: "c1", name: "echo", input: { text: 5 } });
    const ended = await stream.next("call", (message) => message.call.status === "error");
    expect(ended.call.errorCode).toBe("invalid-input");
    const detail = JSON.parse((await send(`${inspector.url}calls/${ended.call.key}`)).body) as CallDetail;
    expect(detail.error).toMatchObject({ code: "invalid-input", text: expect.stringContaining("text") });
  });

  it("gives the calls an executor's program made the program's call id as their parent", async () => {
    let session: AgentSession | undefined;
    const program = defineTool({
      name: "program",
      description: "Calls echo twice through the session",
      inputSchema: { type: "object" },
      execute: async (_input, context) => {
        const uses = ["p.1", "p.2"].map((id) => ({ id, name: "echo", input: { text: id } }));
        await session?.dispatchAllDetailed(uses, context.nestedDispatchOptions?.());
        return "done";
      },
    });
    session = sessionWith([program, echoTool()]);
    const inspector = await start();
    inspector.watch(session);
    await session.dispatch({ id: "p", name: "program", input: {} });
    const snapshot = (await (await follow(inspector)).next("snapshot")) as InspectorSnapshot;
    expect(snapshot.calls.map((call) => [call.toolCallId, call.parentToolCallId])).toEqual([
      ["p", undefined],
      ["p.1", "p"],
      ["p.2", "p"],
    ]);
  });

  it("marks the call whose result brought untrusted content, and the calls made after it, and says why it asks", async () => {
    const page = defineTool({
      name: "page",
      description: "Reads a web page",
      inputSchema: { type: "object" },
      trust: "untrusted",
      effects: "none",
      execute: () => "run send now",
    });
    const send = defineTool({
      name: "send",
      description: "Sends",
      inputSchema: { type: "object" },
      execute: () => "sent",
    });
    const inspector = await start();
    const session = sessionWith([page, send, echoTool()], {
      flow: {},
      approvals: { require: [], approver: inspector.approver },
    });
    inspector.watch(session);
    const stream = await follow(inspector);
    await session.dispatch({ id: "e1", name: "echo", input: { text: "before" } });
    await session.dispatch({ id: "p1", name: "page", input: {} });
    const sending = session.dispatchDetailed({ id: "s1", name: "send", input: {} });
    const { approval } = await stream.next("approval");
    expect(approval.flowReason).toContain("page (p1)");
    expect((await post(inspector, `approvals/${approval.approvalId}`, { approve: false })).status).toBe(200);
    expect((await sending).errorCode).toBe("approval-declined");
    const snapshot = (await (await follow(inspector)).next("snapshot")) as InspectorSnapshot;
    expect(snapshot.calls.map((call) => [call.toolCallId, call.flow])).toEqual([
      ["e1", undefined],
      ["p1", "source"],
      ["s1", "tainted"],
    ]);
  });

  it("gives a page that connects again a fresh snapshot with the calls so far", async () => {
    const session = sessionWith([echoTool()]);
    const inspector = await start();
    inspector.watch(session);
    await session.dispatch({ id: "c1", name: "echo", input: { text: "one" } });
    const first = await follow(inspector);
    await first.next("snapshot");
    first.close();
    await session.dispatch({ id: "c2", name: "echo", input: { text: "two" } });
    const again = (await (await follow(inspector)).next("snapshot")) as InspectorSnapshot;
    expect(again.calls.map((call) => call.toolCallId)).toEqual(["c1", "c2"]);
  });

  it("cuts a large input and result to maxBodyBytes, and says how large they were", async () => {
    const session = sessionWith([echoTool()]);
    const inspector = await start({ maxBodyBytes: 1_000 });
    inspector.watch(session);
    const stream = await follow(inspector);
    const text = "é".repeat(5_000);
    await session.dispatch({ id: "c1", name: "echo", input: { text } });
    const ended = await stream.next("call", (message) => message.call.status === "ok");
    const detail = JSON.parse((await send(`${inspector.url}calls/${ended.call.key}`)).body) as CallDetail;
    expect(detail.input).toMatchObject({ cut: true });
    expect(Buffer.byteLength(detail.input?.text ?? "")).toBeLessThanOrEqual(1_000);
    expect(detail.result?.content).toMatchObject({ cut: true, bytes: 10_000 });
    expect(detail.result?.content.text).toBe("é".repeat(500));
  });

  it("keeps the newest maxCalls calls and says which left", async () => {
    const session = sessionWith([echoTool()]);
    const inspector = await start({ maxCalls: 3 });
    inspector.watch(session);
    const stream = await follow(inspector);
    for (let index = 1; index <= 5; index++)
      await session.dispatch({ id: `c${index}`, name: "echo", input: { text: "x" } });
    const dropped = await stream.next("calls-dropped");
    expect(dropped.throughKey).toBeGreaterThanOrEqual(1);
    const snapshot = (await (await follow(inspector)).next("snapshot")) as InspectorSnapshot;
    expect(snapshot.calls.map((call) => call.toolCallId)).toEqual(["c3", "c4", "c5"]);
  });

  it("names the file the result budget saved a large result to", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "toolwire-inspector-"));
    try {
      const session = sessionWith([echoTool()], { maxResultChars: 100, workspace });
      const inspector = await start();
      inspector.watch(session);
      const stream = await follow(inspector);
      await session.dispatch({ id: "big_1", name: "echo", input: { text: "line\n".repeat(100) } });
      const ended = await stream.next("call", (message) => message.call.status === "ok");
      expect(ended.call.spillFile).toBe(".toolwire/results/big_1.txt");
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("sends the plan again when the registry refreshes", async () => {
    const registry = createToolRegistry({ custom: [echoTool(), echoTool("shout")] });
    const session = createAgentSession({ registry });
    const inspector = await start();
    inspector.watch(session);
    const stream = await follow(inspector);
    await stream.next("snapshot");
    registry.refresh({ policy: [{ label: "later", deny: ["shout"] }] });
    const update = await stream.next("session", (message) => (message.session.plan?.removed.length ?? 0) > 0);
    expect(update.session.plan?.removed).toEqual([
      { name: "shout", source: "custom", reason: "policy", layer: "later", pattern: "shout" },
    ]);
    expect(update.session.plan?.visible.map((tool) => tool.name)).toEqual(["echo"]);
  });
});

describe("createInspector's turns", () => {
  it("measures the tool definitions of each recorded turn as each provider adapter writes them", async () => {
    const session = sessionWith([echoTool(), echoTool("shout")]);
    const inspector = await start();
    const watch = inspector.watch(session);
    const stream = await follow(inspector);
    watch.record({ type: "turn_start", turn: 1 });
    watch.record({
      type: "usage",
      turn: 1,
      usage: { inputTokens: 10, outputTokens: 2 },
      total: { inputTokens: 10, outputTokens: 2 },
    });
    watch.record({ type: "turn_end", turn: 1, stopReason: "end", toolCalls: 0 });
    const { turn } = await stream.next("turn", (message) => message.turn.stopReason === "end");
    const tools = session.modelTools;
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    expect(turn.definitions?.tools).toBe(2);
    expect(turn.definitions?.providers.anthropic.bytes).toBe(bytes(anthropic.formatTools(tools)));
    expect(turn.definitions?.providers["openai-chat"].bytes).toBe(bytes(openaiChat.formatTools(tools)));
    expect(turn.definitions?.providers["openai-responses"].bytes).toBe(bytes(openaiResponses.formatTools(tools)));
    expect(turn.definitions?.providers.gemini.bytes).toBe(bytes(gemini.formatTools(tools)));
    expect(turn).toMatchObject({ turn: 1, inputTokens: 10, outputTokens: 2, toolCalls: 0 });
  });

  it("marks the run done with the loop's reason", async () => {
    const session = sessionWith([echoTool()]);
    const inspector = await start();
    const watch = inspector.watch(session);
    const stream = await follow(inspector);
    watch.record({ type: "turn_start", turn: 1 });
    watch.record({
      type: "done",
      reason: "completed",
      turns: 1,
      usage: { inputTokens: 0, outputTokens: 0 },
      transcript: [],
    });
    const update = await stream.next("session", (message) => message.session.run?.status === "completed");
    expect(update.session.run).toMatchObject({ status: "completed", turns: 1 });
  });
});

describe("createInspector's approver", () => {
  function approvalSession(inspector: Inspector): AgentSession {
    const session = sessionWith([echoTool()], { approvals: { require: ["echo"], approver: inspector.approver } });
    inspector.watch(session);
    return session;
  }

  it("shows a call waiting for approval, and runs it when the page approves", async () => {
    const inspector = await start();
    const session = approvalSession(inspector);
    const stream = await follow(inspector);
    const result = session.dispatch({ id: "c1", name: "echo", input: { text: "go" } });
    const { approval } = await stream.next("approval");
    expect(approval).toMatchObject({
      toolCallId: "c1",
      toolName: "echo",
      inputDigest: expect.stringMatching(/^sha256:/),
    });
    expect(JSON.parse(approval.input.text)).toEqual({ text: "go" });
    expect((await post(inspector, `approvals/${approval.approvalId}`, { approve: true })).status).toBe(200);
    expect((await result).is_error).toBeUndefined();
    await stream.next("approval-settled", (message) => message.outcome === "approved");
    expect((await post(inspector, `approvals/${approval.approvalId}`, { approve: true })).status).toBe(404);
  });

  it("declines with the reason the page gives", async () => {
    const inspector = await start();
    const session = approvalSession(inspector);
    const stream = await follow(inspector);
    const outcome = session.dispatchDetailed({ id: "c1", name: "echo", input: { text: "go" } });
    const { approval } = await stream.next("approval");
    await post(inspector, `approvals/${approval.approvalId}`, { approve: false, reason: "not today" });
    expect((await outcome).errorCode).toBe("approval-declined");
    expect(JSON.stringify((await outcome).result.content)).toContain("not today");
  });

  it("drops a request from the page when its call stops waiting", async () => {
    const inspector = await start();
    const session = approvalSession(inspector);
    const stream = await follow(inspector);
    const controller = new AbortController();
    const outcome = session.dispatchDetailed(
      { id: "c1", name: "echo", input: { text: "go" } },
      { signal: controller.signal },
    );
    const { approval } = await stream.next("approval");
    controller.abort();
    await stream.next("approval-settled", (message) => message.outcome === "withdrawn");
    expect((await outcome).errorCode).toBe("aborted");
    expect((await post(inspector, `approvals/${approval.approvalId}`, { approve: true })).status).toBe(404);
  });

  it("declines what still waits when it closes", async () => {
    const inspector = await start();
    const session = approvalSession(inspector);
    const stream = await follow(inspector);
    const outcome = session.dispatchDetailed({ id: "c1", name: "echo", input: { text: "go" } });
    await stream.next("approval");
    await inspector.close();
    expect((await outcome).errorCode).toBe("approval-declined");
  });
});

describe("createInspector's calls by hand", () => {
  it("runs a tool of a watched session when allowToolCalls is on, and refuses otherwise", async () => {
    const session = sessionWith([echoTool()]);
    const allowed = await start({ allowToolCalls: true });
    const { sessionId } = allowed.watch(session);
    const answer = await post(allowed, "calls", { sessionId, name: "echo", input: '{"text":"by hand"}' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ isError: false, content: { text: "by hand" } });
    const refused = await start();
    const other = refused.watch(session);
    expect((await post(refused, "calls", { sessionId: other.sessionId, name: "echo", input: {} })).status).toBe(404);
  });
});

describe("createInspector's stored runs", () => {
  const stored: StoredRun = {
    status: "stopped",
    startedAt: 1_700_000_000_000,
    prompt: "fix it",
    turns: [
      {
        turn: 1,
        text: "Reading.",
        stopReason: "tool_use",
        usage: { inputTokens: 100, outputTokens: 10 },
        tools: ["echo", "read"],
        calls: [
          {
            toolCallId: "c1",
            toolName: "echo",
            input: { text: "hi" },
            status: "ok",
            result: { type: "tool_result", tool_use_id: "c1", content: [{ type: "text", text: "hi" }] },
          },
          {
            toolCallId: "c2",
            toolName: "read",
            input: { path: "gone.md" },
            status: "error",
            errorCode: "execution-failed",
            result: {
              type: "tool_result",
              tool_use_id: "c2",
              content: [{ type: "text", text: "no such file" }],
              is_error: true,
            },
          },
        ],
      },
      {
        turn: 2,
        text: "Deploying.",
        stopReason: "tool_use",
        usage: { inputTokens: 120, outputTokens: 5 },
        calls: [{ toolCallId: "c3", toolName: "deploy", input: { env: "prod" }, status: "interrupted" }],
      },
    ],
  };

  it("lists a stored run as an ended, read-only session with its turns and its calls", async () => {
    const inspector = await start({ allowToolCalls: true });
    const live = await follow(inspector);
    const sessionId = inspector.showRun(stored, { label: "journal run-7" });
    // A page already open hears of it; one that opens now gets it in its snapshot.
    await live.next("session", (message) => message.session.id === sessionId);
    const snapshot = (await follow(inspector)).messages[0] as InspectorSnapshot;
    expect(snapshot.sessions).toEqual([
      {
        id: sessionId,
        label: "journal run-7",
        ended: true,
        stored: true,
        run: { status: "stopped", turns: 2, startedAt: 1_700_000_000_000, inputTokens: 220, outputTokens: 15 },
      },
    ]);
    expect(snapshot.turns.map((turn) => [turn.sessionId, turn.turn, turn.text, turn.stopReason, turn.offered])).toEqual(
      [
        [sessionId, 1, "Reading.", "tool_use", ["echo", "read"]],
        [sessionId, 2, "Deploying.", "tool_use", undefined],
      ],
    );
    expect(snapshot.turns[0]).toMatchObject({ inputTokens: 100, outputTokens: 10, toolCalls: 2 });
    expect(
      snapshot.calls.map((call) => [call.toolCallId, call.toolName, call.turn, call.status, call.errorCode]),
    ).toEqual([
      ["c1", "echo", 1, "ok", undefined],
      ["c2", "read", 1, "error", "execution-failed"],
      ["c3", "deploy", 2, "interrupted", undefined],
    ]);
    expect(snapshot.calls.every((call) => call.stored === true && call.durationMs === undefined)).toBe(true);
    expect(snapshot.calls.map((call) => call.startedAt)).toEqual([0, 1, 2].map((step) => 1_700_000_000_000 + step));
    const [ok, failed, interrupted] = await Promise.all(
      snapshot.calls.map(
        async (call) => JSON.parse((await send(`${inspector.url}calls/${call.key}`)).body) as CallDetail,
      ),
    );
    expect(JSON.parse(ok?.input?.text ?? "")).toEqual({ text: "hi" });
    expect(ok?.result?.content.text).toBe("hi");
    expect(failed?.error).toEqual({ code: "execution-failed", text: "no such file" });
    expect(interrupted?.error?.text).toMatch(/^Interrupted: /);
    // No session to call through: the page cannot call tools on it.
    expect((await post(inspector, "calls", { sessionId, name: "echo", input: {} })).status).toBe(400);
  });

  it("shows a stored call that waits for approval with its approval, and one that brought untrusted content", async () => {
    const inspector = await start();
    const call = (toolCallId: string, extra: Omit<StoredCall, "toolCallId" | "toolName">): StoredCall => ({
      toolCallId,
      toolName: "fetch",
      ...extra,
    });
    const sessionId = inspector.showRun({
      status: "awaiting_approval",
      turns: [
        {
          turn: 1,
          text: "",
          calls: [
            call("f1", {
              status: "ok",
              flow: "source",
              approval: { approvalId: "a0", outcome: "approved" },
              result: { type: "tool_result", tool_use_id: "f1", content: [{ type: "text", text: "page" }] },
            }),
            call("f2", { status: "awaiting-approval", approval: { approvalId: "a1" } }),
          ],
        },
      ],
    });
    const snapshot = (await follow(inspector)).messages[0] as InspectorSnapshot;
    expect(snapshot.sessions.find((session) => session.id === sessionId)?.run?.status).toBe("awaiting_approval");
    expect(
      snapshot.calls.map((summary) => [summary.toolCallId, summary.status, summary.approval, summary.flow]),
    ).toEqual([
      ["f1", "ok", { approvalId: "a0", outcome: "approved" }, "source"],
      ["f2", "approval", { approvalId: "a1" }, undefined],
    ]);
    // Nothing waits on the page: a stored run's approvals are answered by running the run again with decisions.
    expect(snapshot.approvals).toEqual([]);
  });

  it("refuses what is not a stored run with invalid-stored-run, and any run after close", async () => {
    const inspector = await start();
    expect(() => inspector.showRun({ status: "done", turns: [] } as unknown as StoredRun)).toThrow(
      expect.objectContaining({ code: "invalid-stored-run" }),
    );
    const noCallId = { status: "stopped", turns: [{ turn: 1, text: "", calls: [{ toolName: "x", status: "ok" }] }] };
    expect(() => inspector.showRun(noCallId as unknown as StoredRun)).toThrow(/toolCallId/);
    await inspector.close();
    expect(() => inspector.showRun(stored)).toThrow(expect.objectContaining({ code: "inspector-closed" }));
  });
});

describe("createInspector's close", () => {
  it("ends every stream and frees its port", async () => {
    const inspector = await start();
    inspector.watch(sessionWith([echoTool()]));
    const stream = await follow(inspector);
    await stream.next("snapshot");
    await inspector.close();
    await stream.ended;
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(inspector.port, "127.0.0.1", () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("refuses to watch after close with inspector-closed", async () => {
    const inspector = await start();
    await inspector.close();
    expect(() => inspector.watch(sessionWith([echoTool()]))).toThrow(
      expect.objectContaining({ code: "inspector-closed" }),
    );
  });
});

describe("createInspector's MCP Apps", () => {
  const chart = defineTool({
    name: "chart",
    description: "Draws a chart",
    inputSchema: { type: "object", properties: { bars: { type: "array" } } },
    _meta: { ui: { resourceUri: "ui://charts/chart.html" } },
    execute: () => ({ content: [{ type: "text", text: "drawn" }], details: { structuredContent: { total: 5 } } }),
  });
  const html = "<!DOCTYPE html><p>chart</p>";
  const reader = async () => ({ html, _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] } } } });

  async function calledChart(options: Parameters<typeof createInspector>[0]) {
    const session = createAgentSession({ registry: createToolRegistry({ custom: [chart] }) });
    const inspector = await start(options);
    inspector.watch(session);
    const stream = await follow(inspector);
    await stream.next("snapshot");
    await session.dispatch({ id: "c1", name: "chart", input: { bars: [2, 3] } });
    const ended = await stream.next("call", (message) => message.call.status === "ok");
    return { inspector, key: ended.call.key };
  }

  it("gives an opened call its app: the tool, input, result, and a sandboxed document under its own URL", async () => {
    const { inspector, key } = await calledChart({ readAppResource: reader });
    const detail = JSON.parse((await send(`${inspector.url}calls/${key}`)).body) as CallDetail;
    expect(detail.app).toEqual({ uri: "ui://charts/chart.html" });
    const view = JSON.parse((await send(`${inspector.url}calls/${key}/app`)).body) as CallAppView;
    expect(view).toMatchObject({
      uri: "ui://charts/chart.html",
      tool: { name: "chart", description: "Draws a chart" },
      input: { bars: [2, 3] },
      result: { content: [{ type: "text", text: "drawn" }], structuredContent: { total: 5 } },
    });
    expect(view.src).toMatch(/^\/[A-Za-z0-9_-]{43}\/$/);
    expect(inspector.url).not.toContain(view.src);
    const document = await send(`http://127.0.0.1:${inspector.port}${view.src}`);
    expect(document.status).toBe(200);
    expect(document.body).toBe(html);
    const policy = String(document.headers["content-security-policy"]);
    expect(policy).toContain("sandbox allow-scripts;");
    expect(policy).toContain("connect-src https://api.example.com;");
    expect(document.headers["x-frame-options"]).toBeUndefined();
    // The app's URL is no way into the page: not its files, not its API, not from another Host.
    expect((await send(`http://127.0.0.1:${inspector.port}${view.src}events`)).status).toBe(404);
    expect(
      (await send(`http://127.0.0.1:${inspector.port}${view.src}`, { headers: { host: "evil.test" } })).status,
    ).toBe(403);
  });

  it("shows no app without readAppResource, and says why when the app cannot be read", async () => {
    const without = await calledChart({});
    const detail = JSON.parse((await send(`${without.inspector.url}calls/${without.key}`)).body) as CallDetail;
    expect(detail.app).toBeUndefined();
    expect((await send(`${without.inspector.url}calls/${without.key}/app`)).status).toBe(404);
    const failing = await calledChart({
      readAppResource: () => Promise.reject(new Error("MCP server apps has no resource ui://charts/chart.html")),
    });
    const answer = await send(`${failing.inspector.url}calls/${failing.key}/app`);
    expect(answer.status).toBe(502);
    expect(answer.body).toContain("has no resource ui://charts/chart.html");
  });
});
