// The README's example runs as written against the built package, and its inspector command works where toolwire is
// installed, not only in this clone.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv } from "./e2e/helpers/cli.js";
import { createConsumerProject } from "./support/consumer-project.js";
import { readDocBlocks } from "./support/doc-blocks.js";
import { runToEnd } from "./support/run-to-end.js";

const blocks = readDocBlocks("README.md");

describe("README", () => {
  it("the ten-line example prints the tool_result it promises", async () => {
    const block = blocks.find((entry) => entry.marker.kind === "runs" && entry.marker.test === "test/readme.test.ts");
    expect(block).toBeDefined();
    const project = await createConsumerProject({ files: { "example.mjs": block?.code ?? "" } });
    try {
      const { code, stdout, stderr } = await runToEnd(process.execPath, [join(project.path, "example.mjs")], {
        cwd: project.path,
        env: cliEnv(),
        timeoutMs: 30_000,
        what: "the README's example",
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(stdout).toContain("tool_use_id: 'toolu_1'");
      expect(stdout).toContain("text: '5'");
    } finally {
      await project.remove();
    }
  });

  it("the inspector command, run where toolwire is installed, serves the page", { timeout: 60_000 }, async () => {
    const line = blocks
      .filter((entry) => entry.lang === "sh")
      .flatMap((entry) => entry.code.split("\n"))
      .map((text) => text.replace(/\s+#.*$/, "").trim())
      .find((text) => text.includes("--inspect"));
    expect(line).toMatch(/^npx toolwire /);
    const project = await createConsumerProject();
    // its own process group, so that npx, the shell it starts and the CLI stop together
    const child = spawn("sh", ["-c", line as string], {
      cwd: project.path,
      env: cliEnv({ npm_config_offline: "true", npm_config_update_notifier: "false" }),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const exited = new Promise((resolve) => child.on("close", resolve));
    let stderr = "";
    let stdout = "";
    try {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          const found = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/\S+\/)$/m.exec(stderr)?.[1];
          if (found !== undefined) resolve(found);
        });
        child.on("close", () => reject(new Error(`the command ended before printing the inspector's URL: ${stderr}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<html");
      // the scripted demo got as far as its first edit, which waits for a yes on the page
      await new Promise<void>((resolve, reject) => {
        const check = () => {
          if (/^inspector: edit waits for your approval on the page/m.test(stderr)) resolve();
          // the run ended (the page stays up after it): the script was not found, or the run failed otherwise
          else if (stdout.includes("■ ")) reject(new Error(`the run ended before its first edit: ${stdout}`));
        };
        child.stderr.on("data", check);
        child.stdout.on("data", check);
        child.on("close", () => reject(new Error(`the run ended before its edit waited for approval: ${stderr}`)));
        check();
      });
    } finally {
      // SIGTERM lets the CLI remove the demo's temporary workspace; SIGKILL if it has not ended in 10 s
      const pid = child.pid as number;
      if (child.exitCode === null) process.kill(-pid, "SIGTERM");
      const timer = setTimeout(() => process.kill(-pid, "SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
      // a run stopped by SIGTERM while it waits for an approval removes the demo's workspace too
      const workspace = /, workspace (\S*toolwire-demo-\S+)/.exec(stdout)?.[1];
      const left = workspace !== undefined && existsSync(workspace);
      if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
      await project.remove();
      expect(workspace, stdout).toBeDefined();
      expect(left, `${workspace} was left behind`).toBe(false);
    }
  });
});
