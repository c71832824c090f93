// The whole vocabulary of toolwire's core on one page: descriptors, refs, availability, results, hooks, reports.

/** A JSON scalar. */
export type JsonPrimitive = string | number | boolean | null;
/** Any JSON value. */
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [k: string]: JsonValue };
/** A JSON object: what tool inputs and JSON Schemas are. */
export type JsonObject = { readonly [k: string]: JsonValue };

// ---------------------------------------------------------------- descriptors (SPEC 1)

/** Who owns a tool: the host itself, a plugin, a channel or an MCP server. */
export type ToolOwnerRef =
  | { readonly kind: "core" }
  | { readonly kind: "plugin"; readonly pluginId: string }
  | { readonly kind: "channel"; readonly channelId: string; readonly pluginId?: string }
  | { readonly kind: "mcp"; readonly serverId: string };

/** A tagged reference to the code that runs a tool; data only, never a function. */
export type ToolExecutorRef =
  | { readonly kind: "core"; readonly executorId: string }
  | { readonly kind: "plugin"; readonly pluginId: string; readonly toolName: string }
  | { readonly kind: "channel"; readonly channelId: string; readonly actionId: string }
  | { readonly kind: "mcp"; readonly serverId: string; readonly toolName: string };

/** The public, executor-free description of a tool: what a planner and a model see. */
export interface ToolDescriptor {
  /** Matches /^[A-Za-z0-9_-]{1,64}$/, what every model provider accepts. */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** A JSON Schema of `type: "object"`. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly owner: ToolOwnerRef;
  /** Hidden tools may omit it; a visible tool without one is a contract error. */
  readonly executor?: ToolExecutorRef;
  /** Absent means always available. */
  readonly availability?: ToolAvailabilityExpression;
  /** MCP's hint names, e.g. `readOnlyHint`, `destructiveHint`. */
  readonly annotations?: JsonObject;
  /** MCP's tool icons (`{ src, mimeType?, sizes?, theme? }`), for clients that show them; never sent to a model. */
  readonly icons?: readonly JsonObject[];
  /** MCP's tool `_meta`, kept as sent so a gateway passes it on; never sent to a model. */
  readonly _meta?: JsonObject;
  readonly sortKey?: string;
  /**
   * `true`: the model is not sent this tool's definition up front but finds it through `tool_search` (SPEC 19);
   * calling it by name works either way. Absent or `false`: deferred only when the registry's `defer` patterns or
   * its token budget say so.
   */
  readonly defer?: boolean;
}

/** What a model provider needs of a tool, and nothing else. */
export interface ToolProtocolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

// ---------------------------------------------------------------- availability (SPEC 2)

/** One condition a tool needs before a model may see it. */
export type ToolAvailabilitySignal =
  | { readonly kind: "always" }
  | { readonly kind: "auth"; readonly providerId: string }
  | {
      readonly kind: "config";
      readonly path: readonly string[];
      /** Default `"exists"`. */
      readonly check?: "exists" | "non-empty" | "available";
    }
  | { readonly kind: "env"; readonly name: string }
  | { readonly kind: "plugin-enabled"; readonly pluginId: string }
  | { readonly kind: "context"; readonly key: string; readonly equals?: JsonPrimitive }
  /**
   * Something the host can do, such as `"sandbox"` (bubblewrap usable); judged against `capabilities`. `explanation`,
   * when given, says why the tool needs it or why it is missing here; the diagnostic's message repeats it.
   */
  | { readonly kind: "capability"; readonly name: string; readonly explanation?: string };

/** A tiny boolean language over signals. */
export type ToolAvailabilityExpression =
  | ToolAvailabilitySignal
  | { readonly allOf: readonly ToolAvailabilityExpression[] }
  | { readonly anyOf: readonly ToolAvailabilityExpression[] };

