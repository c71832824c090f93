// A run paused in one process and resumed in others: the state travels as a file, the secret as an env variable.
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
const work: string[] = [];
afterEach(async () => {
  for (const dir of work.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function step(dir: string, secret: string, ...args: string[]) {
  const { stdout } = await run(
    process.execPath,
    [join(here, "helpers/approval-run-child.mjs"), dist, ...args.slice(0, 1), dir, ...args.slice(1)],
    {
      env: { PATH: process.env.PATH ?? "", RUN_SECRET: secret },
      timeout: 30_000,
    },
  );
  return JSON.parse(stdout.trim()) as { events: string[]; outcome: string };
}

describe("a run paused in one process", () => {
  it("resumes in another with the same secret, exactly once, and not at all under another secret or after an edit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-resume-"));
    work.push(dir);
    const secret = "shared between the web server's workers";
    const paused = await step(dir, secret, "pause");
    expect(paused).toEqual({ events: ["turn_start", "tool_call", "approval_required", "done"], outcome: "ok" });

    const stranger = await step(dir, "another secret, just as long as the first", "resume", "approve");
    expect(stranger).toEqual({ events: [], outcome: "ApprovalError:approval-state-invalid" });

    const stateFile = join(dir, "state.json");
    const original = await readFile(stateFile, "utf8");
    await writeFile(stateFile, original.replace('"command":"deploy"', '"command":"drop the database"'));
    const forged = await step(dir, secret, "resume", "approve");
    expect(forged.outcome).toBe("ApprovalError:approval-state-invalid");
    await writeFile(stateFile, original);

    const [first, second] = await Promise.all([
      step(dir, secret, "resume", "approve"),
      step(dir, secret, "resume", "approve"),
    ]);
    const outcomes = [first, second].map((result) => result?.outcome).sort();
    expect(outcomes).toEqual(["ApprovalError:approval-used", "ok"]);
    const winner = first?.outcome === "ok" ? first : second;
    expect(winner?.events).toEqual([
      "tool_result",
      "turn_end",
      "turn_start",
      "model_text_delta",
      "model_text",
      "turn_end",
      "done:completed",
    ]);
    const runs = (await readFile(join(dir, "runs.log"), "utf8")).trim().split("\n");
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^\d+ deploy$/);
  });
});
