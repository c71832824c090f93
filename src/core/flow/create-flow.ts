// A session's flow rules and taint: which tools are untrusted or guarded, and which untrusted calls reached it.
import { compilePolicyPattern } from "../filter/policy.js";
import type { CallPolicy, FlowOptions, FlowSource, SessionFlow, ToolDescriptor } from "../types.js";
import { toolEffects, toolTrust } from "./tool-provenance.js";

/** The session's flow rules, compiled once, and its taint. */
export interface Flow {
  /** Whether guarded calls meet the rules: the session was given `flow`. Without it the taint is only tracked. */
  readonly enforced: boolean;
  readonly whenTainted: "approve" | "block";
  readonly policy: CallPolicy | undefined;
  isUntrusted(descriptor: ToolDescriptor): boolean;
  isGuarded(descriptor: ToolDescriptor): boolean;
  /** Adds the calls that brought untrusted content (each call once); returns whether any was new. */
  taint(sources: readonly FlowSource[]): boolean;
  /** `session.flow`: a live view of the taint. */
  readonly view: SessionFlow;
}

/** Checks the options and compiles the patterns. Throws a `TypeError` on options that cannot work. */
export function createFlow(options: FlowOptions | undefined): Flow {
  const untrusted = compilePatterns(options?.untrusted, "untrusted");
  const guarded = compilePatterns(options?.guarded, "guarded");
  const whenTainted = options?.whenTainted ?? "approve";
  if (whenTainted !== "approve" && whenTainted !== "block") {
    throw new TypeError(`flow.whenTainted must be "approve" or "block", got ${JSON.stringify(whenTainted)}`);
  }
  const policy = options?.policy;
  if (policy !== undefined && typeof policy !== "function") throw new TypeError("flow.policy must be a function");
  const matches = (patterns: typeof untrusted, descriptor: ToolDescriptor) => {
    if (patterns.length === 0) return false;
    const lower = descriptor.name.toLowerCase();
    return patterns.some((pattern) => pattern(descriptor, lower));
  };
  let sources: FlowSource[] = [];
  const taint = (added: readonly FlowSource[]): boolean => {
    if (!Array.isArray(added)) throw new TypeError("flow.taint takes a list of { toolCallId, toolName }");
    const fresh: FlowSource[] = [];
    for (const source of added) {
      const { toolCallId, toolName } = (source ?? {}) as Partial<FlowSource>;
      if (typeof toolCallId !== "string" || typeof toolName !== "string") {
        throw new TypeError("flow.taint takes a list of { toolCallId, toolName } strings");
      }
      const known = (id: string) =>
        sources.some((it) => it.toolCallId === id) || fresh.some((it) => it.toolCallId === id);
      if (!known(toolCallId)) fresh.push({ toolCallId, toolName });
    }
    if (fresh.length > 0) sources = [...sources, ...fresh];
    return fresh.length > 0;
  };
  const isUntrusted = (descriptor: ToolDescriptor) =>
    toolTrust(descriptor) === "untrusted" || matches(untrusted, descriptor);
  const isGuarded = (descriptor: ToolDescriptor) =>
    toolEffects(descriptor) === "external" || matches(guarded, descriptor);
  const enforced = options !== undefined;
  const view: SessionFlow = Object.freeze({
    enabled: enforced,
    whenTainted,
    describeTool: (descriptor: ToolDescriptor) => ({
      trust: isUntrusted(descriptor) ? ("untrusted" as const) : ("trusted" as const),
      effects: toolEffects(descriptor),
      guarded: isGuarded(descriptor),
    }),
    get tainted() {
      return sources.length > 0;
    },
    get sources() {
      return sources.map((source) => ({ ...source }));
    },
    taint(added: readonly FlowSource[]) {
      taint(added);
    },
    reset() {
      sources = [];
    },
  });
  return {
    enforced,
    whenTainted,
    policy,
    isUntrusted,
    isGuarded,
    taint,
    view,
  };
}

function compilePatterns(patterns: readonly string[] | undefined, key: string) {
  if (patterns === undefined) return [];
  if (!Array.isArray(patterns) || !patterns.every((pattern) => typeof pattern === "string")) {
    throw new TypeError(`flow.${key} must be a list of policy patterns (strings)`);
  }
  return patterns.map((pattern) => compilePolicyPattern(pattern));
}
