// toolwire run with approvals in the config: --approve says yes ahead; everything else is declined, naming the flag.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

const WRITE = { id: "c1", name: "write", input: { path: "out.txt", content: "approved\n" } };

function script(expected: { isError: boolean; contains: string }) {
  return JSON.stringify({
    turns: [{ toolCalls: [WRITE] }, { text: "done", expect: { toolResults: [{ id: "c1", ...expected }] } }],
  });
}

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({ approvals: { require: ["write"], ttlMs: 60_000 } }),
    "declined.json": script({ isError: true, contains: "run toolwire run again with --approve write" }),
    "approved.json": script({ isError: false, contains: "out.txt" }),
  });
});
afterAll(() => project.remove());

describe("toolwire run with approvals", { timeout: 60_000 }, () => {
  it("declines a call the config's approvals cover when --approve does not name it, and writes nothing", async () => {
    const { code, stdout, stderr } = await runCli(["run", "--json", "--model", "scripted:declined.json", "write it"], {
      cwd: project.path,
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('"errorCode":"approval-declined"');
    await expect(readFile(join(project.path, "out.txt"), "utf8")).rejects.toThrow();
  });

  it("runs it when --approve names the tool", async () => {
    const { code, stderr } = await runCli(
      ["run", "--json", "--approve", "write", "--model", "scripted:approved.json", "write it"],
      { cwd: project.path },
    );
    expect(code, stderr).toBe(0);
    expect(await readFile(join(project.path, "out.txt"), "utf8")).toBe("approved\n");
  });
});

describe("approvals.secretEnv", { timeout: 60_000 }, () => {
  it("refuses, before starting anything, a config whose secretEnv names an unset variable; runs when it is set", async () => {
    const withSecret = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({
        approvals: { require: ["write"], secretEnv: "TOOLWIRE_TEST_APPROVAL_SECRET" },
      }),
    });
    try {
      const unset = await runCli(["plan"], { cwd: withSecret.path });
      expect(unset.code).toBe(3);
      expect(unset.stderr).toContain("approvals.secretEnv names TOOLWIRE_TEST_APPROVAL_SECRET, which is not set");
      const set = await runCli(["plan"], {
        cwd: withSecret.path,
        env: cliEnv({ TOOLWIRE_TEST_APPROVAL_SECRET: "a long random secret, 32 bytes or more" }),
      });
      expect(set.code, set.stderr).toBe(0);
    } finally {
      await withSecret.remove();
    }
  });
});

describe("approvals.store", { timeout: 60_000 }, () => {
  it("refuses, before starting anything, an env: store whose variable is unset or holds no Redis address", async () => {
    const withStore = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ approvals: { require: ["write"], store: "env:TOOLWIRE_TEST_STORE" } }),
    });
    try {
      const unset = await runCli(["plan"], { cwd: withStore.path });
      expect(unset.code).toBe(3);
      expect(unset.stderr).toContain("approvals.store is env:TOOLWIRE_TEST_STORE, and TOOLWIRE_TEST_STORE is not set");
      const wrong = await runCli(["plan"], {
        cwd: withStore.path,
        env: cliEnv({ TOOLWIRE_TEST_STORE: "https://user:hunter22@cache.internal" }),
      });
      expect(wrong.code).toBe(3);
      expect(wrong.stderr).toContain("approvals.store is not a Redis address: it must start with redis://");
      expect(wrong.stderr).not.toContain("hunter22");
      // A Redis store connects at its first claim: plan needs no Redis.
      const set = await runCli(["plan"], {
        cwd: withStore.path,
        env: cliEnv({ TOOLWIRE_TEST_STORE: "redis://:hunter22@127.0.0.1:1" }),
      });
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout + set.stderr).not.toContain("hunter22");
    } finally {
      await withStore.remove();
    }
  });
});

describe("a weak approvals secret", { timeout: 60_000 }, () => {
  it("is refused with exit code 3 by plan and serve, naming the variable and the minimum, never the value", async () => {
    const project = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({
        approvals: { require: ["write"], secretEnv: "TOOLWIRE_TEST_APPROVAL_SECRET" },
      }),
    });
    try {
      const weak = "hunter2-hunter2-hunter2-hunter2"; // 31 bytes
      const env = cliEnv({ TOOLWIRE_TEST_APPROVAL_SECRET: weak });
      for (const args of [["plan"], ["serve", "--stdio"]]) {
        const refused = await runCli(args, { cwd: project.path, env });
        expect(refused.code, refused.stderr).toBe(3);
        expect(refused.stderr).toContain("approvals.secretEnv names TOOLWIRE_TEST_APPROVAL_SECRET");
        expect(refused.stderr).toContain("at least 32 bytes");
        expect(refused.stderr + refused.stdout).not.toContain("hunter2");
      }
    } finally {
      await project.remove();
    }
  });
});
