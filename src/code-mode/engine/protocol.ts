// The messages between runProgram (host thread) and program-worker.js (the engine's worker): strings and numbers only.

/** What the host asks of a worker. One program at a time; `id` names it in every message both ways. */
export type HostMessage =
  | {
      readonly kind: "run";
      readonly id: number;
      /** The program wrapped as a script: `(async () => {` + body + `\n})()`, fences stripped, lines kept. */
      readonly script: string;
      readonly maxToolCalls: number;
      /** Characters of console lines kept, and of the returned value sent; the rest are counted, not sent. */
      readonly maxOutputChars: number;
      readonly replay: { readonly now: readonly number[]; readonly random: readonly number[] };
    }
  /** Nested call answers: each `answer` is a `NestedCallAnswer` as JSON, parsed inside the program. */
  | { readonly kind: "answers"; readonly id: number; readonly answers: readonly WorkerAnswer[] }
  /** Stop the program now (its time is up or it was aborted); the worker answers with `done`. */
  | { readonly kind: "cancel"; readonly id: number };

/** One answer to a nested call, by the call's `seq`. */
export interface WorkerAnswer {
  readonly seq: number;
  readonly answer: string;
}

/** What a worker tells the host. `progress` and `done` carry what happened since the worker's last message. */
export type WorkerMessage =
  | { readonly kind: "ready" }
  | ({ readonly kind: "progress"; readonly id: number } & WorkerNews)
  | ({
      readonly kind: "done";
      readonly id: number;
      readonly end: WorkerEnd;
      /** The engine asked for more memory than its cap while the program ran (whether or not the program caught it). */
      readonly memoryExceeded: boolean;
      /** The worker must not run another program (its memory grew to the cap, or its engine failed). */
      readonly replace: boolean;
    } & WorkerNews);

/** Calls issued, console lines written and clock values read since the worker's last message. */
export interface WorkerNews {
  /** Calls in issue order; `input` is the program's argument as JSON text. */
  readonly calls: readonly { readonly seq: number; readonly tool: string; readonly input: string }[];
  readonly logs: readonly string[];
  /** Console characters written but not kept (over `maxOutputChars`), counted since the last message. */
  readonly droppedLogChars: number;
  readonly now: readonly number[];
  readonly random: readonly number[];
}

/** How a program ended inside the worker. */
export type WorkerEnd =
  /**
   * `text`: a returned string as it is, anything else as JSON, `undefined` (or a function, a symbol) as nothing; at
   * most `maxOutputChars` characters of it, `cutChars` more left out.
   */
  | { readonly kind: "returned"; readonly text: string; readonly cutChars: number }
  | { readonly kind: "syntax-error"; readonly error: GuestError }
  /** TypeScript the stripper refuses (an enum, a namespace): swc's message and line. */
  | { readonly kind: "unsupported-typescript"; readonly message: string; readonly line: number | undefined }
  | { readonly kind: "threw"; readonly error: GuestError }
  | { readonly kind: "too-many-calls" }
  /** Stopped by the host (time, abort) through the stop flag or a `cancel` message. */
  | { readonly kind: "stopped" }
  /** The program waits on a promise that nothing can settle: no nested call is pending and no job is queued. */
  | { readonly kind: "stuck" }
  /** The engine itself failed (a result too large for the memory left, a fault of the worker). */
  | { readonly kind: "engine-failed"; readonly message: string };

/** An error thrown inside the program, as the program's own realm described it. */
export interface GuestError {
  readonly name?: string;
  readonly message?: string;
  readonly stack?: string;
  readonly code?: string;
}

/** What a worker is started with (`workerData`). */
export interface WorkerSetup {
  /** The program's memory limit: the worker's wasm memory is capped at this plus the engine's baseline. */
  readonly memoryBytes: number;
  /** One Int32: the host stores 1 to stop the running program (read by QuickJS's interrupt handler). */
  readonly stop: SharedArrayBuffer;
}
