// Call deadlines on one timer per delay: calls with the same delay expire in about the order they started, so a FIFO needs no sorting.

/** A pending deadline; `cancel` is idempotent and O(1). */
export interface Deadline {
  cancel(): void;
}

/** What expires: called once, when its deadline passes without a `cancel`. */
export interface Expiring {
  expire(): void;
}

/** Schedules deadlines far more cheaply than a `setTimeout` per call. */
export interface DeadlineClock {
  /**
   * Calls `target.expire()` once `delayMs` have passed since `startedAt` (a `performance.now()`
   * reading the caller already has: a clock read costs about 60 ns here, a third of a whole
   * `setTimeout` and `clearTimeout`).
   */
  after(delayMs: number, startedAt: number, target: Expiring): Deadline;
}

/**
 * A clock for many deadlines of few distinct delays (a session's calls). Each delay has a lane: a
 * FIFO of deadlines and one timer armed for the earliest. Deadlines of one delay set in the order
 * their calls started expire in that order; one set out of order waits behind the one before it (so
 * it can be late by the difference, never early). The timer keeps the process alive only while some
 * deadline is pending (a call still running), as a `setTimeout` per call would.
 */
export function createDeadlineClock(): DeadlineClock {
  const lanes = new Map<number, Lane>();
  let last: Lane | undefined; // most calls of a session share its default delay
  return {
    after(delayMs, startedAt, target) {
      let lane = last !== undefined && last.delayMs === delayMs ? last : lanes.get(delayMs);
      if (lane === undefined) {
        lane = new Lane(delayMs);
        lanes.set(delayMs, lane);
      }
      last = lane;
      return lane.add(startedAt + delayMs, target);
    },
  };
}

/** Slack before finished entries are swept out of a lane. */
const SWEEP_SLACK = 1024;

class Entry implements Deadline {
  done = false;
  /** Dropped once done: a finished call must become garbage at once, not wait in the lane for a sweep. */
  target: Expiring | undefined;
  constructor(
    readonly lane: Lane,
    readonly at: number,
    target: Expiring,
  ) {
    this.target = target;
  }

  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.target = undefined;
    this.lane.settled();
  }
}

class Lane {
  entries: Entry[] = [];
  head = 0;
  live = 0;
  timer: NodeJS.Timeout | undefined;
  idleCheck = false;

  constructor(readonly delayMs: number) {}

  add(at: number, target: Expiring): Entry {
    const entry = new Entry(this, at, target);
    this.entries.push(entry);
    if (++this.live === 1) {
      if (this.timer === undefined) this.arm(at - performance.now());
      else this.timer.ref();
    }
    if (this.entries.length - this.head > 2 * this.live + SWEEP_SLACK) this.sweep();
    return entry;
  }

  settled(): void {
    if (--this.live === 0) {
      // Every entry is done: drop them now rather than sweep them later (a batch of calls leaves a lane empty).
      this.entries = [];
      this.head = 0;
    }
    if (this.live === 0 && !this.idleCheck) {
      // Nothing pending: the timer must not hold the process. Checked once the current work is done, not at
      // once: calls made one after another would otherwise toggle the timer's hold on the loop every call.
      this.idleCheck = true;
      setImmediate(() => {
        this.idleCheck = false;
        if (this.live === 0) this.timer?.unref();
      });
    }
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => this.fire(), Math.max(1, Math.ceil(delayMs)));
    if (this.live === 0) this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head] as Entry;
      if (!entry.done && entry.at > now) break;
      this.head++;
      if (entry.done) continue;
      const { target } = entry;
      entry.done = true;
      entry.target = undefined;
      this.live--;
      try {
        target?.expire();
      } catch {
        // an expiry handler's fault must not stop the others
      }
    }
    if (this.timer !== undefined) clearTimeout(this.timer); // armed again by an `add` from inside a handler
    this.timer = undefined;
    if (this.head >= this.entries.length) {
      this.entries = [];
      this.head = 0;
      return;
    }
    this.arm((this.entries[this.head] as Entry).at - now);
  }

  /** Drops finished entries, keeping the order of the pending ones. */
  private sweep(): void {
    const pending: Entry[] = [];
    for (let index = this.head; index < this.entries.length; index++) {
      const entry = this.entries[index] as Entry;
      if (!entry.done) pending.push(entry);
    }
    this.entries = pending;
    this.head = 0;
  }
}
