// toolwire's public API: a curated list of named exports, grouped by stage (a test pins the names).
// Internals (hook wrapping, policy-pattern compiling, limits) are not exported; docs/reference.md lists every name.

// The vocabulary: descriptors, tools, plans, results, hooks, approvals, events.
export type {
  AfterToolCall,
  AfterToolCallEvent,
  AfterToolCallPatch,
  AgentSessionEvents,
  AgentTool,
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  ApprovalResolvedEvent,
  ApprovalResumption,
  ApprovalStore,
  AudioContent,
  BeforeToolCall,
  BeforeToolCallDecision,
  BeforeToolCallEvent,
  ContentAnnotations,
  ContentBlock,
  ContentExtras,
  DispatchOptions,
  EmbeddedResource,
  EmbeddedResourceContent,
  ExclusionReason,
  HiddenToolPlanEntry,
  ImageContent,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  LiveToolSource,
  PolicyLayer,
  PolicyRemoval,
  PolicyResult,
  RegistryReport,
  RemoteExecutor,
  RemoteToolCall,
  ResourceLinkContent,
  SessionErrorCode,
  SessionErrorEvent,
  TextContent,
  ToolAvailabilityContext,
  ToolAvailabilityDiagnostic,
  ToolAvailabilityExpression,
  ToolAvailabilitySignal,
  ToolCallChildSpan,
  ToolCallContext,
  ToolCallErrorCode,
  ToolCallOutcome,
  ToolCallPhase,
  ToolCallPhaseEvent,
  ToolCallSpan,
  ToolDeferral,
  ToolDescriptor,
  ToolExecutionEndEvent,
  ToolExecutionMode,
  ToolExecutionStartEvent,
  ToolExecutionUpdateEvent,
  ToolExecutorRef,
  ToolExecutorRoute,
  ToolLogEvent,
  ToolLogLevel,
  ToolOwnerRef,
  ToolPlan,
  ToolPlanEntry,
  ToolProtocolDescriptor,
  ToolRegistry,
  ToolRegistryOptions,
  ToolResult,
  ToolResultBlock,
  ToolSource,
  ToolSourceInput,
  ToolUnavailableReason,
  ToolUse,
  TraceContext,
  WriteLock,
} from "./core/types.js";

// Errors: one family, each class with a stable `code` (docs/errors.md lists them all).
export {
  ApprovalError,
  type ApprovalErrorCode,
  isToolwireError,
  SessionError,
  ToolCallError,
  ToolDefinitionError,
  type ToolDefinitionErrorCode,
  ToolPlanContractError,
  type ToolPlanContractErrorCode,
  ToolwireError,
} from "./core/errors.js";
export { MissingPeerDependencyError } from "./load-optional.js";

// Register: define tools and gather them from their sources into one registry.
export { defineTool, type ToolDefinition } from "./core/register/define-tool.js";
export { createToolRegistry } from "./core/register/registry.js";
export type {
  InferJsonSchema,
  InferToolInput,
  StandardSchemaV1,
  ToolSchemaInput,
} from "./core/register/schema-types.js";

// Defer: tools the model finds through tool_search instead of getting them up front (SPEC 19).
export { TOOL_SEARCH_NAME } from "./core/defer/create-tool-search-tool.js";
export { estimateToolTokens } from "./core/defer/estimate-tool-tokens.js";

// Filter: availability, allow/deny policy, and the plan of visible and hidden tools.
export { evaluateToolAvailability } from "./core/filter/availability.js";
export { formatToolExecutorRef, TOOL_NAME_PATTERN, toToolProtocolDescriptors } from "./core/filter/descriptor.js";
export { buildToolPlan } from "./core/filter/planner.js";
export { applyToolPolicy, POLICY_GROUPS } from "./core/filter/policy.js";
export {
  resolveSkillDispatchTools,
  type SkillDispatchRequest,
} from "./core/filter/resolve-skill-dispatch-tools.js";

// Wrap: the session's write lock (hooks are given to the session and to plugins).
export { createWriteLock } from "./core/wrap/write-lock.js";

// Dispatch: the session that validates, wraps and runs every call.
export {
  type AgentSession,
  type AgentSessionOptions,
  DEFAULT_TOOL_TIMEOUT_MS,
  type SessionApprovals,
} from "./core/dispatch/session.js";
export { DEFAULT_MAX_RESULT_CHARS, DEFAULT_MAX_SPILL_BYTES } from "./core/dispatch/result-budget.js";
export type { InputValidator, InputValidatorFactory, ValidationIssue } from "./core/dispatch/validate.js";
export { createAgentSession } from "./create-agent-session.js";
export { createAjvValidator } from "./validation/ajv-validator.js";