/** What availability is judged against. Every part is optional; a missing part fails the signals that need it. */
export interface ToolAvailabilityContext {
  readonly authProviderIds?: ReadonlySet<string>;
  readonly config?: JsonObject;
  readonly isConfigValueAvailable?: (query: {
    value: JsonValue;
    path: readonly string[];
    signal: ToolAvailabilitySignal;
  }) => boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly enabledPluginIds?: ReadonlySet<string>;
  readonly values?: Readonly<Record<string, JsonPrimitive | undefined>>;
  /** What this host can do (for example `"sandbox"` when bubblewrap works here); read by `capability` signals. */
  readonly capabilities?: ReadonlySet<string>;
}

/** Why availability hid a tool: the kind of signal that failed (each diagnostic carries one). */
type ToolUnavailableReason =
  | "auth-missing"
  | "capability-missing"
  | "config-missing"
  | "context-mismatch"
  | "env-missing"
  | "plugin-disabled"
  | "unsupported-signal";

/** Why a tool is not available, in words a person can act on. */
export interface ToolAvailabilityDiagnostic {
  readonly reason: ToolUnavailableReason;
  readonly signal?: ToolAvailabilitySignal;
  readonly message: string;
}

// ---------------------------------------------------------------- plan (SPEC 3)

/** A visible tool of a plan, with the executor that will run it. */
export interface ToolPlanEntry {
  readonly descriptor: ToolDescriptor;
  readonly executor: ToolExecutorRef;
}
/** A tool the plan hides, with every diagnostic that says why. */
export interface HiddenToolPlanEntry {
  readonly descriptor: ToolDescriptor;
  readonly diagnostics: readonly ToolAvailabilityDiagnostic[];
}
/** What `buildToolPlan` gives: the tools a model may see, and the ones hidden with their reasons. */
export interface ToolPlan {
  readonly visible: readonly ToolPlanEntry[];
  readonly hidden: readonly HiddenToolPlanEntry[];
}

// ---------------------------------------------------------------- tools and results (SPEC 4)

/**
 * What MCP lets any block carry besides its content, kept as sent: `annotations` (MCP's `audience`, `priority`,
 * `lastModified`, and whatever else the object holds) and `_meta`.
 */
interface ContentExtras {
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
}
/** MCP's hints about a block: who it is for, how much it matters (0 to 1), when it last changed (ISO 8601). */
interface ContentAnnotations {
  readonly audience?: readonly ("user" | "assistant")[];
  readonly priority?: number;
  readonly lastModified?: string;
  readonly [key: string]: JsonValue | undefined;
}
/** Text for the model. */
interface TextContent extends ContentExtras {
  readonly type: "text";
  readonly text: string;
}
/** An image, base64 encoded, with its MIME type. */
export interface ImageContent extends ContentExtras {
  readonly type: "image";
  /** Base64, without a `data:` prefix. */
  readonly data: string;
  readonly mimeType: string;
}
/** Audio, base64 encoded, with its MIME type. */
interface AudioContent extends ContentExtras {
  readonly type: "audio";
  /** Base64, without a `data:` prefix. */
  readonly data: string;
  readonly mimeType: string;
}
/** A resource's contents, embedded: exactly one of `text` and `blob` (base64). */
export type EmbeddedResource =
  | (EmbeddedResourceHead & { readonly text: string; readonly blob?: never })
  | (EmbeddedResourceHead & { readonly blob: string; readonly text?: never });
interface EmbeddedResourceHead {
  readonly uri: string;
  readonly mimeType?: string;
  readonly _meta?: JsonObject;
}
/** A resource embedded in the result. */
interface EmbeddedResourceContent extends ContentExtras {
  readonly type: "resource";
  readonly resource: EmbeddedResource;
}
/** A pointer to a resource the reader can fetch; MCP's optional `title`, `size` (bytes) and `icons` kept. */
export interface ResourceLinkContent extends ContentExtras {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly mimeType?: string;
  readonly description?: string;
  readonly size?: number;
  readonly icons?: readonly JsonObject[];
}
/** What a tool result is made of, as the model sees it (SPEC 13). MCP content maps to it one to one. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResourceContent | ResourceLinkContent;

/** What a tool produced. `details` is for programs and never sent to the model. */
export interface ToolResult<TDetails = unknown> {
  content: ContentBlock[];
  details?: TDetails;
  isError?: boolean;
}

