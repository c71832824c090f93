// The config's flow.policy in the runtime: the CLI's session judges as principal "local", and each gateway session
// (sessionFor) as its own principal, from one parse of the file.
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRuntime, type Runtime } from "./runtime.js";

const POLICIES = `permit(principal == Toolwire::Principal::"local", action, resource);
@id("ops-reads")
permit(principal == Toolwire::Principal::"ops", action == Toolwire::Action::"read", resource);
`;

let folder: string;
let runtime: Runtime;
beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), "toolwire-flow-policy-")));
  await writeFile(join(folder, "a.txt"), "alpha\n");
  await writeFile(join(folder, "calls.cedar"), POLICIES);
  await writeFile(join(folder, "toolwire.config.json"), JSON.stringify({ flow: { policy: "calls.cedar" } }));
  runtime = await openRuntime({ cwd: folder, connectMcp: false });
});
afterAll(async () => {
  await runtime?.close();
  await rm(folder, { recursive: true, force: true });
});

const read = { id: "c1", name: "read", input: { path: "a.txt" } };

// Needs the session's call site of flow.policy (src/core/dispatch/call.ts).
describe("the config's Cedar policy in the runtime", () => {
  it("judges the CLI's own session as principal local", async () => {
    const outcome = await runtime.session.dispatchDetailed(read);
    expect(outcome.errorCode).toBeUndefined();
  });

  it("judges each gateway session as its own principal", async () => {
    const ops = runtime.sessionFor("ops", []);
    const ci = runtime.sessionFor("ci", []);
    try {
      expect((await ops.dispatchDetailed(read)).errorCode).toBeUndefined();
      expect((await ops.dispatchDetailed({ ...read, name: "ls", input: {} })).errorCode).toBe("policy-denied");
      const denied = await ci.dispatchDetailed(read);
      expect(denied.errorCode).toBe("policy-denied");
      expect(JSON.stringify(denied.block.content)).toContain("no policy permits it");
    } finally {
      ops.close();
      ci.close();
    }
  });
});
