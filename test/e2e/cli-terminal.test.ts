// toolwire on a terminal (a pseudo-terminal through `script`): colour without FORCE_COLOR, a spinner for slow work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAN_RUN_IN_TERMINAL, cliEnv, runCliInTerminal, tempWorkspace } from "./helpers/cli.js";

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({ policy: [{ label: "l", deny: ["write"] }] }),
  });
});
afterAll(() => workspace.remove());

(CAN_RUN_IN_TERMINAL ? describe.concurrent : describe.skip)("on a terminal", { timeout: 60_000 }, () => {
  it("plan is coloured with no variable asking for it, and NO_COLOR turns it off", async () => {
    const coloured = await runCliInTerminal(["plan"], { cwd: workspace.path });
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain("\u001b[32mread\u001b[39m");
    expect(coloured.stdout).toContain("\u001b[31mwrite\u001b[39m");
    const plain = await runCliInTerminal(["plan"], { cwd: workspace.path, env: cliEnv({ NO_COLOR: "1" }) });
    expect(plain.stdout).toContain("Removed (1)");
    expect(plain.stdout).not.toContain("\u001b[3");
  });

  it("a tool that runs longer than a moment shows a spinner with its label, cleared before the result", async () => {
    const { code, stdout } = await runCliInTerminal(["call", "bash", '{"command":"sleep 1; echo slept"}'], {
      cwd: workspace.path,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running bash \d+\.\ds/);
    expect(stdout).toContain("\r\u001b[2Kslept");
  });
});
