// Availability: a tiny boolean language over signals whose evaluation returns diagnostics, never throws.
import { isRecord, ownValue } from "../json.js";
import type {
  JsonValue,
  ToolAvailabilityContext,
  ToolAvailabilityDiagnostic,
  ToolAvailabilityExpression,
  ToolAvailabilitySignal,
  ToolDescriptor,
} from "../types.js";

/** Groups nested deeper than this make an expression malformed. */
const MAX_AVAILABILITY_DEPTH = 64;
/** An expression that reuses sub-expressions could otherwise produce exponentially many diagnostics. */
const MAX_DIAGNOSTICS = 256;

const UNSUPPORTED: ToolAvailabilityDiagnostic = Object.freeze({
  reason: "unsupported-signal",
  message: "Unsupported availability expression",
});

const CHECKS = new Set(["exists", "non-empty", "available"]);

/**
 * Judges a descriptor's availability against a context. An empty array means available.
 * Malformed expressions (bad shapes, cycles, more than 64 groups deep) give the single
 * `unsupported-signal` diagnostic. Never throws, never recurses without bound, and runs in time
 * linear in the number of distinct expression objects.
 */
export function evaluateToolAvailability(args: {
  descriptor: ToolDescriptor;
  context?: ToolAvailabilityContext;
}): ToolAvailabilityDiagnostic[] {
  const expression: unknown = args.descriptor.availability;
  if (expression === undefined) return [];
  const height = measure(expression, new Set(), new Map());
  if (height < 0 || height > MAX_AVAILABILITY_DEPTH) return [UNSUPPORTED];
  const memo = new Map<object, readonly ToolAvailabilityDiagnostic[]>();
  return [...evaluate(expression as ToolAvailabilityExpression, args.context ?? {}, memo)];
}

function defined(record: Record<string, unknown>, key: string): unknown {
  return ownValue(record, key);
}

