// createInspector: a local web page of sessions' plans, calls, turns and approvals, served on loopback behind a token.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { AgentSession } from "../core/dispatch/session.js";
import { describeThrown } from "../core/errors.js";
import { isRecord } from "../core/json.js";
import { contentBlockAsText } from "../core/tool-result.js";
import type { ApprovalOptions, JsonObject, ToolDescriptor } from "../core/types.js";
import type { AgentEvent } from "../loop/types.js";
import { appResourceUriOf } from "../mcp/client/mcp-app.js";
import { appContentPolicy } from "./app-content-policy.js";
import { callAppView } from "./call-app-view.js";
import { checkInspectorRequest } from "./check-inspector-request.js";
import { createInspectorState } from "./create-inspector-state.js";
import { cutText, DEFAULT_MAX_PAGE_BYTES } from "./cut-for-page.js";
import { InspectorError } from "./errors.js";
import { loadPageFiles, type PageFile } from "./load-page-files.js";
import { type EventStream, openEventStream } from "./open-event-stream.js";
import type { StoredRun } from "./stored-run.js";
import type { CallDetail } from "./types.js";

/** Everything `createInspector` takes. */
export interface InspectorOptions {
  /** The loopback port to listen on. Default 0: any free port. */
  readonly port?: number;
  /** The page's title. Default `"toolwire inspector"`. */
  readonly title?: string;
  /**
   * The most calls (and turns) the page keeps; the oldest leave first. Default `DEFAULT_INSPECTOR_MAX_CALLS` (1000).
   */
  readonly maxCalls?: number;
  /** The most bytes of one call's input, result or details kept for the page; longer ones are cut. Default 65 536. */
  readonly maxBodyBytes?: number;
  /**
   * Let the page call a watched session's tools by hand (through `session.dispatchDetailed`, with the session's
   * hooks, policy and approvals). Default false: the page only looks, and answers approvals.
   */
  readonly allowToolCalls?: boolean;
  /**
   * Reads the MCP App (`ui://` resource) a watched tool names in `_meta.ui` (docs/inspector.md#apps); for bridged
   * tools, `readAppFromConnections(connections)` of `toolwire/mcp`. With it an opened call of such a tool shows its
   * app in a sandboxed frame, given the call's input and result. Without it, no app is shown.
   */
  readonly readAppResource?: (
    tool: ToolDescriptor,
    uri: string,
  ) => Promise<{ readonly html: string; readonly _meta?: JsonObject }>;
}

/** What `watch` takes. */
export interface InspectorWatchOptions {
  /** The session's name on the page. Default `session`, then `session 2`, ... */
  readonly label?: string;
}

/** A session the inspector follows. */
export interface InspectorWatch {
  /** The session's id on the page. */
  readonly sessionId: string;
  /**
   * Follows a loop over this session: pass every event `runAgent` or `resumeAgent` yields. From it the page shows
   * each turn (the tool definitions sent, per provider, in bytes and estimated tokens; the model's usage; how it
   * ended), the calls' turns, and how the run stands. Never throws.
   */
  record(event: AgentEvent): void;
  /** Stops following the session; what the page shows of it stays, marked ended. Idempotent. */
  stop(): void;
}

/** A running inspector. Call `close()` when done. */
export interface Inspector {
  /** The page: `http://127.0.0.1:<port>/<token>/`. Anyone with the URL can see the page and answer approvals. */
  readonly url: string;
  readonly port: number;
  /**
   * An approver (the shape of `ApprovalOptions["approver"]`) whose requests wait on the page, with approve and
   * decline buttons, until a person answers there, the request's signal aborts (it is dropped from the page and
   * declined), or the inspector closes (declined).
   */
  readonly approver: NonNullable<ApprovalOptions["approver"]>;
  /**
   * Follows a session: its plan (refreshed when the registry refreshes or the active tools change), its calls
   * (each with its phases, input, result and error) and its approvals. Several sessions may be watched.
   * Throws `InspectorError` `inspector-closed` after `close()`.
   */
  watch(session: AgentSession, options?: InspectorWatchOptions): InspectorWatch;
  /**
   * Shows a run read back from where it was kept (`buildJournalRunView`, `buildRecordingRunView`) as a session of
   * its own, labelled `options.label` (default `stored run`): ended and read-only (no plan, no calls by hand), with
   * its turns and its calls (inputs, results, error codes; a call with no outcome kept is `interrupted`) as a
   * followed run's are shown, but no times (the calls are drawn in order). Returns its session id on the page.
   * Throws `InspectorError` `invalid-stored-run` when `run` is not a stored run, `inspector-closed` after `close()`.
   */
  showRun(run: StoredRun, options?: InspectorWatchOptions): string;
  /** Ends every stream, declines the approvals still waiting, stops following the sessions and closes the server. */
  close(): Promise<void>;
}

