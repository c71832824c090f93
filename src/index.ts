// toolwire's public API, grouped by stage: the vocabulary, register, filter, wrap, dispatch.

// Approve
export { createMemoryApprovalStore, DEFAULT_APPROVAL_TTL_MS } from "./core/approve/approvals.js";
export { inputDigest } from "./core/approve/input-digest.js";
export type { StateSeal } from "./core/approve/state-seal.js";
export { MAX_JSON_DEPTH, MAX_JSON_NODES } from "./core/copy-json.js";
export { normalizeToolResult } from "./core/tool-result.js";
// Dispatch
export {
  type AgentSession,
  type AgentSessionOptions,
  DEFAULT_TOOL_TIMEOUT_MS,
  type SessionApprovals,
} from "./core/dispatch/session.js";
export { buildSystemPrompt } from "./core/dispatch/system-prompt.js";
export type { InputValidator, InputValidatorFactory, ValidationIssue } from "./core/dispatch/validate.js";
export {
  ApprovalError,
  type ApprovalErrorCode,
  describeThrown,
  MAX_DESCRIBED_CHARS,
  SessionError,
  ToolCallError,
  ToolDefinitionError,
  type ToolDefinitionErrorCode,
  ToolPlanContractError,
  type ToolPlanContractErrorCode,
} from "./core/errors.js";
// Filter
export { evaluateToolAvailability, MAX_AVAILABILITY_DEPTH } from "./core/filter/availability.js";
export { formatToolExecutorRef, TOOL_NAME_PATTERN, toToolProtocolDescriptors } from "./core/filter/descriptor.js";
export { buildToolPlan, compareDescriptors } from "./core/filter/planner.js";
export { applyToolPolicy, compilePolicyPattern, POLICY_GROUPS } from "./core/filter/policy.js";
// Register
export { defaultExecutorRef, defineTool, type ToolDefinition } from "./core/register/define-tool.js";
export { createToolRegistry } from "./core/register/registry.js";
export type {
  InferJsonSchema,
  InferToolInput,
  StandardSchemaV1,
  ToolSchemaInput,
} from "./core/register/schema-types.js";
export { isLiveToolSource } from "./core/register/sources.js";
// The vocabulary
export type {
  AfterToolCall,
  AfterToolCallEvent,
  AfterToolCallPatch,
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  ApprovalResolvedEvent,
  ApprovalResumption,
  ApprovalStore,
  AgentSessionEvents,
  AgentTool,
  BeforeToolCall,
  BeforeToolCallDecision,
  BeforeToolCallEvent,
  AudioContent,
  ContentAnnotations,
  ContentBlock,
  ContentExtras,
  EmbeddedResource,
  EmbeddedResourceContent,
  DispatchOptions,
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
  ResourceLinkContent,
  SessionErrorCode,
  SessionErrorEvent,
  TextContent,
  ToolAvailabilityContext,
  ToolAvailabilityDiagnostic,
  ToolAvailabilityExpression,
  ToolAvailabilitySignal,
  ToolCallContext,
  ToolCallErrorCode,
  ToolDescriptor,
  ToolCallOutcome,
  ToolExecutionEndEvent,
  ToolExecutionMode,
  ToolExecutionStartEvent,
  ToolExecutionUpdateEvent,
  ToolLogEvent,
  ToolLogLevel,
  ToolExecutorRef,
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
  WriteLock,
} from "./core/types.js";
export { isWrappedTool, type ToolOutcome, type WrappedTool, wrapTool } from "./core/wrap/wrap-tool.js";
// Wrap
export { createWriteLock } from "./core/wrap/write-lock.js";
export { createAgentSession } from "./create-agent-session.js";
export { MCP_SDK_PACKAGES, MissingPeerDependencyError } from "./load-optional.js";
// Loop
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
// Providers
export {
  type AnthropicModelOptions,
  anthropic,
  createAnthropicModel,
  createGeminiModel,
  createModelFromSpec,
  createOpenAIModel,
  createScriptedModel,
  type FormatToolsOptions,
  GEMINI_BASE_URL,
  type GeminiModelOptions,
  gemini,
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
export { createAjvValidator } from "./validation/ajv-validator.js";

// Policy and skills (SPEC 7)
export {
  resolveSkillDispatchTools,
  type SkillDispatchRequest,
} from "./core/filter/resolve-skill-dispatch-tools.js";
export { type FormatSkillsPromptOptions, formatSkillsPrompt } from "./skills/format-skills-prompt.js";
export {
  type LoadedSkills,
  loadSkills,
  MAX_SKILL_FILE_BYTES,
  SKILL_FILE_NAME,
  type Skill,
  type SkillProblem,
} from "./skills/load-skills.js";

// Plugins (SPEC 8)
export {
  definePlugin,
  isPlugin,
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

// The config file
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
