// What the CLI says when a name is nearly right or a tool is gone: a "did you mean" for a policy pattern that matches
// nothing, and why a tool the policy removed cannot be called.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({
      policy: [
        { label: "team", deny: ["bash", "wirte"] },
        { label: "agent", deny: ["group:nothing-here"] },
      ],
    }),
  });
});
afterAll(() => project.remove());

describe.concurrent("hints", { timeout: 60_000 }, () => {
  it("plan suggests the tool a pattern that matches nothing was most likely meant to name", async () => {
    const { code, stdout } = await runCli(["plan"], { cwd: project.path, env: cliEnv({ NO_COLOR: "1" }) });
    expect(code).toBe(0);
    expect(stdout).toContain('layer "team": wirte (did you mean write?)');
  });

  it("call of a tool the policy removed says which layer removed it", async () => {
    const { code, stderr } = await runCli(["call", "bash", '{"command":"id"}'], { cwd: project.path });
    expect(code).toBe(1);
    expect(stderr).toContain('bash (built-in) is removed by policy layer "team": deny pattern "bash".');
  });

  it("call of a name nothing knows says nothing more than not found", async () => {
    const { code, stdout, stderr } = await runCli(["call", "nosuch", "{}"], { cwd: project.path });
    expect(code).toBe(1);
    expect(stdout).toContain("Tool nosuch not found.");
    expect(stderr.trim()).toBe("error (tool-not-found)");
  });
});
