import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { ToolCallPhaseEvent } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { BWRAP_VARIABLE, detectSandbox } from "../sandbox/detect-sandbox.js";
import type { BashDetails } from "./bash.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";
import { createBuiltinTools } from "./create-builtin-tools.js";

// CI installs bubblewrap (.ci/run): there the tests that need it run.
const sandboxHere = (await detectSandbox()).usable || process.env.CI === "true";
if (!sandboxHere) console.warn("skipping the bash tests that need bubblewrap: it cannot start a sandbox here");

describe("bash's sandbox modes", () => {
  const saved = process.env[BWRAP_VARIABLE];
  let ws: TestWorkspace | undefined;
  afterEach(async () => {
    if (saved === undefined) delete process.env[BWRAP_VARIABLE];
    else process.env[BWRAP_VARIABLE] = saved;
    await ws?.cleanup();
    ws = undefined;
  });

  it.skipIf(!sandboxHere)(
    'with mode "required" where bubblewrap works, bash is visible to a program and runs sandboxed',
    async () => {
      ws = await makeWorkspace({}, { sandbox: { mode: "required" } });
      expect(ws.tools.get("bash")?.descriptor.availability).toBeUndefined();
      expect(ws.tools.get("bash")?.descriptor.description).toContain("It runs in a sandbox:");
      // A program's own registry, with no availability context: nothing names the sandbox capability.
      const session = createAgentSession({ registry: createToolRegistry({ builtins: [...ws.tools.values()] }) });
      expect(session.activeToolNames).toContain("bash");
      const outcome = await session.dispatchDetailed({ id: "b", name: "bash", input: { command: "echo in" } });
      expect(outcome.result.content).toEqual([{ type: "text", text: "in" }]);
      expect((outcome.result.details as BashDetails).sandbox).toBe("bubblewrap");
    },
  );

  it('with mode "required" where bubblewrap cannot run, bash is hidden and says why: explain, plan, the model', async () => {
    process.env[BWRAP_VARIABLE] = "none";
    ws = await makeWorkspace({}, { sandbox: { mode: "required" } });
    const why =
      'Missing capability: sandbox: bash runs only in a sandbox (sandbox mode "required"), and bubblewrap cannot start one: bubblewrap is turned off here (TOOLWIRE_BWRAP=none)';
    const registry = createToolRegistry({ builtins: [...ws.tools.values()] });
    expect(registry.hidden.map((entry) => [entry.descriptor.name, entry.diagnostics.map((d) => d.message)])).toEqual([
      ["bash", [why]],
    ]);
    expect(registry.explain("bash")).toBe(
      `bash is hidden: its availability check failed.\n- ${why} (capability-missing)`,
    );
    const session = createAgentSession({ registry });
    const outcome = await session.dispatchDetailed({ id: "b", name: "bash", input: { command: "echo ran" } });
    expect(outcome.errorCode).toBe("tool-not-found");
    expect(outcome.result.content).toEqual([
      {
        type: "text",
        text: `Tool bash is not available here, so it was not run: ${why}. Available tools: edit, find, grep, ls, read, write.`,
      },
    ]);
    const auto = ws.reopen({ sandbox: { mode: "auto" } });
    expect(auto.tools.get("bash")?.descriptor.availability).toBeUndefined();
    expect(auto.tools.get("read")?.descriptor.availability).toBeUndefined();
  });

  it('with mode "required" and no usable bubblewrap, refuses to run the command unsandboxed', async () => {
    process.env[BWRAP_VARIABLE] = "none";
    ws = await makeWorkspace({}, { sandbox: { mode: "required" } });
    const error = await ws.fail("bash", { command: "echo ran > ran.txt" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain(
      'the sandbox is required (mode "required") but bubblewrap is not usable here (sandbox-unavailable)',
    );
    expect(error.message).toContain("TOOLWIRE_BWRAP=none");
    await expect(ws.call("read", { path: "ran.txt" })).resolves.toMatchObject({ kind: "error" });
  });

  it('with mode "auto" and no usable bubblewrap, runs unsandboxed and says so in the details', async () => {
    process.env[BWRAP_VARIABLE] = "none";
    ws = await makeWorkspace();
    const result = await ws.ok("bash", { command: "echo hi" });
    expect(textOf(result)).toBe("hi");
    expect((result.details as BashDetails).sandbox).toBe("unavailable");
  });

  it('with sandbox "off", runs unsandboxed and says so', async () => {
    ws = await makeWorkspace({}, { sandbox: "off" });
    const result = await ws.ok("bash", { command: "echo hi" });
    expect((result.details as BashDetails).sandbox).toBe("off");
    expect(ws.tools.get("bash")?.descriptor.description).not.toContain("sandbox");
  });

  it("gives a clear error result, not a crash, when bubblewrap fails at call time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "toolwire-fake-bwrap-"));
    try {
      // Passes the start-up probe (its command is `bash -c "exit 0"`), then fails as a broken bwrap would.
      const fake = join(dir, "bwrap");
      await writeFile(
        fake,
        '#!/bin/sh\nfor a in "$@"; do [ "$a" = "exit 0" ] && exit 0; done\necho "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1\n',
      );
      await chmod(fake, 0o755);
      process.env[BWRAP_VARIABLE] = fake;
      ws = await makeWorkspace({}, { sandbox: { mode: "required" } });
      const error = await ws.fail("bash", { command: "echo hi" });
      expect(error.code).toBe("execution-failed");
      expect(error.message).toContain("the sandbox could not start (sandbox-failed)");
      expect(error.message).toContain("bwrap: Creating new namespace failed: Operation not permitted");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!sandboxHere)("runs calls of several tool sets at once, each in its own sandbox", async () => {
    ws = await makeWorkspace({}, { sandbox: { mode: "required" } });
    const sets = [ws, ws.reopen(), ws.reopen(), ws.reopen()];
    const results = await Promise.all(sets.map((set, index) => set.ok("bash", { command: `echo ${index} $$` })));
    expect(results.map((result) => textOf(result))).toEqual(["0 3", "1 3", "2 3", "3 3"]);
    expect(results.every((result) => (result.details as BashDetails).sandbox === "bubblewrap")).toBe(true);
  });

  it.skipIf(!sandboxHere)("reports starting the sandbox as the call's sandbox_start phase", async () => {
    ws = await makeWorkspace({}, { sandbox: { mode: "auto" } });
    const session = createAgentSession({ registry: createToolRegistry({ custom: [...ws.tools.values()] }) });
    const phases: ToolCallPhaseEvent[] = [];
    session.on("tool_call_phase", (event) => phases.push(event));
    const block = await session.dispatch({ id: "s", name: "bash", input: { command: "echo in" } });
    expect(block).toMatchObject({ content: [{ type: "text", text: "in" }] });
    expect(block.is_error).toBeUndefined();
    const names = phases.map((phase) => phase.phase).filter((phase) => phase !== "queued");
    expect(names).toEqual(["validate", "sandbox_start", "execute"]);
    const start = phases.find((phase) => phase.phase === "sandbox_start") as ToolCallPhaseEvent;
    const execute = phases.find((phase) => phase.phase === "execute") as ToolCallPhaseEvent;
    expect(start.durationMs).toBeGreaterThan(0);
    expect(start.durationMs).toBeLessThan(execute.durationMs);
  });

  it("refuses sandbox options of the wrong shape, naming the field", async () => {
    ws = await makeWorkspace();
    const root = ws.root;
    const refused = (sandbox: unknown) => {
      try {
        createBuiltinTools({ root, sandbox: sandbox as "off" });
      } catch (error) {
        expect(error).toBeInstanceOf(BuiltinToolsError);
        return { code: (error as BuiltinToolsError).code, message: (error as Error).message };
      }
      throw new Error("not refused");
    };
    expect(refused({ mode: "always" })).toEqual({
      code: "invalid-option",
      message: 'sandbox.mode must be "auto" or "required", got "always"',
    });
    expect(refused({ network: "lan" }).message).toContain(
      'sandbox.network must be "off", "on" or { "allowHosts": [...] }',
    );
    expect(refused({ network: { allowHosts: ["a b"] } }).message).toContain('sandbox.network.allowHosts lists "a b"');
    expect(refused({ readOnly: ["../elsewhere"] }).message).toContain(
      'sandbox.readOnly lists "../elsewhere", which is not inside the root',
    );
    expect(refused({ writable: "/data" }).message).toContain("sandbox.writable must be a list of non-empty paths");
    expect(refused({ maxProcesses: 0 }).message).toContain("sandbox.maxProcesses must be a whole number of at least 8");
    expect(refused({ tmpDir: "/x" }).message).toContain("sandbox.tmpDir is not a sandbox option");
    expect(refused("on").message).toContain('sandbox must be "off" or an object of sandbox options');
  });
});
