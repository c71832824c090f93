// The whole vocabulary of toolwire's core, one job's types to a file under types/: a tool described as data (JSON,
// descriptor), what decides whether a model sees it (availability, plan, policy), what it returns (result), how it runs
// (agent-tool, telemetry, remote-executor), and the session around it (registry, hooks, approvals, dispatch,
// session-events). Import them from here.

export type {
  AgentTool,
  ToolCallContext,
  ToolCallPause,
  ToolCallResumption,
  ToolExecutionMode,
} from "./types/agent-tool.js";
export type {
  ApprovalDecision,
  ApprovalOptions,
  ApprovalRequest,
  ApprovalResolvedEvent,
  ApprovalResumption,
  ApprovalStore,
} from "./types/approvals.js";
export type {
  ToolAvailabilityContext,
  ToolAvailabilityDiagnostic,
  ToolAvailabilityExpression,
  ToolAvailabilitySignal,
} from "./types/availability.js";
export type {
  ToolDescriptor,
  ToolEffects,
  ToolExecutorRef,
  ToolOwnerRef,
  ToolProtocolDescriptor,
  ToolTrust,
} from "./types/descriptor.js";
export type {
  DispatchOptions,
  ToolCallErrorCode,
  ToolCallOutcome,
  ToolResultBlock,
  ToolUse,
} from "./types/dispatch.js";
export type {
  CallPolicy,
  CallPolicyDecision,
  CallPolicyRequest,
  FlowOptions,
  FlowSource,
  SessionFlow,
  ToolFlowFacts,
} from "./types/flow.js";
export type {
  AfterToolCall,
  AfterToolCallEvent,
  BeforeToolCall,
  BeforeToolCallEvent,
  WriteLock,
} from "./types/hooks.js";
export type { JsonObject, JsonPrimitive, JsonValue } from "./types/json.js";
export type {
  PinnedToolDefinition,
  ToolDefinitionChange,
  ToolPin,
  ToolPinEntry,
  ToolPinStore,
} from "./types/pins.js";
export type { HiddenToolPlanEntry, ToolPlan, ToolPlanEntry } from "./types/plan.js";
export type { PolicyLayer, PolicyRemoval, PolicyResult } from "./types/policy.js";
export type { AskedQuestion, ToolQuestion, ToolQuestionAnswer } from "./types/questions.js";
export type {
  LiveToolSource,
  RegistryReport,
  ToolCodeOnly,
  ToolDeferral,
  ToolRegistry,
  ToolRegistryOptions,
  ToolSource,
  ToolSourceInput,
} from "./types/registry.js";
export type { RemoteExecutor, RemoteToolCall, ToolExecutorRoute } from "./types/remote-executor.js";
export type {
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLinkContent,
  ToolResult,
} from "./types/result.js";
export type {
  AgentSessionEvents,
  FlowTaintedEvent,
  SessionErrorCode,
  SessionErrorEvent,
  ToolCallPhase,
  ToolCallPhaseEvent,
  ToolExecutionEndEvent,
  ToolExecutionStartEvent,
} from "./types/session-events.js";
export type { ToolCallChildSpan, ToolCallSpan, TraceContext } from "./types/telemetry.js";
export type { ToolLogEvent, ToolLogLevel } from "./types/tool-log.js";
