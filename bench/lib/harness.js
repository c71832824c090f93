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

async function estimateNs(fn) {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const started = cpuNow();
    do_not_optimize(await fn());
    best = Math.min(best, cpuNow() - started);
  }
  return best;
}

/**
 * Measures every case with mitata's `measure`. Each sample runs the case back to back for about
 * 1 ms (one run when a run takes longer), so a sample's mean includes the garbage collection the
 * case causes, the same way for every case and library; the median over the samples drops the
 * samples another process disturbed. Returns one row per case, in nanoseconds per run.
 */
export async function measureCases(cases) {
  const rows = [];
  for (const benchCase of cases) {
    const fn = benchCase.run;
    const batch = Math.max(1, Math.min(4096, Math.round(SAMPLE_NS / Math.max(1000, await estimateNs(fn)))));
    const stats = await measure(async () => do_not_optimize(await fn()), {
      batch_threshold: Number.POSITIVE_INFINITY,
      batch_samples: batch,
      batch_unroll: 1,
      now: cpuNow,
    });
    rows.push({
      id: caseId(benchCase),
      group: benchCase.group,
      library: benchCase.library,
      variant: benchCase.variant,
      n: benchCase.n,
      medianNs: stats.p50,
      p25Ns: stats.p25,
      p75Ns: stats.p75,
      samples: stats.samples.length,
      runsPerSample: batch,
    });
  }
  return rows;
}
