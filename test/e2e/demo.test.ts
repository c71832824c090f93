// `npm start` as a newcomer runs it: the built demo prints the plan, the reasons and every call's result.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..", "..");

describe("npm start demo", () => {
  it("prints visible and hidden tools with reasons, the override, and one result per call", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [resolve(root, "dist/demo/main.js")], { cwd: root });
    expect(stdout).toContain("Missing auth provider: github (auth-missing)");
    expect(stdout).toContain("now: extension tool kept, builtin tool dropped");
    expect(stdout).toContain("It is 21 degrees celsius and sunny in Lisbon.");
    expect(stdout).toContain("- input.city: must be string, got number 42");
    expect(stdout).toContain("Tool call blocked: Atlantis is off-limits");
    expect(stdout).toContain("Tool flaky failed: connection refused");
    expect(stdout).toContain("Tool github_search not found.");
  });
});
