// A code-mode program paused for approval in one process and resumed in others: no nested call runs twice.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { builtScript } from "./helpers/build.js";

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const dist = dirname(builtScript("dist/index.js"));
const secret = "shared between the processes of one run";
const work: string[] = [];
afterEach(async () => {
  for (const dir of work.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function step(dir: string, ...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    [join(here, "helpers/code-mode-pause-child.mjs"), dist, args[0] as string, dir, ...args.slice(1)],
    {
      env: { PATH: process.env.PATH ?? "", RUN_SECRET: secret },
      timeout: 60_000,
    },
  );
  return JSON.parse(stdout.trim()) as { events: string[]; result?: string; outcome: string };
}

/** The lines of runs.log: "<pid> <tool> <n>". */
async function runsOf(dir: string): Promise<string[][]> {
  return (await readFile(join(dir, "runs.log"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => line.split(" "));
}

describe("a code-mode run paused in one process", () => {
  // Four processes, each starting the engine: a loaded CI machine took over 20 s once.
  it("resumes in others: answered calls are replayed, each approved call runs once, the clock is the recorded one", {
    timeout: 90_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-code-pause-"));
    work.push(dir);
    const paused = await step(dir, "pause", "", "first.json");
    expect(paused).toMatchObject({
      events: ["turn_start", "tool_call", "approval_required", "done:awaiting_approval"],
    });
    expect((await runsOf(dir)).map(([, tool, n]) => `${tool}${n}`)).toEqual(["note1"]);
    const first = JSON.parse(await readFile(join(dir, "first.json"), "utf8"));
    expect(first.pending[0]).toMatchObject({ toolCallId: "r1.2", toolName: "danger", parentToolCallId: "r1" });

    const again = await step(dir, "resume", "first.json", "second.json");
    expect(again.events.at(-1)).toBe("done:awaiting_approval");
    const second = JSON.parse(await readFile(join(dir, "second.json"), "utf8"));
    expect(second.pending[0]).toMatchObject({ toolCallId: "r1.4", toolName: "danger" });

    const reused = await step(dir, "resume", "first.json", "unused.json");
    expect(reused.outcome).toBe("ApprovalError:approval-used");
    const original = await readFile(join(dir, "second.json"), "utf8");
    await writeFile(join(dir, "forged.json"), original.replace('"n":4', '"n":5'));
    const forged = await step(dir, "resume", "forged.json", "unused.json");
    expect(forged.outcome).toBe("ApprovalError:approval-state-invalid");

    const last = await step(dir, "resume", "second.json", "unused.json");
    expect(last.events.at(-1)).toBe("done:completed");
    const value = JSON.parse(last.result as string);
    expect(value).toMatchObject({ a: "note 1", b: "danger 2", c: "note 3", d: "danger 4" });
    const ledger = Object.values(first.continuations)[0] as { clock: { now: number[]; random: number[] } };
    expect(value.t).toBe(ledger.clock.now[0]);
    expect(value.r).toBe(ledger.clock.random[0]);

    const runs = await runsOf(dir);
    expect(runs.map(([, tool, n]) => `${tool}${n}`)).toEqual(["note1", "danger2", "note3", "danger4"]);
    // Each in the process that reached it first: the pause, the first resume (twice), the last resume.
    const pids = runs.map(([pid]) => pid);
    expect(new Set(pids).size).toBe(3);
    expect(pids[1]).toBe(pids[2]);
  });
});