// Observe: OpenTelemetry spans and the duration histogram of every call (SPEC 17).
export type {
  SessionTelemetryOptions,
  TelemetryAttributes,
  TelemetryMeter,
  TelemetrySpan,
  TelemetryTracer,
} from "./core/telemetry-types.js";
export { TELEMETRY_SCOPE, TOOL_DURATION_METRIC } from "./telemetry/create-otel-telemetry.js";

// Approve: calls that wait for a person.
export { DEFAULT_APPROVAL_TTL_MS } from "./core/approve/approvals.js";
export { inputDigest } from "./core/approve/input-digest.js";
export { createMemoryApprovalStore, type MemoryApprovalStore } from "./core/approve/memory-approval-store.js";

// Loop: the agent loop over any model client.
export {
  type AgentEvent,
  AgentLoopError,
  type AgentLoopErrorCode,
  type AgentRunState,
  type AgentStopReason,
  DEFAULT_MAX_TURNS,
  type ResumeAgentOptions,
  type RunAgentOptions,
  resumeAgent,
  runAgent,
} from "./loop/index.js";

// Providers: the four wire-format adapters and the model clients.
export {
  type AnthropicModelOptions,
  anthropic,
  createAnthropicModel,
  createGeminiModel,
  createModelFromSpec,
  createOpenAIModel,
  createScriptedModel,
  type FormatToolResultsOptions,
  type FormatToolsOptions,
  formatResponsesToolSearch,
  GEMINI_BASE_URL,
  type GeminiModelOptions,
  gemini,
  listNonStrictTools,
  loadScriptedModel,
  type ModelClient,
  type ModelConnectionOptions,
  ModelError,
  type ModelErrorCode,
  type ModelRequest,
  type ModelSpecOptions,
  type ModelStopReason,
  type ModelTurn,
  type ModelUsage,
  type NonStrictTool,
  type OpenAIModelOptions,
  openaiChat,
  openaiResponses,
  type ProviderAdapter,
  ProviderFormatError,
  type ProviderFormatErrorCode,
  type ProviderMessage,
  type ProviderName,
  type ScriptedExpectation,
  type ScriptedScript,
  type ScriptedTurn,
  type ToolCall,
  type ToolCallDelta,
  type TranscriptMessage,
} from "./providers/index.js";
// The adapters' wire types: structural, assignable to the provider SDKs' own request and response types.
export type {
  AnthropicContentBlockLike,
  AnthropicImageMediaType,
  AnthropicInputSchema,
  AnthropicMessageLike,
  AnthropicResultContent,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolResultMessage,
  GeminiContentLike,
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponsePart,
  GeminiInlineData,
  GeminiPartLike,
  GeminiResponseLike,
  GeminiTool,
  OpenAIChatCompletionLike,
  OpenAIChatFunction,
  OpenAIChatMessageLike,
  OpenAIChatTool,
  OpenAIChatToolCallLike,
  OpenAIChatToolMessage,
  OpenAIResponseLike,
  OpenAIResponsesFunctionTool,
  OpenAIResponsesItemLike,
  OpenAIResponsesOutputPart,
  OpenAIResponsesResultItem,
  OpenAIResponsesToolOutput,
  OpenAIResponsesToolSearchOutput,
  OpenAIResponsesToolSearchTool,
} from "./providers/index.js";

// Plugins.
export {
  definePlugin,
  PLUGIN_ID_PATTERN,
  type Plugin,
  type PluginContext,
  type PluginDefinition,
  PluginError,
  type PluginErrorCode,
  type PluginTools,
} from "./plugins/define-plugin.js";
export {
  createPluginHost,
  type LoadedPlugin,
  type PluginEntry,
  type PluginHost,
  type PluginHostOptions,
  type PluginProblem,
} from "./plugins/plugin-host.js";

// Skills.
export { type FormatSkillsPromptOptions, formatSkillsPrompt } from "./skills/format-skills-prompt.js";
export { type LoadedSkills, loadSkills, SKILL_FILE_NAME, type Skill, type SkillProblem } from "./skills/load-skills.js";

// The config file.
export {
  type BuildFromConfigOptions,
  type BuiltConfig,
  buildFromConfig,
  type ConfigProblem,
  type McpServerPlan,
} from "./config/apply-config.js";
export {
  type AvailabilityConfig,
  CONFIG_FILE_NAME,
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
  type ExecutorConfig,
  type LoadedConfig,
  loadConfig,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  type PluginConfig,
  parseConfig,
  readConfigSchema,
  type ToolwireConfig,
  validateConfig,
} from "./config/load-config.js";
