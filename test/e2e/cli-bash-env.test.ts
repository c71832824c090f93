// toolwire run as a user runs it: the model's shell does not see the keys and tokens in the CLI's environment.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

/** Prints each variable's value, or "unset", in the shell the model gets. */
const PROBE = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GITHUB_TOKEN"]
  .map((name) => `${name}=[$(printenv ${name} || echo unset)]`)
  .join(" ")
  .replace(/^/, "echo ");
const UNSET = "ANTHROPIC_API_KEY=[unset] OPENAI_API_KEY=[unset] GITHUB_TOKEN=[unset]";

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({
    "env.json": JSON.stringify({
      turns: [
        { toolCalls: [{ id: "c1", name: "bash", input: { command: PROBE } }] },
        {
          text: "done",
          expect: {
            toolResults: [{ id: "c1", isError: false, contains: UNSET }],
          },
        },
      ],
    }),
  });
});
afterAll(() => workspace.remove());

describe("toolwire run: bash's environment", { timeout: 60_000 }, () => {
  it("hands the model's shell none of the API keys and tokens the CLI was started with", async () => {
    const { code, stdout } = await runCli(["run", "--json", "--model", "scripted:env.json", "show env"], {
      cwd: workspace.path,
      env: cliEnv({ ANTHROPIC_API_KEY: "sk-ant-e2e-secret", OPENAI_API_KEY: "sk-e2e-secret", GITHUB_TOKEN: "ghp-e2e" }),
    });
    expect(stdout).not.toContain("sk-ant-e2e-secret");
    expect(stdout).not.toContain("sk-e2e-secret");
    expect(stdout).not.toContain("ghp-e2e");
    expect(stdout).toContain(UNSET);
    expect(code).toBe(0);
  });
});
