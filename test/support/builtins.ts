// Test support for the built-in tools: a temp workspace, a tool runner that captures throws, process checks.
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type BuiltinToolsOptions, createBuiltinTools } from "../../src/builtins/create-builtin-tools.js";
import { processState } from "../../src/builtins/process-group.js";
import { ToolCallError } from "../../src/core/errors.js";
import { contentBlockAsText } from "../../src/core/tool-result.js";
import type { AgentTool, JsonObject, ToolResult } from "../../src/core/types.js";

/** What one tool call gave: a result, or the ToolCallError it threw. */
export type Outcome = { kind: "result"; result: ToolResult } | { kind: "error"; error: ToolCallError };

/** A temp folder with built-in tools over it. */
export interface TestWorkspace {
  readonly root: string;
  /** A second temp folder outside the workspace, for escape tests. */
  readonly outside: string;
  readonly tools: ReadonlyMap<string, AgentTool>;
  call(
    name: string,
    input: JsonObject,
    options?: { signal?: AbortSignal; onUpdate?: (partial: ToolResult) => void },
  ): Promise<Outcome>;
  /** Calls and expects a result (not a throw). */
  ok(name: string, input: JsonObject): Promise<ToolResult>;
  /** Calls and expects a ToolCallError. */
  fail(name: string, input: JsonObject): Promise<ToolCallError>;
  /** Writes files (relative to the root), creating folders. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  /** A fresh set of tools over the same root (its own read tracker). */
  reopen(options?: Partial<BuiltinToolsOptions>): TestWorkspace;
  cleanup(): Promise<void>;
}

/** Makes a temp workspace (and a sibling temp folder outside it) with the given files. */
export async function makeWorkspace(
  files: Record<string, string | Uint8Array> = {},
  options: Partial<BuiltinToolsOptions> = {},
): Promise<TestWorkspace> {
  const root = await mkdtemp(join(tmpdir(), "toolwire-ws-"));
  const outside = await mkdtemp(join(tmpdir(), "toolwire-outside-"));
  const build = (extra: Partial<BuiltinToolsOptions>): TestWorkspace => {
    const tools = new Map(createBuiltinTools({ root, ...extra }).map((tool) => [tool.descriptor.name, tool]));
    const call: TestWorkspace["call"] = async (name, input, callOptions = {}) => {
      const tool = tools.get(name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      try {
        const value = await tool.execute(input, {
          toolCallId: "test",
          signal: callOptions.signal ?? new AbortController().signal,
          onUpdate: callOptions.onUpdate ?? (() => undefined),
        });
        return {
          kind: "result",
          result: typeof value === "string" ? { content: [{ type: "text", text: value }] } : value,
        };
      } catch (error) {
        if (error instanceof ToolCallError) return { kind: "error", error };
        throw error;
      }
    };
    const workspace: TestWorkspace = {
      root,
      outside,
      tools,
      call,
      async ok(name, input) {
        const outcome = await call(name, input);
        if (outcome.kind === "error")
          throw new Error(`${name} failed: ${outcome.error.code}: ${outcome.error.message}`);
        return outcome.result;
      },
      async fail(name, input) {
        const outcome = await call(name, input);
        if (outcome.kind === "result") throw new Error(`${name} did not fail: ${textOf(outcome.result)}`);
        return outcome.error;
      },
      async write(more) {
        for (const [path, content] of Object.entries(more)) {
          await mkdir(dirname(join(root, path)), { recursive: true });
          await writeFile(join(root, path), content);
        }
      },
      reopen: (again = {}) => build({ ...extra, ...again }),
      async cleanup() {
        await rm(root, { recursive: true, force: true });
        await rm(outside, { recursive: true, force: true });
      },
    };
    return workspace;
  };
  const workspace = build(options);
  await workspace.write(files);
  return workspace;
}

/** All text blocks of a result, joined. */
export function textOf(result: ToolResult): string {
  return result.content.map(contentBlockAsText).join("\n");
}

/** Whether a process is alive; a zombie (dead, not yet reaped) counts as gone. */
export async function isProcessAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = processState(pid);
  if (state === undefined) return process.platform !== "linux";
  return state.state !== "Z" && state.state !== "X";
}

/** Polls until `check` holds, or fails after `ms` (an eventual property, not a timing assertion). */
export async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/**
 * The live processes (zombies excluded) with `argument` as one of their command-line arguments. With a
 * unique argument (`sleep 1000.<random>`) this finds exactly what a test started, on the host, whatever
 * PID namespace the processes are in, and never anything else.
 */
export function processesWithArgument(argument: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const state = processState(Number(entry))?.state;
      if (args.includes(argument) && state !== "Z" && state !== "X") found.push(Number(entry));
    } catch {
      // Gone while scanning.
    }
  }
  return found;
}
