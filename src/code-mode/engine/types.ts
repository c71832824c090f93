// The seam between code mode and its engine: a program goes in, nested tool calls come out, one outcome comes back.
import type { JsonValue, ToolCallErrorCode } from "../../core/types.js";

/** The limits of one program, enforced from outside it (docs/code-mode.md). */
export interface ProgramLimits {
  /** Wall clock of the whole program, nested calls included, time on hold (`holdClock`) excluded. */
  readonly timeoutMs: number;
  /** The most memory the program's engine may use. */
  readonly memoryBytes: number;
  /** The most nested tool calls one program may make; the next one ends it with `code-too-many-calls`. */
  readonly maxToolCalls: number;
  /** The most characters of output (console lines, then the value); more is cut with a note. */
  readonly maxOutputChars: number;
}

/** One `await tools.<name>(input)` of a program. `seq` counts the program's calls in issue order, from 1. */
export interface NestedCallRequest {
  readonly seq: number;
  readonly tool: string;
  /** The program's argument as JSON (`undefined` became `{}`); never a host object. */
  readonly input: JsonValue;
}

/** What a nested call gives the program: a value, or an error it sees as an `Error` with `code` and `message`. */
export type NestedCallAnswer =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** A program to run and what it may reach. */
export interface ProgramRequest {
  /** The body of an async function: JavaScript, or TypeScript whose annotations are stripped. */
  readonly code: string;
  readonly limits: ProgramLimits;
  /** Aborting ends the program with `aborted`; its nested calls' promises are left to the caller. */
  readonly signal?: AbortSignal;
  /**
   * The calls the program issued in one turn of its job queue, in issue order (so `Promise.all` arrives as one
   * batch). Returns one promise per request, in the same order; each must resolve (never reject).
   */
  callTools(requests: readonly NestedCallRequest[]): readonly Promise<NestedCallAnswer>[];
  /** Values `Date.now()` and `Math.random()` return first, in order (a replay); live values follow once used up. */
  readonly replay?: ProgramClock;
}

/** The `Date.now()` (and `new Date()`) and `Math.random()` values a program read, in order. */
export interface ProgramClock {
  readonly now: readonly number[];
  readonly random: readonly number[];
}

/** How a program ended. `output` is what run_code returns: console lines, then the value, cut to `maxOutputChars`. */
export type ProgramOutcome =
  | { readonly kind: "returned"; readonly output: string; readonly clock: ProgramClock }
  | {
      readonly kind: "failed";
      readonly code: ProgramFailureCode;
      /** For a person and a model: what went wrong, with the program line where known, then any console lines. */
      readonly message: string;
      readonly line?: number;
      readonly clock: ProgramClock;
    };

/** Why a program failed: run_code's error codes (docs/errors.md lists them under `ToolCallErrorCode`). */
export type ProgramFailureCode = Extract<
  ToolCallErrorCode,
  | "code-syntax-error"
  | "code-runtime-error"
  | "code-timeout"
  | "code-memory-exceeded"
  | "code-too-many-calls"
  | "aborted"
>;

/** A program on its way. */
export interface ProgramRun {
  readonly outcome: Promise<ProgramOutcome>;
  /** Stops the program's clock (a nested call waits for a person) until the returned function is called. */
  holdClock(): () => void;
  /** The `Date.now()` and `Math.random()` values the program read so far (as its host has heard), in order. */
  clock(): ProgramClock;
}
