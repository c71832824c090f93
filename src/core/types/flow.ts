// Flow rules: which calls brought untrusted content into a session, and what a guarded call may do after them.
import type { ToolDescriptor, ToolEffects, ToolTrust } from "./descriptor.js";
import type { JsonObject } from "./json.js";

/** A call of an untrusted tool whose result reached the session: why it is tainted. */
export interface FlowSource {
  readonly toolCallId: string;
  readonly toolName: string;
}

/** Flow rules (docs/security.md): what counts as untrusted, what is guarded, and what a guarded call meets. */
export interface FlowOptions {
  /** Policy patterns of more tools to treat as untrusted (beside MCP tools and those declaring `trust: "untrusted"`). */
  readonly untrusted?: readonly string[];
  /** Policy patterns of more tools to guard (beside every tool whose `effects` are `external`). */
  readonly guarded?: readonly string[];
  /** What a guarded call meets while the session is tainted: a person's approval (default) or a refusal. */
  readonly whenTainted?: "approve" | "block";
  /** Judges every call before its approval (after the before hooks): a Cedar policy (`toolwire/cedar`) or your own. */
  readonly policy?: CallPolicy;
}

/** A tool as flow rules see it: its trust and effects (declared or default), and whether the rules guard it. */
export interface ToolFlowFacts {
  readonly trust: ToolTrust;
  readonly effects: ToolEffects;
  /** Whether a call of it needs a person (or is refused) while the session is tainted, when flow rules are on. */
  readonly guarded: boolean;
}

/** The session's flow state and rules: `session.flow`. */
export interface SessionFlow {
  /** Whether flow rules stop guarded calls (the session was given `flow`); without them the taint is only tracked. */
  readonly enabled: boolean;
  /** What a guarded call meets while the session is tainted. */
  readonly whenTainted: "approve" | "block";
  /** How the rules see a tool (a descriptor of the registry, say): for a plan or a page that shows them. */
  describeTool(descriptor: ToolDescriptor): ToolFlowFacts;
  /** True once a call of an untrusted tool returned a result, until `reset()`. */
  readonly tainted: boolean;
  /** The untrusted calls whose results reached the session, in order. */
  readonly sources: readonly FlowSource[];
  /**
   * Marks the session tainted by these calls, as if their results had just returned (a loop resuming a paused run
   * restores its state's taint so). Only adds: nothing a call or a model sends can clear the taint.
   */
  taint(sources: readonly FlowSource[]): void;
  /** Clears the taint: for a new conversation, whose model has not seen the untrusted content. */
  reset(): void;
}

/** What a call policy judges: the call as it would run, its tool's trust and effects, and the session's taint. */
export interface CallPolicyRequest {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The input the before hooks left, frozen. */
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
  readonly trust: ToolTrust;
  readonly effects: ToolEffects;
  /** Whether flow rules guard this tool. */
  readonly guarded: boolean;
  readonly tainted: boolean;
  readonly sources: readonly FlowSource[];
  /** The call whose program made this call (code mode's `run_code`); absent for a call the model made. */
  readonly parentToolCallId?: string;
}

/** A call policy's answer: allow (`undefined`), or deny, naming the rule that denied it. */
export type CallPolicyDecision = undefined | { readonly deny: true; readonly rule?: string; readonly reason?: string };

/** Judges one call; a throw or a rejection denies it. */
export type CallPolicy = (request: CallPolicyRequest) => CallPolicyDecision | void | Promise<CallPolicyDecision | void>;