/** What an executor gets besides its input. */
export interface ToolCallContext {
  readonly toolCallId: string;
  /** Aborted on timeout, on the caller's abort, or when the session gives up on the call. */
  readonly signal: AbortSignal;
  /** Streams a partial result; it reaches `tool_execution_update` listeners, never the model. */
  onUpdate(partial: ToolResult): void;
  /**
   * Sends a log message about this call; it reaches `tool_log` listeners and the dispatch's `onLog`
   * (an MCP client, through `serve`), never the model. Never throws. Sessions always provide it; it is
   * optional for contexts made by hand.
   */
  log?(level: ToolLogLevel, data: JsonValue, logger?: string): void;
  /**
   * Reports a stretch of the executor's own work, from `start` (a `performance.now()` reading) until now, as a
   * phase of the call (the built-in `bash` reports `sandbox_start`): it reaches `tool_call_phase` listeners and,
   * with telemetry, becomes a child span. Never throws. Optional for contexts made by hand.
   */
  phase?(name: string, start: number): void;
  /**
   * Calls `listener` once, with the abort's reason, when the call is aborted (at once if it already was) for
   * the same causes as `signal`; returns a function that removes it. Cheaper than `signal` for an executor that
   * only needs to hear of an abort: a session makes its signal on first read, and an AbortController costs
   * several microseconds in Node 20. Optional: contexts made by hand may leave it out.
   */
  onAbort?(listener: (reason: unknown) => void): () => void;
  /**
   * The call's span, when the session has telemetry (SPEC 17): start child spans of your own work under it, and
   * pass its trace context on to a server you call. `undefined` without telemetry.
   */
  readonly span?: ToolCallSpan;
}

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

/** Log levels, least severe first (syslog's, as MCP uses them). */
export type ToolLogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** One log message of a call, as `tool_log` listeners and `DispatchOptions.onLog` get it. */
export interface ToolLogEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly level: ToolLogLevel;
  readonly data: JsonValue;
  readonly logger?: string;
}

/** How `dispatchAll` runs a tool: beside the others (`parallel`, the default) or alone (`sequential`). */
export type ToolExecutionMode = "parallel" | "sequential";

/** A tool the session can run. `execute` may return a string (one text block) and signals failure by throwing. */
export interface AgentTool<TInput = JsonObject> {
  readonly descriptor: ToolDescriptor;
  readonly executionMode?: ToolExecutionMode;
  readonly timeoutMs?: number;
  /**
   * The most characters of text its results may hold before they are saved to a file and the model gets a preview
   * (SPEC 19). Wins over an MCP tool's `_meta["anthropic/maxResultSizeChars"]` and the session's `maxResultChars`.
   */
  readonly maxResultChars?: number;
  execute(input: TInput, context: ToolCallContext): Promise<ToolResult | string>;
  /**
   * The id of the remote executor (SPEC 18) that runs this tool's calls, set by the registry's `executors` on the
   * tools it routes; absent for a tool that runs in the session's process.
   */
  readonly runsOn?: string;
}

// ---------------------------------------------------------------- remote executors (SPEC 18)

/** One call handed to a remote executor: the tool's name, the call's id, and the input hooks and policy left. */
export interface RemoteToolCall {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
}

/**
 * Runs tool calls somewhere else (another process, another machine), for the registry's `executors`. Descriptors,
 * policy, hooks and approvals stay in the session; only the execution moves. `execute` gets the call's context:
 * it must stop the remote work when `context.signal` aborts, pass progress to `context.onUpdate`, and resolve with
 * the result, or reject (a `ToolCallError` keeps its code; anything else is `execution-failed`).
 */
export interface RemoteExecutor {
  /** The executor's id, as `toolwire plan` shows where a tool runs. */
  readonly id: string;
  /** Where it runs, in a few words for people (such as `bullmq redis://127.0.0.1:6379 queue toolwire`). */
  readonly where?: string;
  execute(call: RemoteToolCall, context: ToolCallContext): Promise<ToolResult>;
}

