// A program's time limit: wall-clock time since it started, minus the time its clock was held (a person deciding).

/** The longest delay `setTimeout` takes; a longer deadline is reached in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A running time limit. */
export interface ProgramDeadline {
  /** Stops the clock until the returned function is called (once; later calls do nothing). Holds may overlap. */
  hold(): () => void;
  /** Ends the deadline: `onExpire` is not called after this. */
  stop(): void;
}

/** Starts a time limit of `timeoutMs` (may be `Infinity`); `onExpire` is called once when it is used up. */
export function startProgramDeadline(timeoutMs: number, onExpire: () => void): ProgramDeadline {
  let remaining = timeoutMs;
  let runningSince = performance.now();
  let holds = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const arm = () => {
    timer = setTimeout(check, Math.max(0, Math.min(remaining - (performance.now() - runningSince), LONGEST_TIMER_MS)));
  };
  const check = () => {
    timer = undefined;
    if (stopped || holds > 0) return;
    if (performance.now() - runningSince < remaining) return arm();
    stopped = true;
    onExpire();
  };
  arm();

  return {
    hold() {
      if (stopped) return () => {};
      if (holds === 0) {
        remaining -= performance.now() - runningSince;
        clearTimeout(timer);
        timer = undefined;
      }
      holds += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        if (holds > 0 || stopped) return;
        runningSince = performance.now();
        arm();
      };
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
