// createCallHistory: the calls the inspector saw, newest last, bounded in count and in the bytes of their bodies.
import { contentBlockAsText } from "../core/tool-result.js";
import type {
  ApprovalRequest,
  ApprovalResolvedEvent,
  ToolCallPhaseEvent,
  ToolExecutionEndEvent,
  ToolExecutionStartEvent,
} from "../core/types.js";
import { cutForPage, cutText } from "./cut-for-page.js";
import { readSpillFile } from "./read-spill-file.js";
import type { StoredCall } from "./stored-run.js";
import type { CallDetail, CallPhaseView, CallSummary, CutText } from "./types.js";

/** The limits of a history. */
interface CallHistoryLimits {
  /** The most calls kept; the oldest leave first. */
  readonly maxCalls: number;
  /** The most bytes of one input, result content or details kept. */
  readonly maxBodyBytes: number;
  /** The most bytes of bodies kept over the whole history; the oldest calls' bodies are dropped past it. */
  readonly maxTotalBytes: number;
}

/** What a history tells its owner: a call changed, or calls up to a key left. */
interface CallHistoryListener {
  changed(key: number): void;
  dropped(throughKey: number): void;
}

/** The calls of every watched session. Each method is told the session the event came from. */
export interface CallHistory {
  /** `tainted`: untrusted content was in the session when the call began. */
  start(sessionId: string, start: ToolExecutionStartEvent, tainted?: boolean): void;
  /** The call's result brought untrusted content into the session (`flow_tainted`). */
  flowTainted(sessionId: string, toolCallId: string): void;
  phase(sessionId: string, phase: ToolCallPhaseEvent): void;
  approvalRequested(sessionId: string, request: ApprovalRequest): void;
  approvalResolved(sessionId: string, event: ApprovalResolvedEvent): void;
  end(sessionId: string, event: ToolExecutionEndEvent): void;
  /** The loop named the call's turn (its `tool_call` event, which comes before the session starts the call). */
  assignTurn(sessionId: string, toolCallId: string, turn: number): void;
  /** A call of a stored run, whole at once: no phases and no duration (a journal or a recording keeps no times). */
  stored(sessionId: string, call: StoredCall, at: { readonly turn: number; readonly startedAt: number }): void;
  summary(key: number): CallSummary | undefined;
  detail(key: number): CallDetail | undefined;
  summaries(): CallSummary[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A call as kept: its fields changed in place, its summary built when asked for (and kept until it changes). */
interface CallRecord {
  readonly fields: Mutable<Omit<CallSummary, "phases">>;
  readonly phases: CallPhaseView[];
  view: CallSummary | undefined;
  input?: CutText;
  result?: CallDetail["result"];
  error?: CallDetail["error"];
  bodyBytes: number;
  dropped: boolean;
}

const MAX_PREVIEW_CHARS = 160;
const INTERRUPTED = "Interrupted: the call started and the run stopped before its outcome was kept.";
const NOT_STARTED = "Not started: the model asked for the call and the run stopped before it ran.";
/** A turn named by the loop but never started (a call the session refused to announce) is forgotten after this many. */
const MAX_PENDING_TURNS = 1_000;

/** A history; `listener` hears each change as it happens (synchronously). */
export function createCallHistory(limits: CallHistoryLimits, listener: CallHistoryListener): CallHistory {
  const records = new Map<number, CallRecord>();
  /** The call open now for a session's tool call id (a call resumed after a pause starts again with its id). */
  const open = new Map<string, number>();
  const turns = new Map<string, number>();
  let nextKey = 1;
  let totalBytes = 0;

  const idOf = (sessionId: string, toolCallId: string) => `${sessionId}\u0000${toolCallId}`;
  const update = (key: number, change: (record: CallRecord) => void) => {
    const record = records.get(key);
    if (record === undefined) return;
    change(record);
    record.view = undefined;
    listener.changed(key);
  };
  const summaryOf = (record: CallRecord): CallSummary => {
    record.view ??= { ...record.fields, phases: [...record.phases] };
    return record.view;
  };
  const openKey = (sessionId: string, toolCallId: string) => open.get(idOf(sessionId, toolCallId));
  const keepBodies = (record: CallRecord, bytes: number) => {
    record.bodyBytes += bytes;
    totalBytes += bytes;
    if (totalBytes <= limits.maxTotalBytes) return;
    for (const [key, older] of records) {
      if (totalBytes <= limits.maxTotalBytes || older === record) break;
      if (older.dropped || older.bodyBytes === 0) continue;
      totalBytes -= older.bodyBytes;
      older.bodyBytes = 0;
      older.dropped = true;
      delete older.input;
      delete older.result;
      listener.changed(key);
    }
  };
  const trim = () => {
    let last: number | undefined;
    while (records.size > limits.maxCalls) {
      const [key, oldest] = records.entries().next().value as [number, CallRecord];
      records.delete(key);
      totalBytes -= oldest.bodyBytes;
      const id = idOf(oldest.fields.sessionId, oldest.fields.toolCallId);
      if (open.get(id) === key) open.delete(id);
      last = key;
    }
    if (last !== undefined) listener.dropped(last);
  };

  /** Ends the open call: its result, its error, and its duration when it has one. */
  const finish = (sessionId: string, event: Omit<ToolExecutionEndEvent, "durationMs">, durationMs?: number): void => {
    const id = idOf(sessionId, event.toolCallId);
    const key = open.get(id);
    const record = key === undefined ? undefined : records.get(key);
    if (key === undefined || record === undefined) return;
    open.delete(id);
    const { result } = event;
    const content = Array.isArray(result?.content) ? result.content : [];
    const json = safeJson(content);
    const spillFile = readSpillFile(result);
    const failed = event.isError;
    const text = cutText(content.map(contentBlockAsText).join("\n"), limits.maxBodyBytes);
    const details = result?.details === undefined ? undefined : cutForPage(result.details, limits.maxBodyBytes);
    if (!record.dropped) {
      record.result = { content: text, ...(details === undefined ? {} : { details }), isError: failed };
      keepBodies(record, Buffer.byteLength(text.text) + (details === undefined ? 0 : Buffer.byteLength(details.text)));
    }
    if (failed)
      record.error = {
        ...(event.errorCode === undefined ? {} : { code: event.errorCode }),
        text: cutText(text.text, 4_000).text,
      };
    update(key, ({ fields }) => {
      fields.status = failed ? "error" : "ok";
      if (durationMs !== undefined) fields.durationMs = durationMs;
      if (event.errorCode !== undefined) fields.errorCode = event.errorCode;
      fields.resultBytes = Buffer.byteLength(json);
      fields.resultTokens = Math.ceil(json.length / 4);
      if (spillFile !== undefined) fields.spillFile = spillFile;
    });
  };

  const history: CallHistory = {
    start(sessionId, start, tainted = false) {
      const id = idOf(sessionId, start.toolCallId);
      const known = open.get(id);
      if (known !== undefined && records.has(known)) {
        // Resumed after a pause for approval: the same call goes on.
        update(known, (record) => {
          record.fields.status = "running";
        });
        return;
      }
      const key = nextKey++;
      const input = cutForPage(start.input, limits.maxBodyBytes);
      const turn = turns.get(id);
      turns.delete(id);
      const record: CallRecord = {
        fields: {
          key,
          sessionId,
          toolCallId: start.toolCallId,
          toolName: start.toolName,
          ...(turn === undefined ? {} : { turn }),
          ...(typeof start.parentToolCallId === "string" ? { parentToolCallId: start.parentToolCallId } : {}),
          status: "running",
          ...(tainted ? { flow: "tainted" as const } : {}),
          startedAt: typeof start.startedAt === "number" ? start.startedAt : Date.now(),
          inputPreview: previewOf(input.text),
        },
        phases: [],
        view: undefined,
        input,
        bodyBytes: 0,
        dropped: false,
      };
      records.set(key, record);
      open.set(id, key);
      keepBodies(record, Buffer.byteLength(input.text));
      listener.changed(key);
      trim();
    },
    phase(sessionId, { toolCallId, ...phase }) {
      const key = openKey(sessionId, toolCallId);
      if (key === undefined) return;
      const view: CallPhaseView = {
        phase: phase.phase,
        startedAt: phase.startedAt,
        durationMs: phase.durationMs,
        ...(phase.errorCode === undefined ? {} : { errorCode: phase.errorCode }),
      };
      update(key, (record) => {
        record.phases.push(view);
      });
    },
    approvalRequested(sessionId, request) {
      const key = openKey(sessionId, request.toolCallId);
      if (key === undefined) return;
      update(key, (record) => {
        record.fields.status = "approval";
        record.fields.approval = { approvalId: request.approvalId };
      });
    },
    flowTainted(sessionId, toolCallId) {
      const key = openKey(sessionId, toolCallId);
      if (key === undefined) return;
      update(key, (record) => {
        record.fields.flow = "source";
      });
    },
    approvalResolved(sessionId, event) {
      const key = openKey(sessionId, event.toolCallId);
      if (key === undefined) return;
      update(key, (record) => {
        if (record.fields.status === "approval") record.fields.status = "running";
        record.fields.approval = { approvalId: event.approvalId, outcome: event.outcome };
      });
    },
    end(sessionId, event) {
      finish(sessionId, event, event.durationMs);
    },
    stored(sessionId, call, { turn, startedAt }) {
      const { toolCallId, toolName } = call;
      const id = idOf(sessionId, toolCallId);
      turns.set(id, turn);
      history.start(sessionId, { toolCallId, toolName, input: call.input, startedAt });
      const key = open.get(id);
      if (key === undefined) return;
      update(key, ({ fields }) => {
        fields.stored = true;
        if (call.approval !== undefined) {
          const { approvalId, outcome } = call.approval;
          fields.approval = outcome === undefined ? { approvalId } : { approvalId, outcome };
        }
        if (call.flow === "source") fields.flow = "source";
      });
      if (call.status === "ok" || call.status === "error") {
        const isError = call.status === "error";
        const result = { content: Array.isArray(call.result?.content) ? call.result.content : [], isError };
        const errorCode = call.errorCode;
        finish(sessionId, { toolCallId, toolName, isError, result, ...(errorCode === undefined ? {} : { errorCode }) });
        return;
      }
      open.delete(id);
      update(key, (record) => {
        if (call.status === "awaiting-approval") {
          record.fields.status = "approval";
          return;
        }
        record.fields.status = "interrupted";
        record.error = { text: call.status === "interrupted" ? INTERRUPTED : NOT_STARTED };
      });
    },
    assignTurn(sessionId, toolCallId, turn) {
      const key = openKey(sessionId, toolCallId);
      if (key !== undefined) {
        update(key, (record) => {
          record.fields.turn = turn;
        });
        return;
      }
      turns.set(idOf(sessionId, toolCallId), turn);
      if (turns.size > MAX_PENDING_TURNS) turns.delete(turns.keys().next().value as string);
    },
    summary(key) {
      const record = records.get(key);
      return record === undefined ? undefined : summaryOf(record);
    },
    detail(key) {
      const record = records.get(key);
      if (record === undefined) return undefined;
      return {
        ...summaryOf(record),
        ...(record.input === undefined ? {} : { input: record.input }),
        ...(record.result === undefined ? {} : { result: record.result }),
        ...(record.error === undefined ? {} : { error: record.error }),
        ...(record.dropped ? { dropped: true } : {}),
      };
    },
    summaries: () => [...records.values()].map(summaryOf),
  };
  return history;
}

function previewOf(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_PREVIEW_CHARS ? `${line.slice(0, MAX_PREVIEW_CHARS - 1)}…` : line;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