/** How many calls (and turns) the page keeps by default. */
export const DEFAULT_INSPECTOR_MAX_CALLS = 1_000;

/** The bytes of bodies (inputs, results, details) the whole history keeps before the oldest are dropped. */
const MAX_TOTAL_BODY_BYTES = 32 * 1024 * 1024;
const MAX_STREAMS = 64;
const MAX_REQUEST_BYTES = 1024 * 1024;
/** The apps' documents kept for their frames; the oldest goes first (its frame then shows "Not found"). */
const MAX_APP_DOCUMENTS = 50;
const HEARTBEAT_MS = 15_000;
const MAX_BUFFERED_STREAM_BYTES = 16 * 1024 * 1024;
const FLUSH_MS = 25;

const PAGE_FOLDER = fileURLToPath(new URL("./page/", import.meta.url));

const SECURITY_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Resource-Policy": "same-origin",
} as const;
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Starts an inspector: an HTTP server on 127.0.0.1 (never another address) whose every URL begins with a random
 * token of 256 bits (`url`). It refuses a request with a wrong or missing token (404), a Host header other than
 * 127.0.0.1, localhost or [::1] at its port (403: DNS rebinding), and a request that changes something (a POST) whose
 * Origin is not the page's own (403). It serves the built page, and `events`, a stream of Server-Sent Events: a
 * snapshot of everything first, then updates as calls happen (a page that reconnects gets a fresh snapshot).
 * Rejects with `InspectorError` `invalid-inspector-options` on bad options, or with the listen error.
 */