/** A registry route: the tools matching `tools` (policy patterns) run on `executor`. */
export interface ToolExecutorRoute {
  readonly executor: RemoteExecutor;
  /** Policy patterns (names, globs, `group:*`, `mcp:<id>`, `plugin:<id>`). */
  readonly tools: readonly string[];
}

/** A source of tools that can change, such as an MCP connection or a plugin host. */
export interface LiveToolSource {
  readonly tools: readonly AgentTool[];
  /** Calls the listener when `tools` changed; returns an unsubscribe function. */
  onChange?(listener: () => void): () => void;
}

// ---------------------------------------------------------------- policy (SPEC 7)

/** One allow/deny layer; layers only ever narrow the set. */
export interface PolicyLayer {
  readonly label: string;
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}
/** A tool a policy layer removed: which layer, and which pattern. */
export interface PolicyRemoval {
  readonly name: string;
  readonly layer: string;
  /** The deny pattern that matched, or `null` when the layer's allow list did not match the tool. */
  readonly pattern: string | null;
}
/** What `applyToolPolicy` gives: the tools kept, those removed and why, and patterns that matched no tool. */
export interface PolicyResult {
  readonly kept: ToolDescriptor[];
  readonly removed: PolicyRemoval[];
  readonly unknownPatterns: { readonly layer: string; readonly pattern: string }[];
}

// ---------------------------------------------------------------- registry (SPEC 4)

/** The registry source a tool came from: built-ins first, then extensions (plugins, MCP), then custom tools. */
export type ToolSource = "builtin" | "extension" | "custom";
/** One registry source: tools, live sources, or a mix. */
export type ToolSourceInput = readonly (AgentTool | LiveToolSource)[];

/** Everything `createToolRegistry` takes: the three sources, and the filters applied on every refresh. */
export interface ToolRegistryOptions {
  readonly builtins?: ToolSourceInput;
  readonly extensions?: ToolSourceInput;
  readonly custom?: ToolSourceInput;
  readonly disableBuiltInTools?: boolean;
  readonly allowedToolNames?: Iterable<string>;
  readonly policy?: readonly PolicyLayer[];
  readonly availability?: ToolAvailabilityContext;
  /**
   * Policy patterns (names, globs, `group:*`, `mcp:<id>`, `plugin:<id>`) of tools to defer: the model finds them
   * through `tool_search` instead of getting their definitions up front (SPEC 19).
   */
  readonly defer?: readonly string[];
  /**
   * A budget, in estimated tokens (`estimateToolTokens`), for the definitions of the tools sent up front: while the
   * tools not yet deferred exceed it, MCP and plugin tools are deferred, largest first. Counted over the registry's
   * whole Map (with `tool_search` once a tool is deferred). Absent: no budget.
   */
  readonly deferBudgetTokens?: number;
  /**
   * Remote executors (SPEC 18): a visible tool matched by a route's patterns keeps its descriptor, policy, hooks and
   * approvals here, and its execution goes to the route's executor (the first route that matches wins). The Map's
   * tool then carries `runsOn`, the executor's id. Patterns that match no tool are reported under layer
   * `executor:<id>`.
   */
  readonly executors?: readonly ToolExecutorRoute[];
}

/**
 * Why a tool is deferred: `marked` (its definition says `defer: true`), `pattern` (a registry `defer` pattern
 * matched it, named as written), or `budget` (`deferBudgetTokens`: the tools sent up front came to `sentTokens`
 * before the budget deferred any). `tokens` is the tool's own estimate.
 */
export type ToolDeferral =
  | { readonly reason: "marked"; readonly tokens: number }
  | { readonly reason: "pattern"; readonly pattern: string; readonly tokens: number }
  | { readonly reason: "budget"; readonly tokens: number; readonly budgetTokens: number; readonly sentTokens: number };

/** Why a refresh left a tool out of the Map: built-ins turned off, not in `allowedToolNames`, or a policy layer. */
type ExclusionReason = "builtins-disabled" | "not-in-allowlist" | "policy";

