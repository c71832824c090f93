// Hostile executors, hooks and inputs through dispatch, dispatchAll and serveMcp, in a child process with no safety net.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { builtScript } from "./helpers/build.js";

const here = dirname(fileURLToPath(import.meta.url));
const dist = dirname(builtScript("dist/index.js"));

interface Figures {
  calls: number;
  dispatchDelayMs: number;
  dispatchBlockedMs: number;
  serveDelayMs: number;
  serveBlockedMs: number;
  heapBeforeMb: number;
  heapAfterMb: number;
}

function runChild(seed: number, runs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", join(here, "helpers/hostile-dispatch-child.mjs"), dist, String(seed), String(runs)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("hostile executors, hooks and inputs (fast-check, in a child process without an unhandledRejection handler)", () => {
  it("never exits the process, gives one result per call in order, never blocks the loop over 200 ms, keeps memory bounded", async () => {
    const seed = Date.now() % 1_000_000;
    const { code, stdout, stderr } = await runChild(seed, 300);
    expect(code, `seed ${seed}\n${stderr}`).toBe(0);
    const figures = JSON.parse(stdout.trim()) as Figures;
    expect(figures.calls).toBeGreaterThan(300);
    // Blocked: the loop held by the child's own work (CPU time), not a late tick on a machine busy with other tests.
    // The CPU time is the whole process's (the collector's threads too), so on a loaded 2-core machine a stretch can
    // count up to about twice the main thread's share: both builds before and after the pipeline rewrite measured
    // 100-150 ms there, and 15-80 ms on a quiet one. A loop really held (a copy or a scan that grows with the input)
    // takes seconds.
    expect(figures.dispatchBlockedMs, `seed ${seed}: ${stdout}`).toBeLessThan(200);
    expect(figures.serveBlockedMs, `seed ${seed}: ${stdout}`).toBeLessThan(200);
    // And no tick came several seconds late: a wall-clock bound, so a generous one (a busy 2-core machine was seen
    // delaying ticks by just over a second with nothing held; a loop held for good never ticks at all).
    expect(Math.max(figures.dispatchDelayMs, figures.serveDelayMs), `seed ${seed}: ${stdout}`).toBeLessThan(5_000);
    expect(figures.heapAfterMb).toBeLessThan(figures.heapBeforeMb + 50);
  }, 60_000);
});