export async function createInspector(options: InspectorOptions = {}): Promise<Inspector> {
  const settings = readOptions(options);
  const token = randomBytes(32).toString("base64url");
  const files = loadPageFiles(PAGE_FOLDER);
  const state = createInspectorState({
    title: settings.title,
    canCall: settings.allowToolCalls,
    maxCalls: settings.maxCalls,
    maxBodyBytes: settings.maxBodyBytes,
    maxTotalBytes: MAX_TOTAL_BODY_BYTES,
    flushMs: FLUSH_MS,
  });
  const streams = new Set<EventStream>();
  const calls = new AbortController();
  let closed = false;
  let nextManualCall = 1;
  let port = 0;
  /** The apps' documents by their own random ids: a frame's URL is `/<id>/`, outside the page's token. */
  const appDocuments = new Map<string, { readonly html: string; readonly policy: string }>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const first = /^\/([A-Za-z0-9_-]{43})\//.exec(request.url ?? "")?.[1];
    const document = first === undefined ? undefined : appDocuments.get(first);
    if (first !== undefined && document !== undefined) {
      const appCheck = checkInspectorRequest(request, { token: first, port });
      if (!appCheck.ok) return sendText(response, appCheck.status, appCheck.message);
      if (request.method !== "GET" || appCheck.path !== "") return sendText(response, 404, "Not found");
      return sendAppDocument(response, document);
    }
    const check = checkInspectorRequest(request, { token, port });
    if (!check.ok) return sendText(response, check.status, check.message);
    const method = request.method ?? "GET";
    const { path } = check;
    if (path === null) {
      response.writeHead(308, { ...SECURITY_HEADERS, Location: `/${token}/` });
      response.end();
      return;
    }
    if (method === "GET" || method === "HEAD") {
      if (path === "events") return method === "GET" ? openStream(response) : sendText(response, 405, "GET the events");
      const call = /^calls\/(\d{1,15})(\/app)?$/.exec(path);
      if (call !== null) {
        const detail = state.history.detail(Number(call[1]));
        if (detail === undefined) return sendText(response, 404, "No such call");
        const app = appOf(detail);
        if (call[2] !== undefined) return sendApp(response, detail, app);
        return sendJson(response, 200, app === undefined ? detail : { ...detail, app: { uri: app.uri } });
      }
      const file = files.get(path === "" ? "index.html" : path);
      if (file === undefined) {
        return path === "" ? sendText(response, 503, PAGE_MISSING) : sendText(response, 404, "Not found");
      }
      return sendFile(response, file, method === "HEAD");
    }
    if (method !== "POST") return sendText(response, 405, "Method not allowed");
    const approval = /^approvals\/([A-Za-z0-9_-]{1,200})$/.exec(path);
    if (approval === null && path !== "calls") return sendText(response, 404, "Not found");
    const body = await readJsonBody(request);
    if (typeof body === "string") return sendText(response, body === TOO_LARGE ? 413 : 400, body);
    if (approval !== null) {
      if (!isRecord(body) || typeof body.approve !== "boolean") {
        return sendText(response, 400, 'Send {"approve": true} or {"approve": false, "reason": "..."}');
      }
      const reason = typeof body.reason === "string" ? body.reason : undefined;
      const answered = state.approvals.answer(approval[1] as string, {
        approve: body.approve,
        ...(reason === undefined ? {} : { reason }),
      });
      return answered
        ? sendJson(response, 200, { answered: true })
        : sendText(response, 404, "No approval of that id waits here (answered, withdrawn, or never asked)");
    }
    if (!settings.allowToolCalls) return sendText(response, 404, "This inspector does not take calls");
    return manualCall(response, body);
  };

  /** The app of a call's tool, when the inspector can read apps and the tool (of a watched session) names one. */
  const appOf = (detail: CallDetail) => {
    if (settings.readAppResource === undefined) return undefined;
    const session = state.sessionById(detail.sessionId);
    const tool = (session?.activeTools.get(detail.toolName) ?? session?.registry.tools.get(detail.toolName))
      ?.descriptor;
    const uri = appResourceUriOf(tool?._meta);
    return tool === undefined || uri === undefined ? undefined : { tool, uri };
  };

  /** Reads the app, keeps its document under a fresh id, and answers what its frame is given. */
  const sendApp = async (
    response: ServerResponse,
    detail: CallDetail,
    app: { readonly tool: ToolDescriptor; readonly uri: string } | undefined,
  ) => {
    const read = settings.readAppResource;
    if (app === undefined || read === undefined) return sendText(response, 404, "This call's tool has no app");
    let resource: { readonly html: string; readonly _meta?: JsonObject };
    try {
      resource = await read(app.tool, app.uri);
    } catch (error) {
      return sendText(response, 502, `The app ${app.uri} could not be read: ${describeThrown(error)}`);
    }
    const id = randomBytes(32).toString("base64url");
    const origins = ["127.0.0.1", "localhost", "[::1]"].map((host) => `http://${host}:${port}`);
    appDocuments.set(id, { html: resource.html, policy: appContentPolicy(resource._meta, origins) });
    for (const old of appDocuments.keys()) {
      if (appDocuments.size <= MAX_APP_DOCUMENTS) break;
      appDocuments.delete(old);
    }
    return sendJson(
      response,
      200,
      callAppView(detail, app.tool, { uri: app.uri, src: `/${id}/`, meta: resource._meta }),
    );
  };

  const openStream = (response: ServerResponse) => {
    if (closed || streams.size >= MAX_STREAMS) return sendText(response, 503, "Too many pages are open");
    let unsubscribe = () => {};
    const stream = openEventStream(response, {
      heartbeatMs: HEARTBEAT_MS,
      maxBufferedBytes: MAX_BUFFERED_STREAM_BYTES,
      onClose: () => {
        streams.delete(stream);
        unsubscribe();
      },
    });
    streams.add(stream);
    unsubscribe = state.subscribe((message) => stream.send(message));
  };

  const manualCall = async (response: ServerResponse, body: unknown) => {
    const session =
      isRecord(body) && typeof body.sessionId === "string" ? state.sessionById(body.sessionId) : undefined;
    if (!isRecord(body) || session === undefined || typeof body.name !== "string") {
      return sendText(response, 400, 'Send {"sessionId": "<a watched session>", "name": "<tool>", "input": {...}}');
    }
    const id = `inspector-${nextManualCall++}`;
    const outcome = await session.dispatchDetailed(
      { id, name: body.name, input: body.input ?? {} },
      { signal: calls.signal },
    );
    const text = cutText(outcome.result.content.map(contentBlockAsText).join("\n"), settings.maxBodyBytes);
    return sendJson(response, 200, {
      toolCallId: id,
      isError: outcome.result.isError === true,
      ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }),
      durationMs: outcome.durationMs,
      content: text,
    });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendText(response, 500, `The inspector failed: ${describeThrown(error)}`);
      else response.destroy();
    });
  });
  // A slow or idle client must not hold a socket for ever; event streams are kept alive by their heartbeat.
  server.requestTimeout = 30_000;
  server.headersTimeout = 20_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/${token}/`,
    port,
    approver: state.approvals.approver,
    watch(session, watchOptions) {
      if (closed)
        throw new InspectorError("inspector-closed", "The inspector is closed: create another to watch a session.");
      const watched = state.watch(session, watchOptions?.label);
      return {
        sessionId: watched.id,
        record: (event) => {
          try {
            watched.record(event);
          } catch {
            // a malformed event is not the loop's problem
          }
        },
        stop: () => watched.stop(),
      };
    },
    showRun(run, showOptions) {
      if (closed)
        throw new InspectorError("inspector-closed", "The inspector is closed: create another to show a run.");
      checkStoredRun(run);
      return state.show(run, showOptions?.label);
    },
    async close() {
      if (closed) return;
      closed = true;
      state.close("the inspector closed before anyone answered");
      calls.abort(new Error("the inspector closed"));
      for (const stream of [...streams]) stream.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

const PAGE_MISSING =
  "The inspector's page is not built in this copy of toolwire (npm run build makes dist/inspector/page/).";
const TOO_LARGE = "The request body is too large";

function readOptions(options: InspectorOptions) {
  const fail = (message: string): never => {
    throw new InspectorError("invalid-inspector-options", `createInspector: ${message}`);
  };
  if (!isRecord(options)) fail("options must be an object");
  const { port = 0, title = "toolwire inspector", maxCalls = DEFAULT_INSPECTOR_MAX_CALLS } = options;
  const { maxBodyBytes = DEFAULT_MAX_PAGE_BYTES, allowToolCalls = false, readAppResource } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`port must be 0-65535, got ${String(port)}`);
  if (typeof title !== "string") fail("title must be a string");
  if (!Number.isInteger(maxCalls) || maxCalls < 1) fail(`maxCalls must be a positive integer, got ${String(maxCalls)}`);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    fail(`maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)}`);
  }
  if (readAppResource !== undefined && typeof readAppResource !== "function")
    fail("readAppResource must be a function");
  return { port, title, maxCalls, maxBodyBytes, allowToolCalls: allowToolCalls === true, readAppResource };
}

const RUN_STATUSES: readonly unknown[] = ["completed", "max_turns", "awaiting_approval", "stopped"];
const CALL_STATUSES: readonly unknown[] = ["ok", "error", "interrupted", "awaiting-approval", "not-started"];

/** Throws `invalid-stored-run`, naming the first thing wrong, unless `run` has the shape of a `StoredRun`. */
function checkStoredRun(run: unknown): asserts run is StoredRun {
  const fail = (message: string): never => {
    throw new InspectorError("invalid-stored-run", `showRun: ${message}`);
  };
  if (!isRecord(run) || !Array.isArray(run.turns)) return fail("expected a stored run { status, turns: [...] }");
  if (!RUN_STATUSES.includes(run.status)) fail("status must be completed, max_turns, awaiting_approval or stopped");
  for (const [index, turn] of (run.turns as unknown[]).entries()) {
    if (!isRecord(turn) || typeof turn.turn !== "number" || typeof turn.text !== "string" || !Array.isArray(turn.calls))
      return fail(`turns[${index}] must be { turn, text, calls: [...] }`);
    for (const call of turn.calls as unknown[]) {
      if (!isRecord(call) || typeof call.toolCallId !== "string" || typeof call.toolName !== "string")
        return fail(`a call of turns[${index}] must have a toolCallId and a toolName`);
      if (!CALL_STATUSES.includes(call.status))
        fail(`call ${call.toolCallId}: status must be ok, error, interrupted, awaiting-approval or not-started`);
    }
  }
}

/** The request's JSON body, or the reason it cannot be read. */
async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const type = request.headers["content-type"] ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) return "Send the body as application/json";
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return TOO_LARGE;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return "The request body is not JSON";
  }
}

function sendFile(response: ServerResponse, file: PageFile, headOnly: boolean): void {
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    "Content-Type": file.type,
    "Content-Length": file.body.length,
    ...(file.type.startsWith("text/html") ? { "Content-Security-Policy": PAGE_POLICY } : {}),
  });
  response.end(headOnly ? undefined : file.body);
}

/**
 * An app's document, with its own policy (sandboxed: an opaque origin) and none of the page's headers that would keep
 * it out of the page's frame.
 */
function sendAppDocument(response: ServerResponse, document: { readonly html: string; readonly policy: string }): void {
  response.writeHead(200, {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Type": "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(document.html),
    "Content-Security-Policy": document.policy,
  });
  response.end(document.html);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  response.end(body);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  response.end(text);
}
