// Runs one process's benchmark cases: checks each does its job once, then measures them all with mitata.
import { bench, do_not_optimize, run } from "mitata";

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

/** Measures every case with mitata; returns one row per case with the median and quartiles in nanoseconds. */
export async function measureCases(cases) {
  const byId = new Map();
  for (const benchCase of cases) {
    const id = caseId(benchCase);
    byId.set(id, benchCase);
    const fn = benchCase.run;
    bench(id, async () => do_not_optimize(await fn()));
  }
  const { benchmarks } = await run({ format: "quiet", throw: true });
  return benchmarks.map((trial) => {
    const stats = trial.runs[0].stats;
    const benchCase = byId.get(trial.alias);
    return {
      id: trial.alias,
      group: benchCase.group,
      library: benchCase.library,
      variant: benchCase.variant,
      n: benchCase.n,
      medianNs: stats.p50,
      p25Ns: stats.p25,
      p75Ns: stats.p75,
      samples: stats.samples.length,
    };
  });
}
