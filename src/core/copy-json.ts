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
  const state: CopyState = { ancestors: new Set(), nodes: 0 };
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
  readonly ancestors: Set<object>;
  nodes: number;
}

class CopyFailure {
  constructor(
    public path: string,
    readonly reason: string,
  ) {}
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
      throw new CopyFailure("", "is a BigInt, which JSON cannot hold");
  }
  if (value === null) return null;
  if (++state.nodes > MAX_JSON_NODES) throw new CopyFailure("", `is too large (more than ${MAX_JSON_NODES} values)`);
  if (depth >= MAX_JSON_DEPTH) throw new CopyFailure("", `is nested more than ${MAX_JSON_DEPTH} levels deep`);
  const object = value as object;
  const toJSON = read(() => (object as { toJSON?: unknown }).toJSON);
  if (typeof toJSON === "function") {
    const replaced = read(() => (toJSON as (key: string) => unknown).call(object, key));
    return copyValue(replaced, key, depth, state);
  }
  if (state.ancestors.has(object)) throw new CopyFailure("", "refers to itself (a cycle), which JSON cannot hold");
  state.ancestors.add(object);
  const copied = read(() => Array.isArray(object))
    ? copyArray(object as unknown[], depth, state)
    : copyObject(object, depth, state);
  state.ancestors.delete(object);
  return copied;
}

function copyArray(array: readonly unknown[], depth: number, state: CopyState): unknown[] {
  const length = read(() => array.length);
  if (length > MAX_JSON_NODES - state.nodes)
    throw new CopyFailure("", `is too large (more than ${MAX_JSON_NODES} values)`);
  const copied: unknown[] = [];
  for (let index = 0; index < length; index++) {
    if (++state.nodes > MAX_JSON_NODES) throw new CopyFailure("", `is too large (more than ${MAX_JSON_NODES} values)`);
    try {
      const element = copyValue(
        read(() => array[index]),
        String(index),
        depth + 1,
        state,
      );
      copied.push(element === OMIT ? null : element);
    } catch (error) {
      throw within(error, `[${index}]`);
    }
  }
  return copied;
}

function copyObject(object: object, depth: number, state: CopyState): Record<string, unknown> {
  const keys = read(() => Object.keys(object));
  const copied: Record<string, unknown> = {};
  for (const key of keys) {
    try {
      const field = copyValue(
        read(() => (object as Record<string, unknown>)[key]),
        key,
        depth + 1,
        state,
      );
      if (field !== OMIT) {
        if (key === "__proto__") Object.defineProperty(copied, key, { value: field, enumerable: true, writable: true });
        else copied[key] = field;
      }
    } catch (error) {
      throw within(error, /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);
    }
  }
  return copied;
}

/** Runs a read that user code may intercept (a getter, a proxy trap); its throw becomes a failure at this path. */
function read<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new CopyFailure("", `could not be read (${describeThrown(error)})`);
  }
}

function within(error: unknown, segment: string): unknown {
  if (error instanceof CopyFailure) error.path = segment + error.path;
  return error;
}
