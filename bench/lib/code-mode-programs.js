// The programs and probes both code-mode benchmarks time (bench/code-mode.bench.mjs, and the AI SDK's beside it).

/** How many tool calls the calling programs make. */
export const N = 100;
/** N calls one after the other, N calls at once, and none. */
export const SEQUENTIAL = `for (let i = 0; i < ${N}; i++) await tools.noop({ id: i }); return "done";`;
export const PARALLEL = `await Promise.all(Array.from({ length: ${N} }, (_, i) => tools.noop({ id: i }))); return "done";`;
export const TRIVIAL = `return "done";`;
/** Programs that end only by a limit: a spin, and an allocation to the memory cap. */
export const SPIN = "while (true) {}";
export const ALLOCATE = 'const kept = []; while (true) kept.push("x".repeat(1024) + kept.length);';

/** Mean milliseconds of `repeat` runs of `job`. */
export async function meanMs(job, repeat) {
  const start = performance.now();
  for (let index = 0; index < repeat; index++) await job();
  return (performance.now() - start) / repeat;
}

/** The worst gap of a 5 ms interval, beyond its 5 ms, while `work` runs; `work`'s value beside it. */
export async function worstLagWhile(work) {
  let last = performance.now();
  let worst = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  try {
    const value = await work();
    return { worst, value };
  } finally {
    clearInterval(probe);
  }
}
