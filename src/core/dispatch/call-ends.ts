// Where calls' ends go: a batch's collector, in the calls' order, or one call's promise.

/**
 * Where calls' ends go: `put(slot, end)` once per call, with the end or a promise of it that never
 * rejects. A call's executor hands its end here directly, so a call makes no promise of toolwire's
 * own (a promise per call and `Promise.all` over a batch cost about a fifth of a dispatch).
 */
export interface CallEnds<T> {
  put(slot: number, end: T | Promise<T>): void;
}

/**
 * The ends of a batch of `size` calls, kept in slot order. `whenFilled(count)` resolves once that many
 * slots are filled (the batch waits with it for the running calls before a sequential tool, and for
 * all of them at the end). A second end for a slot is ignored: the ends are objects, never `undefined`.
 */
export class BatchEnds<T extends object> implements CallEnds<T> {
  readonly values: T[];
  #filled = 0;
  #waiting: { readonly count: number; readonly resolve: () => void } | undefined;

  constructor(size: number) {
    this.values = new Array<T>(size);
  }

  put(slot: number, end: T | Promise<T>): void {
    if (end instanceof Promise) end.then((value) => this.#fill(slot, value));
    else this.#fill(slot, end);
  }

  /** Resolves once `count` slots are filled. One waiter at a time (the batch's own loop). */
  whenFilled(count: number): Promise<void> {
    if (this.#filled >= count) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiting = { count, resolve };
    });
  }

  #fill(slot: number, value: T): void {
    if (this.values[slot] !== undefined) return;
    this.values[slot] = value;
    this.#filled++;
    const waiting = this.#waiting;
    if (waiting !== undefined && this.#filled >= waiting.count) {
      this.#waiting = undefined;
      waiting.resolve();
    }
  }
}

/** One call's end as a promise: `complete` puts it (at slot 0). */
export function endOfOne<T>(complete: (ends: CallEnds<T>) => void): Promise<T> {
  return new Promise<T>((resolve) => complete({ put: (_slot, end) => resolve(end) }));
}