/** What one refresh did; nothing is dropped without a line here. */
export interface RegistryReport {
  /** Names in the Map now that were not before this refresh. */
  added: string[];
  /** Names in the Map before this refresh that are not now. */
  removed: string[];
  /**
   * Same-named tools: which source won, and whose tools they were. Within one source, kept === dropped
   * (the first tool of a name wins).
   */
  overrides: {
    name: string;
    kept: ToolSource;
    dropped: ToolSource;
    keptOwner?: ToolOwnerRef;
    droppedOwner?: ToolOwnerRef;
  }[];
  excluded: {
    name: string;
    source: ToolSource;
    reason: ExclusionReason;
    layer?: string;
    pattern?: string | null;
  }[];
  hidden: HiddenToolPlanEntry[];
  /** Policy patterns that matched no tool, once per layer; `defer` patterns that matched none under layer `"defer"`. */
  unknownPatterns: { layer: string; pattern: string }[];
  /** Tools of the Map that are deferred (SPEC 19), in the Map's order, with why. */
  deferred: ({ name: string } & ToolDeferral)[];
}

/** The session's tools: a Map rebuilt and swapped whole on every refresh. */
export interface ToolRegistry {
  /** A new Map object after every refresh, iterating in the plan's visible order. */
  readonly tools: ReadonlyMap<string, AgentTool>;
  /** Tools kept out by availability, with diagnostics. */
  readonly hidden: readonly HiddenToolPlanEntry[];
  /** The tools of the Map that are deferred, by name, in the Map's order, with why (SPEC 19). */
  readonly deferred: ReadonlyMap<string, ToolDeferral>;
  /** The report of the latest refresh. */
  readonly lastReport: RegistryReport;
  /** Rebuilds the Map from the (changed) options and swaps it in. Throws `ToolPlanContractError` on a broken descriptor. */
  refresh(changes?: Partial<ToolRegistryOptions>): RegistryReport;
  /** Why a tool is present or absent, in words. */
  explain(name: string): string;
  /** Called after every refresh, including ones a live source triggered; returns an unsubscribe function. */
  onRefresh(listener: (report: RegistryReport) => void): () => void;
  /** Called when a refresh that a live source triggered failed; the registry kept its previous Map. */
  onRefreshError(listener: (error: Error) => void): () => void;
  /** Unsubscribes from the live sources. The registry keeps its last Map. */
  close(): void;
}

// ---------------------------------------------------------------- hooks (SPEC 5)

/** What a before hook sees: the call, its validated input, and the tool's descriptor. */
export interface BeforeToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
}
/** A before hook's answer: allow (`undefined`), run with another input, or block with a reason for the model. */
type BeforeToolCallDecision = undefined | { input: JsonObject } | { block: true; reason?: string };
/** Runs before the executor: allow (`undefined`), rewrite (`{ input }`, validated again) or block (`{ block: true }` or a throw). */
export type BeforeToolCall = (
  event: BeforeToolCallEvent,
) => BeforeToolCallDecision | void | Promise<BeforeToolCallDecision | void>;

/** What an after hook sees: the call, its input, its result, and how long it took. */
export interface AfterToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: JsonObject;
  readonly result: ToolResult;
  readonly isError: boolean;
  readonly durationMs: number;
}
/** An after hook's answer: the fields of the result to replace, or `undefined` to keep it as it is. */
type AfterToolCallPatch = undefined | { content?: ContentBlock[]; details?: unknown; isError?: boolean };
/** Runs after the executor: each returned field replaces the result's. A throw leaves the result as it was. */
export type AfterToolCall = (
  event: AfterToolCallEvent,
) => AfterToolCallPatch | void | Promise<AfterToolCallPatch | void>;

/** Runs `run` while no other holder runs; releases on settle, including a throw. */
export type WriteLock = <T>(run: () => Promise<T>) => Promise<T>;

// ---------------------------------------------------------------- session (SPEC 6)

/** A model's request to call a tool. `input` is untrusted: an object, JSON text, or anything else. */
export interface ToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** What `dispatch` gives back, in Anthropic's shape (the adapters convert it for the other providers). */
export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ContentBlock[];
  is_error?: boolean;
}

