// toolwire's public API: a curated list of named exports, grouped by stage (a test pins the names).
// The root holds what a program names to use each stage: its functions, what it is given, what a program writes
// (tools, hooks, approvers, stores, validators, executors, model clients) and what it keeps (plans, run states). The
// parts of those types stay reachable through them (`AgentSessionEvents["tool_execution_end"]`). Provider wire
// formats, telemetry, plugins, skills and the config file have entries of their own (toolwire/providers,
// toolwire/telemetry, toolwire/plugins, toolwire/skills, toolwire/config); docs/reference.md lists every name.

// Register: define tools, describe them, and gather them from their sources into one registry.
export { defineTool, type ToolDefinition } from "./core/register/define-tool.js";
export type { InferToolInput, ToolSchemaInput } from "./core/register/schema-types.js";
export { createToolRegistry } from "./core/register/registry.js";
export { fingerprintToolDefinition } from "./core/register/fingerprint-tool-definition.js";
export { createMemoryPinStore } from "./core/register/memory-pin-store.js";
export { formatToolExecutorRef, TOOL_NAME_PATTERN, toToolProtocolDescriptors } from "./core/filter/descriptor.js";
export type {
  AgentTool,
  ContentBlock,
  JsonObject,
  JsonValue,
  LiveToolSource,
  PinnedToolDefinition,
  RegistryReport,
  RemoteExecutor,
  RemoteToolCall,
  ToolCallContext,
  ToolCallPause,
  ToolCallResumption,
  ToolDefinitionChange,
  ToolDescriptor,
  ToolPin,
  ToolPinEntry,
  ToolPinStore,
  ToolRegistry,
  ToolRegistryOptions,
  ToolResult,
  ToolSourceInput,
} from "./core/types.js";

// Filter: availability, allow/deny policy, the plan of visible and hidden tools, and tools deferred to tool_search.
export { evaluateToolAvailability } from "./core/filter/availability.js";
export { buildToolPlan } from "./core/filter/planner.js";
export { applyToolPolicy, POLICY_GROUPS } from "./core/filter/policy.js";
export { TOOL_SEARCH_NAME } from "./core/defer/create-tool-search-tool.js";
export { estimateToolTokens } from "./core/defer/estimate-tool-tokens.js";
export type {
  PolicyLayer,
  PolicyResult,
  ToolAvailabilityContext,
  ToolAvailabilityExpression,
  ToolPlan,
} from "./core/types.js";

// Wrap: before and after hooks around every call, and the write lock they run under.
export { createWriteLock } from "./core/wrap/write-lock.js";
export type {
  AfterToolCall,
  AfterToolCallEvent,
  BeforeToolCall,
  BeforeToolCallEvent,
  WriteLock,
} from "./core/types.js";

// Dispatch: the session that validates, wraps and runs every call.
export { createAgentSession } from "./create-agent-session.js";
export { type AgentSession, type AgentSessionOptions, DEFAULT_TOOL_TIMEOUT_MS } from "./core/dispatch/session.js";
export { DEFAULT_MAX_RESULT_CHARS, DEFAULT_MAX_SPILL_BYTES } from "./core/dispatch/result-budget.js";
export { createAjvValidator } from "./validation/ajv-validator.js";
export type { InputValidator, InputValidatorFactory, ValidationIssue } from "./core/dispatch/validate.js";
export type { AgentSessionEvents, DispatchOptions, ToolCallOutcome, ToolResultBlock, ToolUse } from "./core/types.js";

// Approvals: calls that wait for a person's yes or no.
export { DEFAULT_APPROVAL_TTL_MS } from "./core/approve/approvals.js";
export { inputDigest } from "./core/approve/input-digest.js";
export { createMemoryApprovalStore, type MemoryApprovalStore } from "./core/approve/memory-approval-store.js";
export type { SessionApprovals } from "./core/dispatch/session.js";
export type {
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  ApprovalResumption,
  ApprovalStore,
  AskedQuestion,
  ToolQuestion,
  ToolQuestionAnswer,
} from "./core/types.js";

// Loop: the agent loop over any model client.
export {
  type AgentEvent,
  type AgentRunState,
  DEFAULT_MAX_TURNS,
  type ResumeAgentOptions,
  type RunAgentOptions,
  resumeAgent,
  runAgent,
} from "./loop/index.js";

// Replay: record a run (model turns and tool calls) and replay it offline, failing at the first divergence.
export { createRecorder, type Recorder } from "./replay/create-recorder.js";
export { createReplayModel, type ReplayModel } from "./replay/create-replay-model.js";
export { createReplaySession, type ReplaySessionOptions } from "./replay/create-replay-session.js";
export { formatRecording, parseRecording, readRecording, type RunRecord } from "./replay/recording.js";

// Model clients: Anthropic, OpenAI and compatible servers, Gemini, a scripted model, and the contract they share.
export { type AnthropicModelOptions, createAnthropicModel } from "./providers/clients/anthropic-model.js";
export { createGeminiModel, type GeminiModelOptions } from "./providers/clients/gemini-model.js";
export { createModelFromSpec, type ModelSpecOptions } from "./providers/clients/model-from-spec.js";
export { createOpenAIModel, type OpenAIModelOptions } from "./providers/clients/openai-model.js";
export {
  createScriptedModel,
  loadScriptedModel,
  type ScriptedScript,
  type ScriptedTurn,
} from "./providers/clients/scripted-model.js";
export type { ModelClient, ModelRequest, ModelTurn, TranscriptMessage } from "./providers/clients/types.js";

// Errors: one family, each class with a stable `code` (docs/errors.md lists them all).
export {
  ApprovalError,
  type ApprovalErrorCode,
  isToolwireError,
  SessionError,
  ToolCallError,
  ToolDefinitionError,
  type ToolDefinitionErrorCode,
  ToolPinError,
  type ToolPinErrorCode,
  ToolPlanContractError,
  type ToolPlanContractErrorCode,
  ToolwireError,
} from "./core/errors.js";
export type { SessionErrorCode, ToolCallErrorCode } from "./core/types.js";
export { AgentLoopError, type AgentLoopErrorCode } from "./loop/index.js";
export { MissingPeerDependencyError } from "./load-optional.js";
export { ModelError, type ModelErrorCode } from "./providers/errors.js";
export { ReplayError, type ReplayErrorCode } from "./replay/replay-error.js";
