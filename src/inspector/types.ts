// The inspector's vocabulary on one page: what the server streams to the page (a snapshot, then updates) and
// what the page posts back. Types only: the page imports them too.
import type { ToolAvailabilityDiagnostic, ToolCallErrorCode, ToolDeferral, ToolFlowFacts } from "../core/types.js";

/** The provider formats whose tool definitions the inspector measures. */
export type MeasuredProvider = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** The size of one request's `tools` in one provider's format. */
export interface DefinitionSize {
  /** UTF-8 bytes of the JSON of the request's `tools` as the provider adapter writes them. */
  readonly bytes: number;
  /** That JSON's length in UTF-16 code units divided by 4, rounded up (the rule `estimateToolTokens` uses). */
  readonly estimatedTokens: number;
}

/** What the tool definitions sent in one turn weigh. */
export interface DefinitionMeasure {
  /** How many tools were sent. */
  readonly tools: number;
  readonly names: readonly string[];
  /** The sum of `estimateToolTokens` over the tools sent: the estimate deferral budgets count. */
  readonly estimatedTokens: number;
  readonly providers: Readonly<Record<MeasuredProvider, DefinitionSize>>;
}

/** A visible tool of a plan. */
interface PlanVisibleTool {
  readonly name: string;
  /** `core`, `plugin:<id>`, `channel:<id>` or `mcp:<id>`. */
  readonly owner: string;
  readonly description: string;
  /** In the session's active set (a call may name it). */
  readonly active: boolean;
  /** Sent to the model now (`session.modelTools`). */
  readonly sent: boolean;
  readonly estimatedTokens: number;
  /** How flow rules see it (docs/security.md): its trust, its effects, whether it is guarded. */
  readonly flow: ToolFlowFacts;
}

/** A tool availability hid, with every diagnostic. */
interface PlanHiddenTool {
  readonly name: string;
  readonly owner: string;
  readonly description: string;
  readonly diagnostics: readonly Pick<ToolAvailabilityDiagnostic, "reason" | "message">[];
}

/** A tool a refresh left out of the registry: built-ins off, not in the allow list, or a policy layer. */
export interface PlanRemovedTool {
  readonly name: string;
  readonly source: string;
  readonly reason: string;
  readonly layer?: string;
  /** The deny pattern that matched, or `null` when the layer's allow list did not name the tool. */
  readonly pattern?: string | null;
}

/** A deferred tool, with why (`ToolDeferral`), and whether a search loaded it into the tools sent. */
type PlanDeferredTool = { readonly name: string; readonly loaded: boolean } & ToolDeferral;

/** The plan of one session: what `toolwire plan` shows, as data. */
export interface PlanView {
  readonly visible: readonly PlanVisibleTool[];
  readonly hidden: readonly PlanHiddenTool[];
  readonly removed: readonly PlanRemovedTool[];
  readonly deferred: readonly PlanDeferredTool[];
  readonly overrides: readonly { readonly name: string; readonly kept: string; readonly dropped: string }[];
  readonly unknownPatterns: readonly { readonly layer: string; readonly pattern: string }[];
  /** The names sent to the model now, in order (`tool_search` included while tools are deferred). */
  readonly sent: readonly string[];
  /** What those definitions weigh, per provider. */
  readonly definitions: DefinitionMeasure;
  /** Whether flow rules are on, what a guarded call meets, and whether the session is tainted now. */
  readonly flow: { readonly enabled: boolean; readonly whenTainted: "approve" | "block"; readonly tainted: boolean };
  /** When the plan was last read, epoch milliseconds. */
  readonly refreshedAt: number;
}

/** How a run that the inspector follows stands (from the loop's events). */
export interface RunView {
  readonly status:
    | "running"
    | "completed"
    | "max_turns"
    | "aborted"
    | "model_error"
    | "awaiting_approval"
    | "journal_error"
    | "held_elsewhere"
    /** A stored run whose journal or recording ends mid-way (`showRun`). */
    | "stopped";
  readonly turns: number;
  readonly startedAt: number;
  readonly endedAt?: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly error?: string;
}

/** One watched session. */
export interface SessionView {
  readonly id: string;
  readonly label: string;
  /** The inspector stopped following it (`watch(...).stop()`, or the session was closed). */
  readonly ended: boolean;
  /** A stored run (`showRun`): read back from a journal or a recording, ended, with no plan and no times. */
  readonly stored?: boolean;
  /** Absent for a stored run. */
  readonly plan?: PlanView;
  readonly run?: RunView;
}

/** One stretch of a call's life, as the session's `tool_call_phase` event reports it. */
export interface CallPhaseView {
  readonly phase: string;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly errorCode?: ToolCallErrorCode;
}

/** How far a call got; `interrupted`: a stored run's call with no outcome kept (`showRun`). */
type CallStatus = "running" | "approval" | "ok" | "error" | "interrupted";