/** Options of one `dispatch` (or `dispatchAll`) call. */
export interface DispatchOptions {
  readonly signal?: AbortSignal;
  /** This call's progress (`context.onUpdate` of its executor), as `tool_execution_update` events carry it. Must not throw. */
  readonly onUpdate?: (partial: ToolResult) => void;
  /** This call's log messages (`context.log` of its executor), as `tool_log` events carry them. */
  readonly onLog?: (entry: ToolLogEvent) => void;
  /**
   * Who approves this call, when the session's approvals require it: wins over `approvals.approver` (the
   * MCP server passes one that asks the client which made the call). Without either, `approval-required`.
   */
  readonly approver?: ApprovalOptions["approver"];
  /**
   * For a loop that can wait (`runAgent` sets it): a call that needs approval, with no approver to ask,
   * does not end with `approval-required` but is left pending. Its outcome carries `pendingApproval`,
   * and `session.approvals.resume` runs it once a person decided. Only `dispatchDetailed` and
   * `dispatchAllDetailed` can hand the request back; `dispatch` answers `approval-required`.
   */
  readonly pauseForApproval?: boolean;
  /**
   * The trace this call belongs to, from another process (the MCP server takes it from a request's `_meta`):
   * with telemetry, the call's span becomes a child of it. Ignored when malformed.
   */
  readonly traceContext?: TraceContext;
}

/**
 * One call's whole outcome, from `dispatchDetailed`: the block `dispatch` would return, and what a
 * program needs beside it, without listening on the session's events for its own call.
 */
export interface ToolCallOutcome {
  /** Exactly what `dispatch` returns for the call. */
  readonly block: ToolResultBlock;
  /** The final result, `details` included. */
  readonly result: ToolResult;
  /** Why the call failed, when it failed before or in the executor; absent when the tool itself returned `isError`. */
  readonly errorCode?: ToolCallErrorCode;
  readonly durationMs: number;
  /**
   * Set when the call was paused for approval (`pauseForApproval`): the call did not run and has not
   * ended. `block` is then a stand-in (`approval-required`) that must not reach the model; resume the
   * call with `session.approvals.resume`.
   */
  readonly pendingApproval?: ApprovalRequest;
}

/** `tool_execution_start`: a dispatched call began (refused calls included). */
export interface ToolExecutionStartEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  /** When the call began, in milliseconds since the epoch (fractional). */
  readonly startedAt: number;
}
/** `tool_execution_update`: a running call reported progress. */
interface ToolExecutionUpdateEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly partial: ToolResult;
}
/** `tool_execution_end`: a call ended, with its result and how long it took. */
export interface ToolExecutionEndEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly durationMs: number;
  readonly isError: boolean;
  /** Why the call failed, when it failed before or in the executor; absent when the tool itself returned `isError`. */
  readonly errorCode?: ToolCallErrorCode;
  /** The final result, `details` included. */
  readonly result: ToolResult;
}
/**
 * `tool_call_phase`: one stretch of a call's life ended, for waterfalls. Phases, in a call's order: `validate`
 * (finding the tool and checking the input; a refused call ends here), `queued` (waiting for other calls of its
 * batch, or for the write lock), `before_hooks`, `approval` (waiting for a person),
 * `execute` (the executor; the built-in `bash` reports `sandbox_start` inside it, a remote executor
 * `queued_remote`, the time its job waited for a worker), `after_hooks`; an executor may report phases of its own
 * (`context.phase`).
 */
export interface ToolCallPhaseEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly phase: ToolCallPhase;
  /** When it started, in milliseconds since the epoch (fractional). */
  readonly startedAt: number;
  readonly durationMs: number;
  /** Set when the call failed in this phase (a hook blocked it, the executor failed or timed out, a person declined). */
  readonly errorCode?: ToolCallErrorCode;
}

/** The phases of a call that toolwire reports, and any an executor names (`context.phase`). */
export type ToolCallPhase =
  | "validate"
  | "queued"
  | "before_hooks"
  | "approval"
  | "sandbox_start"
  | "queued_remote"
  | "execute"
  | "after_hooks"
  | (string & {});

