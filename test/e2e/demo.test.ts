// `npm start` as a newcomer runs it: a scripted agent fixes the sample workspace's bug with the real built-ins.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");

describe("toolwire demo (npm start)", () => {
  it("runs every step for real, completes, and prints the plan with hidden and removed tools and why", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [resolve(root, "dist/cli/main.js"), "demo"], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(stdout).toContain("750 !== 1200"); // the first test run really failed
    expect(stdout).toContain("src/cart.js:4: export function cartTotal"); // grep found it
    expect(stdout).toMatch(/approve\? edit \{"path":"src\/cart\.js".*\n\s+sha256:[0-9a-f]{64}\n\s+the demo answers y/); // asked
    expect(stdout).toContain("+    total += item.priceCents * item.quantity;"); // edit's diff
    expect(stdout).toContain("all cart tests passed"); // bash ran the fixed tests
    expect(stdout).toContain("completed after 6 turns");
    expect(stdout).toContain("open_issue      auth-missing  Missing auth provider: github");
    expect(stdout).toContain("deploy_preview  env-missing   Missing environment value: SHOP_DEPLOY_TOKEN");
    expect(stdout).toContain('write          builtin    policy layer "team": denied by "write"');
    expect(stdout).not.toContain("\u001b["); // no colour when NO_COLOR is set
  });

  it("removes its temporary workspace and ends when the reader of its output goes away (npm start | head)", async () => {
    const child = spawn(process.execPath, [resolve(root, "dist/cli/main.js"), "demo"], {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let seen = "";
    const workspace = await new Promise<string>((found) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        seen += chunk;
        const match = /examples\/demo-workspace at (\S+)/.exec(seen);
        if (match !== null) {
          child.stdout.destroy(); // like `head -2`: the reader is gone, every later write fails with EPIPE
          found(match[1] as string);
        }
      });
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise((done) => child.on("close", done));
    expect(stderr).toBe("");
    expect(code).not.toBeNull(); // it ended by itself, not by a signal
    expect(existsSync(workspace)).toBe(false);
  });
});
