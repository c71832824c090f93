// The config's flow.policy: a Cedar policy file that judges each call of the CLI's session (principal "local").
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "./helpers/cli.js";

const POLICIES = `@id("allow-all")
permit(principal, action, resource);

@id("no-secret-writes")
forbid(principal == Toolwire::Principal::"local", action == Toolwire::Action::"write", resource)
when { context.input.path like "secret/*" };
`;

let root: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  root = await tempWorkspace({
    "good/toolwire.config.json": JSON.stringify({ flow: { policy: "policies/calls.cedar" } }),
    "good/policies/calls.cedar": POLICIES,
    "bad/toolwire.config.json": JSON.stringify({ flow: { policy: "calls.cedar" } }),
    "bad/calls.cedar": `${POLICIES}forbid(principal action, resource);\n`,
  });
});
afterAll(() => root.remove());

describe.concurrent("flow.policy in the config", { timeout: 60_000 }, () => {
  // Needs the session's call site of flow.policy (src/core/dispatch/call.ts).
  it("refuses a call its Cedar policy forbids, naming the rule, and the tool never runs", async () => {
    const cwd = `${root.path}/good`;
    const allowed = await runCli(["call", "write", '{"path":"notes.md","content":"hi"}'], { cwd });
    expect(allowed.code).toBe(0);
    const denied = await runCli(["call", "write", '{"path":"secret/key.txt","content":"hi"}'], { cwd });
    expect(denied.code).toBe(1);
    expect(denied.stdout.trim()).toBe(
      'Tool call write denied by the call policy by rule "no-secret-writes": the policy at line 4 forbids it',
    );
    expect(denied.stderr.trim()).toBe("error (policy-denied)");
    expect(existsSync(`${cwd}/secret/key.txt`)).toBe(false);
  });

  it("refuses to start with a policy file that does not parse, exit 3, naming the file, line and column", async () => {
    const cwd = `${root.path}/bad`;
    const { code, stderr } = await runCli(["call", "read", '{"path":"calls.cedar"}'], { cwd });
    expect(code).toBe(3);
    expect(stderr).toContain(`${cwd}/calls.cedar does not parse: ${cwd}/calls.cedar:7:18: unexpected token \`action\``);
  });
});
