import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAN_RUN_IN_TERMINAL, spawnInTerminal, tempWorkspace } from "./helpers/cli.js";

const TURNS = JSON.stringify({
  turns: [
    {
      toolCalls: [
        { id: "c1", name: "write", input: { path: "one.txt", content: "1\n" } },
        { id: "c2", name: "write", input: { path: "two.txt", content: "2\n" } },
      ],
    },
    { text: "done" },
  ],
});

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({ approvals: { require: ["write"] } }),
    "turns.json": TURNS,
  });
});
afterAll(() => project.remove());

/** Runs `toolwire run` under `script` (a real pseudo-terminal), typing each answer when a question appears. */
function runAnswering(answers: string[]): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnInTerminal(["run", "--model", "scripted:turns.json", "write both"], {
      cwd: project.path,
    });
    let screen = "";
    let asked = 0;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no exit; screen so far:\n${screen}`));
    }, 30_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      screen += chunk;
      const questions = screen.split("approve?").length - 1;
      while (asked < questions && asked < answers.length) child.stdin.write(`${answers[asked++]}\r`);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, screen: screen.replaceAll("\r", "") });
    });
  });
}

describe.skipIf(!CAN_RUN_IN_TERMINAL)("toolwire run asks on a terminal", { timeout: 60_000 }, () => {
  it("shows the tool, the input and its digest; y runs the call, n with a reason declines it", async () => {
    const { screen } = await runAnswering(["y", "n not that file"]);
    expect(screen).toMatch(/approve\?.* write \{"path":"one\.txt","content":"1\\n"\}/);
    expect(screen).toMatch(/sha256:[0-9a-f]{64}/);
    expect(await readFile(join(project.path, "one.txt"), "utf8")).toBe("1\n");
    expect(existsSync(join(project.path, "two.txt"))).toBe(false);
    expect(screen).toContain("Tool call declined: not that file");
    await rm(join(project.path, "one.txt"));
  });

  it("a approves the tool for the rest of the run: the second call is not asked", async () => {
    const { screen } = await runAnswering(["a"]);
    expect(screen.split("approve?").length - 1).toBe(1);
    expect(await readFile(join(project.path, "one.txt"), "utf8")).toBe("1\n");
    expect(await readFile(join(project.path, "two.txt"), "utf8")).toBe("2\n");
  });
});
