// --json for programs: every object carries schemaVersion, and a failure is a JSON line on stdout with its exit code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "./helpers/cli.js";

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({ "toolwire.config.json": JSON.stringify({ builtins: { enabled: true } }) });
});
afterAll(() => project.remove());

const lastLine = (text: string) => JSON.parse(text.trim().split("\n").at(-1) ?? "null") as Record<string, unknown>;

describe.concurrent("toolwire --json", { timeout: 60_000 }, () => {
  it("plan, explain and call carry schemaVersion 1", async () => {
    for (const args of [["plan"], ["explain", "read"], ["call", "ls", "{}"]]) {
      const { stdout } = await runCli([...args, "--json"], { cwd: project.path });
      expect(JSON.parse(stdout), args.join(" ")).toMatchObject({ schemaVersion: 1 });
    }
  });

  it("a missing config is a JSON error on stdout, exit 3", async () => {
    const { code, stdout, stderr } = await runCli(["plan", "--json", "--config", "missing.json"], {
      cwd: project.path,
    });
    expect(code).toBe(3);
    expect(lastLine(stdout)).toEqual({
      schemaVersion: 1,
      error: { exitCode: 3, code: "config-not-found", message: expect.stringContaining("missing.json") },
    });
    expect(stderr).toContain("missing.json");
  });

  it("a usage error is a JSON error on stdout, exit 2", async () => {
    const { code, stdout } = await runCli(["plam", "--json"], { cwd: project.path });
    expect(code).toBe(2);
    expect(lastLine(stdout)).toMatchObject({ schemaVersion: 1, error: { exitCode: 2, code: "usage" } });
  });
});
