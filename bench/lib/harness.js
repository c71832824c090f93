// Runs one process's benchmark cases: checks each does its job once, then measures each with mitata.
import { do_not_optimize, measure } from "mitata";

/**
 * A benchmark case. `group` is "turn" (one model turn with `n` calls), "single" (one call) or "tools"
 * (a registry or a turn with `n` tools); `variant` says which job. `check` gets `run`'s value and
 * returns a problem in words, or `undefined` when the case did its job.
 * @typedef {{ group: string, library: string, variant: string, n: number, run: () => unknown, check?: (value: unknown) => string | undefined }} BenchCase
 */

/** The stable id of a case: `<group>/<library>/<variant>/<n>`. */
export function caseId(benchCase) {
  return `${benchCase.group}/${benchCase.library}/${benchCase.variant}/${benchCase.n}`;
}

/** Runs every case once and throws if one does not do its job (so a broken case is never timed). */
export async function verifyCases(cases) {
  for (const benchCase of cases) {
    const value = await benchCase.run();
    const problem = benchCase.check?.(value);
    if (problem !== undefined) throw new Error(`${caseId(benchCase)} does not do its job: ${problem}`);
  }
}

/** How long one timed sample should take: long enough to include its share of garbage collection. */
const SAMPLE_NS = 1_000_000;

/**
 * The clock: CPU time of this process (all its threads, so V8's GC helpers count), in ns. On a shared
 * machine, wall time also counts the time other processes held the CPU; CPU time does not.
 */
export function cpuNow() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

/** Runs `fn` until it has run `minRuns` times and for `minNs` of CPU time; returns the fastest run in ns. */
async function warmUp(fn, minRuns, minNs) {
  let best = Number.POSITIVE_INFINITY;
  const started = cpuNow();
  for (let runs = 0; runs < minRuns || cpuNow() - started < minNs; runs++) {
    const before = cpuNow();
    do_not_optimize(await fn());
    best = Math.min(best, cpuNow() - before);
  }
  return best;
}

/** The value at quantile `q` of sorted numbers. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** How many passes `measureCases` makes over the cases when a process does not say. */
export const DEFAULT_PASSES = 5;

/**
 * Measures every case with mitata's `measure`. First every case runs for a while, so the JIT has settled before
 * any case is timed. Then the cases are timed in `passes` passes, each pass timing every case in turn (so a slow
 * phase of the machine hits every case alike, and figures taken within one pass can be compared); a sample runs the
 * case back to back for about 1 ms (one run when a run takes longer), so its mean includes the garbage collection
 * the case causes, the same way for every case and library. Returns one row per case, in nanoseconds per run: the
 * median of each pass's samples (`passesNs`, in pass order), their median, lowest and highest, and the quartiles
 * over all samples.
 */
export async function measureCases(cases, options = {}) {
  const passes = options.passes ?? DEFAULT_PASSES;
  const batches = [];
  for (const benchCase of cases) {
    const fastest = await warmUp(benchCase.run, 20, options.warmUpNs ?? 100_000_000);
    batches.push(Math.max(1, Math.min(4096, Math.round(SAMPLE_NS / Math.max(1000, fastest)))));
  }
  const samples = cases.map(() => []);
  const passMedians = cases.map(() => []);
  for (let pass = 0; pass < passes; pass++) {
    for (const [index, benchCase] of cases.entries()) {
      const fn = benchCase.run;
      const stats = await measure(async () => do_not_optimize(await fn()), {
        batch_threshold: Number.POSITIVE_INFINITY, // with the next line: always the batch loop, even when a first run is slow
        warmup_threshold: Number.POSITIVE_INFINITY,
        batch_samples: batches[index],
        batch_unroll: 1,
        min_samples: 6,
        min_cpu_time: (options.cpuTimeNs ?? 800_000_000) / passes,
        now: cpuNow,
      });
      samples[index].push(...stats.samples);
      passMedians[index].push(
        quantile(
          [...stats.samples].sort((a, b) => a - b),
          0.5,
        ),
      );
    }
  }
  return cases.map((benchCase, index) => {
    const sorted = samples[index].sort((a, b) => a - b);
    const byPass = passMedians[index];
    const sortedPasses = [...byPass].sort((a, b) => a - b);
    return {
      id: caseId(benchCase),
      group: benchCase.group,
      library: benchCase.library,
      variant: benchCase.variant,
      n: benchCase.n,
      medianNs: quantile(sortedPasses, 0.5),
      minNs: sortedPasses[0],
      maxNs: sortedPasses.at(-1),
      passesNs: byPass,
      p25Ns: quantile(sorted, 0.25),
      p75Ns: quantile(sorted, 0.75),
      samples: sorted.length,
      runsPerSample: batches[index],
    };
  });
}