/** Groups on the deepest path (0 for a signal), or -1 when malformed. Memoized, so shared sub-expressions cost once. */
function measure(value: unknown, ancestors: Set<object>, heights: Map<object, number>): number {
  if (!isRecord(value)) return -1;
  const known = heights.get(value);
  if (known !== undefined) return known;
  if (ancestors.has(value)) return -1; // a cycle
  const allOf = defined(value, "allOf");
  const anyOf = defined(value, "anyOf");
  const kind = defined(value, "kind");
  let height: number;
  if (allOf !== undefined || anyOf !== undefined) {
    if (kind !== undefined || (allOf !== undefined && anyOf !== undefined)) return -1;
    const children = allOf ?? anyOf;
    if (!Array.isArray(children) || ancestors.size >= MAX_AVAILABILITY_DEPTH) return -1; // or too deep
    ancestors.add(value);
    let deepest = 0;
    for (let index = 0; index < children.length && deepest >= 0; index++) {
      const child = measure(children[index], ancestors, heights);
      deepest = child < 0 ? -1 : Math.max(deepest, child);
    }
    ancestors.delete(value);
    height = deepest < 0 ? -1 : deepest + 1;
  } else {
    height = isWellFormedSignal(value, kind) ? 0 : -1;
  }
  heights.set(value, height);
  return height;
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isWellFormedSignal(signal: Record<string, unknown>, kind: unknown): boolean {
  switch (kind) {
    case "always":
      return true;
    case "auth":
      return isString(defined(signal, "providerId"));
    case "config": {
      const path = defined(signal, "path");
      const check = defined(signal, "check");
      return Array.isArray(path) && path.every(isString) && (check === undefined || CHECKS.has(check as string));
    }
    case "env":
      return isString(defined(signal, "name"));
    case "plugin-enabled":
      return isString(defined(signal, "pluginId"));
    case "capability": {
      const explanation = defined(signal, "explanation");
      return isString(defined(signal, "name")) && (explanation === undefined || isString(explanation));
    }
    case "context": {
      const equals = defined(signal, "equals");
      return (
        isString(defined(signal, "key")) &&
        (equals === undefined ||
          equals === null ||
          typeof equals === "string" ||
          typeof equals === "boolean" ||
          (typeof equals === "number" && Number.isFinite(equals)))
      );
    }
    default:
      return false;
  }
}

const PASS: readonly ToolAvailabilityDiagnostic[] = Object.freeze([]);

function evaluate(
  expression: ToolAvailabilityExpression,
  context: ToolAvailabilityContext,
  memo: Map<object, readonly ToolAvailabilityDiagnostic[]>,
): readonly ToolAvailabilityDiagnostic[] {
  const cached = memo.get(expression);
  if (cached !== undefined) return cached;
  let result: readonly ToolAvailabilityDiagnostic[];
  const allOf = defined(expression as Record<string, unknown>, "allOf") as ToolAvailabilityExpression[] | undefined;
  const anyOf = defined(expression as Record<string, unknown>, "anyOf") as ToolAvailabilityExpression[] | undefined;
  if (allOf !== undefined) {
    result =
      allOf.length === 0
        ? [{ reason: "unsupported-signal", message: "Empty availability allOf group" }]
        : concat(allOf.map((child) => evaluate(child, context, memo)));
  } else if (anyOf !== undefined) {
    if (anyOf.length === 0) {
      result = [{ reason: "unsupported-signal", message: "Empty availability anyOf group" }];
    } else {
      const children = anyOf.map((child) => evaluate(child, context, memo));
      const all = concat(children);
      // A passing branch hides the others' misses, but never a malformed branch.
      result = children.some((diagnostics) => diagnostics.length === 0)
        ? all.filter((diagnostic) => diagnostic.reason === "unsupported-signal")
        : all;
    }
  } else {
    const diagnostic = evaluateSignal(expression as ToolAvailabilitySignal, context);
    result = diagnostic === undefined ? PASS : [diagnostic];
  }
  memo.set(expression, result);
  return result;
}

function concat(parts: readonly (readonly ToolAvailabilityDiagnostic[])[]): ToolAvailabilityDiagnostic[] {
  const out: ToolAvailabilityDiagnostic[] = [];
  for (const part of parts) {
    for (const diagnostic of part) {
      if (out.length >= MAX_DIAGNOSTICS) return out;
      out.push(diagnostic);
    }
  }
  return out;
}

function evaluateSignal(
  signal: ToolAvailabilitySignal,
  context: ToolAvailabilityContext,
): ToolAvailabilityDiagnostic | undefined {
  switch (signal.kind) {
    case "always":
      return undefined;
    case "auth":
      return context.authProviderIds?.has(signal.providerId)
        ? undefined
        : { reason: "auth-missing", signal, message: `Missing auth provider: ${signal.providerId}` };
    case "config":
      return checkConfig(signal, context)
        ? undefined
        : { reason: "config-missing", signal, message: `Missing config path: ${signal.path.join(".")}` };
    case "env": {
      const value = context.env === undefined ? undefined : ownValue(context.env, signal.name);
      return typeof value === "string" && value.trim() !== ""
        ? undefined
        : { reason: "env-missing", signal, message: `Missing environment value: ${signal.name}` };
    }
    case "plugin-enabled":
      return context.enabledPluginIds?.has(signal.pluginId)
        ? undefined
        : { reason: "plugin-disabled", signal, message: `Plugin is not enabled: ${signal.pluginId}` };
    case "capability":
      return context.capabilities?.has(signal.name)
        ? undefined
        : {
            reason: "capability-missing",
            signal,
            message: `Missing capability: ${signal.name}${signal.explanation === undefined ? "" : `: ${signal.explanation}`}`,
          };
    case "context": {
      const value = context.values === undefined ? undefined : ownValue(context.values, signal.key);
      if (signal.equals === undefined) {
        return value !== undefined
          ? undefined
          : { reason: "context-mismatch", signal, message: `Missing context value: ${signal.key}` };
      }
      return value === signal.equals
        ? undefined
        : { reason: "context-mismatch", signal, message: `Context value did not match: ${signal.key}` };
    }
  }
}

function checkConfig(signal: Extract<ToolAvailabilitySignal, { kind: "config" }>, context: ToolAvailabilityContext) {
  let value: unknown = context.config;
  for (const key of signal.path) {
    if (!isRecord(value)) return false;
    value = ownValue(value, key);
  }
  if (value === undefined || value === null) return false;
  switch (signal.check ?? "exists") {
    case "exists":
      return true;
    case "non-empty":
      if (typeof value === "string") return value.trim() !== "";
      if (Array.isArray(value)) return value.length > 0;
      if (isRecord(value)) return Object.keys(value).length > 0;
      return true;
    case "available":
      try {
        return context.isConfigValueAvailable?.({ value: value as JsonValue, path: signal.path, signal }) === true;
      } catch {
        return false;
      }
  }
}
