// A plain-data copy of an untrusted value (a tool's result, a hook's patch, a model's input), made without ever throwing.
import { describeThrown } from "./errors.js";

/** How deep a value may nest before it is refused: deeper input is hostile, and deeper output breaks encoders. */
export const MAX_JSON_DEPTH = 100;
/** How many values (objects, arrays, elements, fields) one copy visits at most. */
export const MAX_JSON_NODES = 1_000_000;

/** A copy, or why there is none (the path of the bad part and what is wrong with it). */
export type JsonCopy =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: string };

/**
 * Copies `value` into fresh plain objects, arrays and primitives, as `JSON.stringify` would see it:
 * `toJSON` is honoured, `undefined`, functions and symbols are left out of objects (and become
 * `null` in arrays), non-finite numbers become `null`. Where `JSON.stringify` would throw (a cycle, a
 * BigInt) or could not finish (a getter or proxy trap that throws, a revoked proxy, more than
 * `MAX_JSON_DEPTH` levels, more than `MAX_JSON_NODES` values), the answer is a problem naming the
 * path, under `root`. Never throws. The copy shares nothing with the original, so later reads of it
 * cannot run code or see a different value.
 */
export function copyJson(value: unknown, root: string): JsonCopy {
  const state: CopyState = { ancestors: [], nodes: 0 };
  try {
    const copied = copyValue(value, "", 0, state);
    return { ok: true, value: copied === OMIT ? undefined : copied };
  } catch (error) {
    if (error instanceof CopyFailure) return { ok: false, problem: `${root}${error.path} ${error.reason}` };
    return { ok: false, problem: `${root} could not be copied (${describeThrown(error)})` };
  }
}

const OMIT: unique symbol = Symbol("omit");

interface CopyState {
  /** The objects being copied, outermost first: checked only at the depth limit, where a cycle ends up. */
  readonly ancestors: object[];
  nodes: number;
}

class CopyFailure {
  /** The path from the root, segment by segment, filled in on the way out. */
  readonly segments: string[] = [];
  constructor(
    readonly reason: string,
    /** How many segments of the path name the bad value (a cycle is found deeper than where it closes). */
    readonly keep = Number.POSITIVE_INFINITY,
  ) {}

  get path(): string {
    return this.segments.slice(0, this.keep).join("");
  }
}

function copyValue(value: unknown, key: string, depth: number, state: CopyState): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "undefined":
    case "function":
    case "symbol":
      return OMIT;
    case "bigint":
      throw new CopyFailure("is a BigInt, which JSON cannot hold");
  }
  if (value === null) return null;
  const object = value as object;
  if (++state.nodes > MAX_JSON_NODES) throw tooLarge();
  if (depth >= MAX_JSON_DEPTH) {
    if (!state.ancestors.includes(object)) throw new CopyFailure(`is nested more than ${MAX_JSON_DEPTH} levels deep`);
    throw new CopyFailure("refers to itself (a cycle), which JSON cannot hold", firstRepeat(state.ancestors));
  }
  // Every read below may run user code (a getter, a proxy trap); its throw becomes a failure at this path.
  let isArray: boolean;
  let toJSON: unknown;
  try {
    toJSON = (object as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return copyValue(toJSON.call(object, key), key, depth, state);
    isArray = Array.isArray(object);
  } catch (error) {
    throw unreadable(error);
  }
  state.ancestors.push(object);
  const copied = isArray ? copyArray(object as unknown[], depth, state) : copyObject(object, depth, state);
  state.ancestors.pop();
  return copied;
}

function copyArray(array: readonly unknown[], depth: number, state: CopyState): unknown[] {
  let length: number;
  try {
    length = array.length;
  } catch (error) {
    throw unreadable(error);
  }
  if (length > MAX_JSON_NODES - state.nodes) throw tooLarge();
  const copied: unknown[] = new Array(length);
  for (let index = 0; index < length; index++) {
    try {
      const element = copyValue(array[index], String(index), depth + 1, state);
      copied[index] = element === OMIT ? null : element;
    } catch (error) {
      throw within(error, `[${index}]`);
    }
  }
  state.nodes += length;
  return copied;
}

function copyObject(object: object, depth: number, state: CopyState): Record<string, unknown> {
  let keys: string[];
  try {
    keys = Object.keys(object);
  } catch (error) {
    throw unreadable(error);
  }
  const copied: Record<string, unknown> = {};
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    try {
      const field = copyValue((object as Record<string, unknown>)[key], key, depth + 1, state);
      if (field === OMIT) continue;
      if (key === "__proto__") Object.defineProperty(copied, key, { value: field, enumerable: true, writable: true });
      else copied[key] = field;
    } catch (error) {
      throw within(error, /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);
    }
  }
  return copied;
}

/** The depth at which the path first comes back to an object it went through. */
function firstRepeat(ancestors: readonly object[]): number {
  const seen = new Set<object>();
  for (let depth = 0; depth < ancestors.length; depth++) {
    const object = ancestors[depth] as object;
    if (seen.has(object)) return depth;
    seen.add(object);
  }
  return ancestors.length;
}

function tooLarge(): CopyFailure {
  return new CopyFailure(`is too large (more than ${MAX_JSON_NODES} values)`);
}

/** A throw from user code while reading: a failure at the path of the value being read. */
function unreadable(error: unknown): unknown {
  return error instanceof CopyFailure ? error : new CopyFailure(`could not be read (${describeThrown(error)})`);
}

/** Adds one path segment to a failure on its way out; anything else thrown while reading becomes one. */
function within(error: unknown, segment: string): CopyFailure {
  const failure = unreadable(error) as CopyFailure;
  failure.segments.unshift(segment);
  return failure;
}
