// A plain-data copy of an untrusted value (a tool's result, a hook's patch, a model's input), made without ever
// throwing.

import { describeThrown } from "./errors.js";
import { setOwn } from "./json.js";

/** How deep a value may nest before it is refused: deeper input is hostile, and deeper output breaks encoders. */
export const MAX_JSON_DEPTH = 100;
/** How many values (objects, arrays, elements, fields) one copy visits at most. */
const MAX_JSON_NODES = 1_000_000;

/** A copy, or why there is none (the path of the bad part and what is wrong with it). */
type JsonCopy = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

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
  // The common case (most tool inputs are one object of strings, numbers and booleans) at a third of the cost: its
  // fields read once, and nothing more to do. Anything else goes on to the general copy, from what was read.
  const read = readPlainObject(value);
  if (read !== undefined && isFlat(read)) return { ok: true, value: read };
  const state: CopyState = { ancestors: [], nodes: 0 };
  try {
    const copied = read === undefined ? copyValue(value, "", 0, state) : copyReadObject(value as object, read, state);
    return { ok: true, value: copied === OMIT ? undefined : copied };
  } catch (error) {
    if (error instanceof CopyFailure) return { ok: false, problem: `${root}${error.path} ${error.reason}` };
    return { ok: false, problem: `${root} could not be copied (${describeThrown(error)})` };
  }
}

/**
 * A plain object's own fields, read once (getters included) into a fresh object, or `undefined` for anything else
 * (arrays, class instances, an object with its own `toJSON`, a proxy or getter that throws): those go to the general
 * copy as they are.
 */
function readPlainObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
    const read: Record<string, unknown> = { ...value };
    return typeof read.toJSON === "function" ? undefined : read; // `toJSON` is called on the original
  } catch {
    return undefined; // the general copy reads again, and names the field that cannot be read
  }
}

/** The most fields `isFlat` checks; a larger object takes the general copy, which counts its values. */
const MAX_FLAT_FIELDS = 64;

/** Whether every field of a fresh plain object is already JSON as it is: a string, a boolean or a finite number. */
function isFlat(read: Record<string, unknown>): boolean {
  const keys = Object.keys(read);
  if (keys.length > MAX_FLAT_FIELDS) return false;
  for (let index = 0; index < keys.length; index++) {
    const field = read[keys[index] as string];
    const type = typeof field;
    if (type !== "string" && type !== "boolean" && !(type === "number" && Number.isFinite(field))) return false;
  }
  return true;
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
  let copied: unknown[];
  try {
    if (array.length > MAX_JSON_NODES - state.nodes) throw tooLarge();
    copied = Array.prototype.slice.call(array); // one read of each element (a proxy's traps run here, once)
  } catch (error) {
    if (error instanceof CopyFailure) throw error;
    return copyArrayByIndex(array, depth, state); // find which element cannot be read, to name it
  }
  state.nodes += copied.length;
  for (let index = 0; index < copied.length; index++) {
    const element = copied[index];
    if (typeof element === "string" || typeof element === "boolean") continue; // most elements: nothing to do
    try {
      const value = copyValue(element, String(index), depth + 1, state);
      copied[index] = value === OMIT ? null : value;
    } catch (error) {
      throw within(error, `[${index}]`);
    }
  }
  return copied;
}

function copyObject(object: object, depth: number, state: CopyState): Record<string, unknown> {
  let copied: Record<string, unknown>;
  try {
    // One read of each own enumerable field, getters and proxy traps included; fast for plain objects.
    copied = { ...object };
  } catch {
    return copyObjectByKey(object, depth, state); // find which field cannot be read, to name it
  }
  return copyFields(copied, depth, state);
}

/** The root object, whose fields `readPlainObject` has read already: copied from those, with the root as itself. */
function copyReadObject(object: object, read: Record<string, unknown>, state: CopyState): Record<string, unknown> {
  ++state.nodes;
  state.ancestors.push(object);
  const copied = copyFields(read, 0, state);
  state.ancestors.pop();
  return copied;
}

/** Copies the fields of `copied`, a fresh object holding what was read, in place. */
function copyFields(copied: Record<string, unknown>, depth: number, state: CopyState): Record<string, unknown> {
  const keys = Object.keys(copied);
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const field = copied[key];
    if (typeof field === "string" || typeof field === "boolean") continue; // most fields: nothing to do
    try {
      const value = copyValue(field, key, depth + 1, state);
      if (value === OMIT) delete copied[key];
      else if (value !== field) setOwn(copied, key, value);
    } catch (error) {
      throw within(error, segmentOf(key));
    }
  }
  return copied;
}

/** The slow copy, one element at a time: only for an array that could not be copied whole. */
function copyArrayByIndex(array: readonly unknown[], depth: number, state: CopyState): unknown[] {
  let length: number;
  try {
    length = array.length;
  } catch (error) {
    throw unreadable(error);
  }
  if (!(length <= MAX_JSON_NODES - state.nodes)) throw tooLarge();
  state.nodes += length;
  const copied: unknown[] = [];
  for (let index = 0; index < length; index++) {
    try {
      let element: unknown;
      try {
        element = array[index];
      } catch (error) {
        throw unreadable(error);
      }
      const value = copyValue(element, String(index), depth + 1, state);
      copied.push(value === OMIT ? null : value);
    } catch (error) {
      throw within(error, `[${index}]`);
    }
  }
  return copied;
}

/** The slow copy, one field at a time: only for an object that could not be copied whole. */
function copyObjectByKey(object: object, depth: number, state: CopyState): Record<string, unknown> {
  let keys: string[];
  try {
    keys = Object.keys(object);
  } catch (error) {
    throw unreadable(error);
  }
  const copied: Record<string, unknown> = {};
  for (const key of keys) {
    try {
      let field: unknown;
      try {
        field = (object as Record<string, unknown>)[key];
      } catch (error) {
        throw unreadable(error);
      }
      const value = copyValue(field, key, depth + 1, state);
      if (value !== OMIT) setOwn(copied, key, value);
    } catch (error) {
      throw within(error, segmentOf(key));
    }
  }
  return copied;
}

/** A key as a path segment: `.name`, or `["odd key"]`. */
function segmentOf(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
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
