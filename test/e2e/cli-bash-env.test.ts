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

describe("toolwire run: builtins.env in the config", { timeout: 60_000 }, () => {
  it("passes the variables the config names and sets its own, and still none of the others", async () => {
    const project = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({
        builtins: { env: { pass: ["GITHUB_*"], set: { TOOLWIRE_E2E_SET: "from-config" } } },
      }),
      "env.json": JSON.stringify({
        turns: [
          {
            toolCalls: [
              {
                id: "c1",
                name: "bash",
                input: { command: `${PROBE} TOOLWIRE_E2E_SET=[$(printenv TOOLWIRE_E2E_SET || echo unset)]` },
              },
            ],
          },
          {
            text: "done",
            expect: {
              toolResults: [
                {
                  id: "c1",
                  isError: false,
                  contains:
                    "ANTHROPIC_API_KEY=[unset] OPENAI_API_KEY=[unset] GITHUB_TOKEN=[ghp-e2e] TOOLWIRE_E2E_SET=[from-config]",
                },
              ],
            },
          },
        ],
      }),
    });
    try {
      const { code, stdout } = await runCli(["run", "--json", "--model", "scripted:env.json", "show env"], {
        cwd: project.path,
        env: cliEnv({
          ANTHROPIC_API_KEY: "sk-ant-e2e-secret",
          OPENAI_API_KEY: "sk-e2e-secret",
          GITHUB_TOKEN: "ghp-e2e",
        }),
      });
      expect(stdout).not.toContain("sk-ant-e2e-secret");
      expect(stdout).toContain("GITHUB_TOKEN=[ghp-e2e] TOOLWIRE_E2E_SET=[from-config]");
      expect(code).toBe(0);
    } finally {
      await project.remove();
    }
  });
});