/** `error`: trouble that did not stop a call (a hook or a listener threw), with the call it happened in. */
export interface SessionErrorEvent {
  readonly code: SessionErrorCode;
  readonly error: Error;
  readonly toolCallId?: string;
  readonly toolName?: string;
}

/** A call waiting for a person's yes or no: bound to one call and one exact input. */
export interface ApprovalRequest {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The input that will run if approved: what the before hooks left. */
  readonly input: JsonObject;
  /** `"sha256:"` and the hex SHA-256 of the RFC 8785 canonical JSON of `input`. */
  readonly inputDigest: string;
  readonly descriptor: ToolDescriptor;
  /** Epoch milliseconds: the time of asking plus `ttlMs`. */
  readonly expiresAt: number;
}

/** A person's answer to an `ApprovalRequest`. */
export type ApprovalDecision = { readonly approve: true } | { readonly approve: false; readonly reason?: string };

/** Remembers decided approval ids, so that one decision is applied once, in one process or several. */
export interface ApprovalStore {
  /**
   * True the first time an id is claimed, false every time after, at least until `expiresAt` (epoch
   * milliseconds: the request's own expiry, after which no decision on it runs anything). A store may forget
   * the id after `expiresAt`; without it, it must remember the id for good. Throwing or rejecting declines the call.
   */
  claim(approvalId: string, expiresAt?: number): boolean | Promise<boolean>;
}

/** Which calls need a person's approval, and who gives it. */
export interface ApprovalOptions {
  /** Policy patterns (`bash`, `group:fs`, `mcp:github`, `*`) or a predicate over the call. */
  readonly require:
    | readonly string[]
    | ((call: {
        readonly toolName: string;
        readonly input: JsonObject;
        readonly descriptor: ToolDescriptor;
      }) => boolean);
  /** Asks a person. Without one, a call that needs approval ends with `approval-required`. */
  readonly approver?: (
    request: ApprovalRequest,
    context: { readonly signal: AbortSignal },
  ) => ApprovalDecision | Promise<ApprovalDecision>;
  /** How long a request stays open. Default 900 000 ms (15 minutes). */
  readonly ttlMs?: number;
  /**
   * Where decided ids are claimed. Default: a new `createMemoryApprovalStore()` for this session alone; give
   * sessions that may see the same approval (a gateway's, several processes') one shared store.
   */
  readonly store?: ApprovalStore;
  /**
   * The HMAC-SHA256 key that signs paused runs' states: a long random value of at least 32 bytes (UTF-8); a
   * shorter one throws a `TypeError`. Default: random per session, so a state resumes only in the session that
   * paused it; give the same secret to every process that may resume it.
   */
  readonly secret?: string;
}

/** A decision for a paused call, for `session.approvals.resume`. */
export interface ApprovalResumption {
  /** The request as the pause handed it out (from a verified run state). */
  readonly request: ApprovalRequest;
  readonly decision: ApprovalDecision;
}

/** `approval_resolved`: a request was approved, declined or expired. */
export interface ApprovalResolvedEvent {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly outcome: "approved" | "declined" | "expired";
}

/** The session's events by name, with the payload each listener gets (`session.on(name, listener)`). */
export interface AgentSessionEvents {
  tool_execution_start: ToolExecutionStartEvent;
  tool_execution_update: ToolExecutionUpdateEvent;
  tool_execution_end: ToolExecutionEndEvent;
  tool_call_phase: ToolCallPhaseEvent;
  tool_log: ToolLogEvent;
  approval_requested: ApprovalRequest;
  approval_resolved: ApprovalResolvedEvent;
  error: SessionErrorEvent;
}

/** Why a call produced an error result instead of running to completion. */
export type ToolCallErrorCode =
  | "tool-not-found"
  | "invalid-input"
  | "blocked-by-hook"
  | "execution-failed"
  | "invalid-result"
  | "timeout"
  | "aborted"
  | "approval-required"
  | "approval-declined"
  | "approval-expired";

/** Trouble the session reports without stopping a call. */
export type SessionErrorCode = "after-hook-failed" | "listener-failed" | "refresh-failed";
