import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";
import type { ToolResult } from "../core/types.js";
import type { BashDetails } from "./bash.js";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

const details = (result: ToolResult) => result.details as BashDetails;

describe("bash", () => {
  it("runs in the workspace root and reports exit code 0 with the output", async () => {
    ws = await makeWorkspace({ "hello.txt": "hi" });
    const result = await ws.ok("bash", { command: "pwd; cat hello.txt; echo; echo oops >&2" });
    const text = textOf(result);
    const [pwd] = text.split("\n");
    expect(pwd).toBe(await realpath(ws.root));
    expect(text).toContain("hi\noops");
    expect(result.isError).toBeUndefined();
    expect(details(result)).toMatchObject({ exitCode: 0, signal: null, strayProcessesEnded: false, binary: false });
  });

  it("says (no output) for a silent command", async () => {
    ws = await makeWorkspace();
    expect(textOf(await ws.ok("bash", { command: "true" }))).toBe("(no output)");
  });

  it("reports a nonzero exit as an error result naming the code, with the output", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "echo before; exit 3" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("before\n\n[Command exited with code 3]");
    expect(details(result).exitCode).toBe(3);
  });

  it("names the signal when the shell is killed by one", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "kill -SEGV $$" });
    expect(result.isError).toBe(true);
    // Directly, Node sees the signal; through a PID namespace's init script, the status 128 + 11.
    expect(textOf(result)).toMatch(
      /\[Command was killed by signal SIGSEGV\]|\[Command exited with code 139: 128 \+ 11, probably killed by signal SIGSEGV\]/,
    );
  });

  describe("environment", () => {
    const secrets = { TOOLWIRE_TEST_SECRET_KEY: "sk-test-secret", MY_TOOLWIRE_TOKEN: "my-token" };
    beforeEach(() => Object.assign(process.env, secrets));
    afterEach(() => {
      for (const name of Object.keys(secrets)) delete process.env[name];
    });

    it("gives the command a minimal environment without this process's secrets", async () => {
      ws = await makeWorkspace();
      const text = textOf(await ws.ok("bash", { command: "env" }));
      expect(text).not.toContain("sk-test-secret");
      expect(text).not.toContain("my-token");
      expect(text).toContain(`PATH=${process.env.PATH}`);
    });

    it("passes the variables env.pass names by glob, and sets env.set's", async () => {
      ws = await makeWorkspace({}, { env: { pass: ["MY_*"], set: { TOOLWIRE_PROBE: "probe-value" } } });
      const text = textOf(await ws.ok("bash", { command: "env" }));
      expect(text).toContain("MY_TOOLWIRE_TOKEN=my-token");
      expect(text).toContain("TOOLWIRE_PROBE=probe-value");
      expect(text).not.toContain("sk-test-secret");
    });

    it("passes the whole environment with pass: ['*']", async () => {
      ws = await makeWorkspace({}, { env: { pass: ["*"] } });
      const text = textOf(await ws.ok("bash", { command: "env" }));
      expect(text).toContain("TOOLWIRE_TEST_SECRET_KEY=sk-test-secret");
      expect(text).toContain("MY_TOOLWIRE_TOKEN=my-token");
    });
  });

  it("gives the command an empty stdin, so a reader does not hang", async () => {
    ws = await makeWorkspace();
    expect(textOf(await ws.ok("bash", { command: "cat; echo done" }))).toBe("done");
  });

  it("streams output through onUpdate", async () => {
    ws = await makeWorkspace();
    const updates: string[] = [];
    await ws.call(
      "bash",
      { command: "echo first; sleep 0.3; echo second" },
      { onUpdate: (p) => updates.push(textOf(p)) },
    );
    expect(updates[0]).toBe("first");
    expect(updates.at(-1)).toBe("first\nsecond");
  });

  it("keeps the last 2000 lines and says how to see the rest", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "seq 1 5000" });
    const text = textOf(result);
    expect(text).toMatch(/^\[Output cut: showing the last 2000 of 5000 lines/);
    expect(text).toContain("command > out.log 2>&1");
    expect(text.endsWith("\n3001\n3002") || text.includes("\n3001\n3002\n")).toBe(true);
    expect(text).not.toContain("\n3000\n");
    expect(text.endsWith("5000")).toBe(true);
    expect(details(result)).toMatchObject({ outputLines: 5000, truncated: true });
  });

  it("keeps the last 50 KB of wide output", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "for i in $(seq 1 3000); do printf '%0100d\\n' $i; done" });
    const text = textOf(result);
    expect(text).toContain(`${"0".repeat(96)}3000`);
    expect(text).not.toContain(`${"0".repeat(97)}999\n`);
    expect(Buffer.byteLength(text)).toBeLessThan(51 * 1024 + 400);
    expect(details(result).outputBytes).toBe(3000 * 101);
  });

  it("describes binary output instead of dumping it", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "printf 'PK\\003\\004\\000\\000binary'" });
    expect(textOf(result)).toContain("[The command wrote 12 B of binary output");
    expect(textOf(result)).not.toContain("PK");
    expect(details(result).binary).toBe(true);
  });

  it("shows text with a few invalid bytes, marking them", async () => {
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "printf 'caf\\351 ok\\n'" });
    expect(textOf(result)).toContain("caf\uFFFD ok");
    expect(textOf(result)).toContain("not valid UTF-8");
  });

  it("stops a command that never ends at its timeout, with code timeout", async () => {
    ws = await makeWorkspace();
    const outcome = await ws.call("bash", { command: "echo started; sleep 30", timeoutMs: 300 });
    expect(outcome.kind).toBe("error");
    if (outcome.kind !== "error") return;
    expect(outcome.error.code).toBe("timeout");
    expect(outcome.error.message).toContain("Command timed out after 300 ms and was stopped");
    expect(outcome.error.message).toContain("started");
  });

  it("does not start a command when the call is already aborted", async () => {
    ws = await makeWorkspace();
    const controller = new AbortController();
    controller.abort();
    const outcome = await ws.call("bash", { command: "touch ran" }, { signal: controller.signal });
    expect(outcome.kind === "error" && outcome.error.code).toBe("aborted");
    expect(existsSync(join(ws.root, "ran"))).toBe(false);
  });

  it("stops a command aborted right after the call began, before it could start", async () => {
    ws = await makeWorkspace();
    const controller = new AbortController();
    const outcome = ws.call("bash", { command: "sleep 30; touch ran" }, { signal: controller.signal });
    controller.abort();
    const ended = await outcome;
    expect(ended.kind === "error" && ended.error.code).toBe("aborted");
    expect(existsSync(join(ws.root, "ran"))).toBe(false);
  }, 10_000);

  it("fails precisely when the shell cannot be started", async () => {
    ws = await makeWorkspace({}, { shell: "/nonexistent/shell" });
    const error = await ws.fail("bash", { command: "true" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain("Could not start /nonexistent/shell");
  });

  it("survives an onUpdate listener that throws", async () => {
    ws = await makeWorkspace();
    const outcome = await ws.call(
      "bash",
      { command: "echo one" },
      {
        onUpdate: () => {
          throw new Error("listener fault");
        },
      },
    );
    expect(outcome.kind === "result" && textOf(outcome.result)).toBe("one");
  });
});
