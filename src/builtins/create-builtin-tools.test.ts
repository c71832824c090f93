import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, processesWithArgument } from "../../test/support/builtins.js";
import { applyToolPolicy } from "../core/filter/policy.js";
import { createToolRegistry } from "../core/register/registry.js";
import type { AgentTool } from "../core/types.js";
import { createAgentSession } from "../create-agent-session.js";
import { BuiltinToolsError } from "./builtin-tools-error.js";
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from "./create-builtin-tools.js";

let root: string;
let tools: AgentTool[];
const byName = (name: string) => tools.find((tool) => tool.descriptor.name === name) as AgentTool;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "toolwire-builtins-"));
  await writeFile(join(root, "notes.txt"), "alpha\nbeta\n");
  tools = createBuiltinTools({ root });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("createBuiltinTools", () => {
  it("gives read, write, edit, bash, ls, grep, find, in that order", () => {
    expect(tools.map((tool) => tool.descriptor.name)).toEqual(["read", "write", "edit", "bash", "ls", "grep", "find"]);
    expect([...BUILTIN_TOOL_NAMES]).toEqual(tools.map((tool) => tool.descriptor.name));
  });

  it("owns every tool as core, with a core executor named after it", () => {
    for (const tool of tools) {
      expect(tool.descriptor.owner).toEqual({ kind: "core" });
      expect(tool.descriptor.executor).toEqual({ kind: "core", executorId: tool.descriptor.name });
    }
  });

  it("marks read, ls, grep and find read-only and parallel; write, edit and bash sequential", () => {
    for (const name of ["read", "ls", "grep", "find"]) {
      expect(byName(name).descriptor.annotations?.readOnlyHint).toBe(true);
      expect(byName(name).executionMode).toBe("parallel");
    }
    for (const name of ["write", "edit", "bash"]) {
      expect(byName(name).descriptor.annotations?.readOnlyHint).toBe(false);
      expect(byName(name).executionMode).toBe("sequential");
    }
  });

  it("gives bash a tool-level timeout only as a backstop above its own longest run", () => {
    expect(byName("bash").timeoutMs).toBe(600_000 + 2_000 + 10_000);
    for (const name of ["read", "write", "edit", "ls", "grep", "find"]) expect(byName(name).timeoutMs).toBeUndefined();
  });

  it("has the spec's input fields, with object schemas that refuse unknown fields", () => {
    const fields = Object.fromEntries(
      tools.map((tool) => [tool.descriptor.name, Object.keys(tool.descriptor.inputSchema.properties as object)]),
    );
    expect(fields.read).toEqual(expect.arrayContaining(["path", "offset", "limit"]));
    expect(fields.write).toEqual(expect.arrayContaining(["path", "content"]));
    expect(fields.edit).toEqual(expect.arrayContaining(["path", "oldText", "newText"]));
    expect(fields.bash).toEqual(expect.arrayContaining(["command", "timeoutMs"]));
    expect(fields.ls).toEqual(expect.arrayContaining(["path"]));
    expect(fields.grep).toEqual(expect.arrayContaining(["pattern", "path", "glob"]));
    expect(fields.find).toEqual(expect.arrayContaining(["pattern", "path"]));
    for (const tool of tools) expect(tool.descriptor.inputSchema.additionalProperties).toBe(false);
  });

  it("puts the file tools in group:fs and bash in group:runtime", () => {
    const descriptors = tools.map((tool) => tool.descriptor);
    const fs = applyToolPolicy(descriptors, [{ label: "fs", allow: ["group:fs"] }]);
    expect(fs.kept.map((d) => d.name).sort()).toEqual(["edit", "find", "grep", "ls", "read", "write"]);
    const runtime = applyToolPolicy(descriptors, [{ label: "runtime", deny: ["group:runtime"] }]);
    expect(runtime.removed).toEqual([{ name: "bash", layer: "runtime", pattern: "group:runtime" }]);
  });

  it("throws BuiltinToolsError for a root that is not a folder and for a bad timeout", () => {
    const codeOf = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return error instanceof BuiltinToolsError ? error.code : `not a BuiltinToolsError: ${String(error)}`;
      }
      return "no error";
    };
    expect(codeOf(() => createBuiltinTools({ root: join(root, "notes.txt") }))).toBe("invalid-workspace-root");
    expect(codeOf(() => createBuiltinTools({ root, bashTimeoutMs: -1 }))).toBe("invalid-option");
    expect(codeOf(() => createBuiltinTools({ root, killGraceMs: Number.NaN }))).toBe("invalid-option");
    expect(codeOf(() => createBuiltinTools({ root, env: { pass: "*" as never } }))).toBe("invalid-option");
    expect(codeOf(() => createBuiltinTools({ root, env: { set: { "A=B": "x" } } }))).toBe("invalid-option");
  });

  it("works through a registry and a session: validation, results and refusals", async () => {
    const registry = createToolRegistry({ builtins: tools });
    const session = createAgentSession({ registry });
    const read = await session.dispatch({ id: "1", name: "read", input: { path: "notes.txt", limit: 1 } });
    expect(read.is_error).toBeFalsy();
    expect(read.content[0]).toEqual({
      type: "text",
      text: "     1\talpha\n\n[Showing lines 1-1 of 2. Use offset=2 to continue.]",
    });
    const escaped = await session.dispatch({
      id: "2",
      name: "read",
      input: JSON.stringify({ path: "../../etc/passwd" }),
    });
    expect(escaped.is_error).toBe(true);
    expect(escaped.content[0]?.type === "text" && escaped.content[0].text).toContain("is outside the workspace");
    const invalid = await session.dispatch({ id: "3", name: "read", input: { path: "notes.txt", offset: 0 } });
    expect(invalid.is_error).toBe(true);
    const write = await session.dispatch({ id: "4", name: "write", input: { path: "out/new.txt", content: "hi" } });
    expect(write.is_error).toBeFalsy();
    expect(await readFile(join(root, "out/new.txt"), "utf8")).toBe("hi");
    const bash = await session.dispatch({ id: "5", name: "bash", input: { command: "exit 7" } });
    expect(bash).toEqual({
      type: "tool_result",
      tool_use_id: "5",
      content: [{ type: "text", text: "(no output)\n\n[Command exited with code 7]" }],
      is_error: true,
    });
  });

  it("lets bash run to its own timeoutMs even when the session's default timeout is shorter", async () => {
    const registry = createToolRegistry({ builtins: createBuiltinTools({ root }) });
    const session = createAgentSession({ registry, toolTimeoutMs: 200 });
    const result = await session.dispatch({
      id: "s",
      name: "bash",
      input: { command: "sleep 0.5; echo done", timeoutMs: 5000 },
    });
    expect(result).toMatchObject({ content: [{ type: "text", text: "done" }] });
    expect(result.is_error).toBeUndefined();
  });

  it("ends every process bash started when the dispatch is aborted", async () => {
    const registry = createToolRegistry({ builtins: createBuiltinTools({ root, killGraceMs: 200 }) });
    const session = createAgentSession({ registry });
    const controller = new AbortController();
    const marker = `1000.${Math.floor(Math.random() * 1e9)}`;
    const pending = session.dispatch(
      { id: "t", name: "bash", input: { command: `setsid sleep ${marker} & sleep ${marker}` } },
      { signal: controller.signal },
    );
    expect(await eventually(async () => processesWithArgument(marker).length === 2)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.is_error).toBe(true);
    // The session answers an aborted call at once; bash's stop finishes just after.
    expect(await eventually(async () => processesWithArgument(marker).length === 0)).toBe(true);
  });
});