/** One call as the list shows it: no input or result bodies (the page fetches those when a call is opened). */
export interface CallSummary {
  /** The inspector's own key for the call: unique, increasing. */
  readonly key: number;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The loop's turn, when the inspector follows the loop (`record`). */
  readonly turn?: number;
  /** The call whose program made this one (code mode's `run_code`), in the same session; absent for a model's call. */
  readonly parentToolCallId?: string;
  readonly status: CallStatus;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  readonly durationMs?: number;
  readonly errorCode?: ToolCallErrorCode;
  readonly phases: readonly CallPhaseView[];
  /** The start of the input as one line, at most 160 characters. */
  readonly inputPreview: string;
  readonly resultBytes?: number;
  readonly resultTokens?: number;
  /** Where the result budget saved the whole result, when it did. */
  readonly spillFile?: string;
  /** A stored run's call (`showRun`): no phases, no duration, and its `startedAt` only keeps the calls' order. */
  readonly stored?: boolean;
  /** The approval the call waited for, and how it ended. */
  readonly approval?: { readonly approvalId: string; readonly outcome?: "approved" | "declined" | "expired" };
  /**
   * Flow rules (docs/security.md): `"source"` when this call's result brought untrusted content into the session,
   * `"tainted"` when the call began while untrusted content was already in it.
   */
  readonly flow?: "source" | "tainted";
}

/** A value kept for the page: its JSON (or text) cut to the page's limit. */
export interface CutText {
  readonly text: string;
  /** The whole value's size, UTF-8 bytes. */
  readonly bytes: number;
  readonly cut: boolean;
}

/** One call, opened: its summary, and what it got and gave. */
export interface CallDetail extends CallSummary {
  /** Absent when the history dropped it to stay within its memory budget. */
  readonly input?: CutText;
  readonly result?: {
    /** The result's content as text (each block as the CLI prints it), cut. */
    readonly content: CutText;
    /** The result's `details` as JSON, cut, when it has any. */
    readonly details?: CutText;
    readonly isError: boolean;
  };
  /** The error's code and text, when the call failed. */
  readonly error?: { readonly code?: ToolCallErrorCode; readonly text: string };
  /** The bodies were dropped from memory (older calls, once the history passed its budget). */
  readonly dropped?: boolean;
  /** The call's tool has an MCP App (`_meta.ui.resourceUri`) the inspector can read: `GET calls/<key>/app`. */
  readonly app?: { readonly uri: string };
}

/** A call's MCP App as the page frames it (`GET calls/<key>/app`, docs/inspector.md#apps). */
export interface CallAppView {
  readonly uri: string;
  /** The app's document: a URL of its own, outside the page's token, served sandboxed with its own policy. */
  readonly src: string;
  /** `_meta.ui.prefersBorder`, when the app said. */
  readonly prefersBorder?: boolean;
  /** The tool, as `ui/initialize`'s `hostContext.toolInfo.tool`. */
  readonly tool: { readonly name: string; readonly description: string; readonly inputSchema: unknown };
  /** The call's arguments (`ui/notifications/tool-input`), when they were kept whole. */
  readonly input?: Record<string, unknown>;
  /** The call's result as MCP's `CallToolResult` (`ui/notifications/tool-result`), once the call ended. */
  readonly result?: {
    readonly content: readonly { readonly type: "text"; readonly text: string }[];
    readonly structuredContent?: Record<string, unknown>;
    readonly isError?: boolean;
  };
}

/** A turn of a followed loop: the definitions sent, the model's usage, how it ended. */
export interface TurnView {
  readonly key: number;
  readonly sessionId: string;
  readonly turn: number;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** What the definitions sent weighed; absent for a stored run (only the names may be kept: `offered`). */
  readonly definitions?: DefinitionMeasure;
  /** The names of the tools offered, for a stored run that kept them (a recording). */
  readonly offered?: readonly string[];
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly stopReason?: string;
  readonly toolCalls?: number;
  /** The start of the model's text, when it wrote any (at most 400 characters). */
  readonly text?: string;
}

/** A call waiting for a yes or no from the page. */
export interface PendingApprovalView {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly sessionId?: string;
  readonly input: CutText;
  readonly inputDigest: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  /** Why flow rules ask (untrusted content in the session, and which calls brought it); absent for other requests. */
  readonly flowReason?: string;
  /** What a yes or no answers, when the running call asks a question of its own (a bridged server's); else absent. */
  readonly question?: string;
}

/** The first message of every stream, and the page's whole state. */
export interface InspectorSnapshot {
  readonly kind: "snapshot";
  readonly version: 1;
  readonly title: string;
  /** The page may call tools by hand (`allowToolCalls`). */
  readonly canCall: boolean;
  readonly sessions: readonly SessionView[];
  /** The newest calls, oldest first. */
  readonly calls: readonly CallSummary[];
  readonly turns: readonly TurnView[];
  readonly approvals: readonly PendingApprovalView[];
}

/** What the stream sends after the snapshot: each message names one thing as it is now. */
export type InspectorUpdate =
  | { readonly kind: "session"; readonly session: SessionView }
  /** An ended session left the list (only the newest ended sessions are kept). */
  | { readonly kind: "session-removed"; readonly sessionId: string }
  | { readonly kind: "call"; readonly call: CallSummary }
  /** Calls up to this key left the history. */
  | { readonly kind: "calls-dropped"; readonly throughKey: number }
  | { readonly kind: "turn"; readonly turn: TurnView }
  | { readonly kind: "turns-dropped"; readonly throughKey: number }
  | { readonly kind: "approval"; readonly approval: PendingApprovalView }
  | { readonly kind: "approval-settled"; readonly approvalId: string; readonly outcome: string };

/** A stream message. */
export type InspectorMessage = InspectorSnapshot | InspectorUpdate;

/** The page's answer to a pending approval (`POST approvals/<approvalId>`). */
export interface ApprovalAnswer {
  readonly approve: boolean;
  readonly reason?: string;
}
