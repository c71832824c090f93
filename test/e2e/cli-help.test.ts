// The toolwire command's help and usage errors, run as a child process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "./helpers/cli.js";

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace();
});
afterAll(() => workspace.remove());

const run = (...args: string[]) => runCli(args, { cwd: workspace.path });

describe.concurrent("toolwire --help", { timeout: 60_000 }, () => {
  it("lists every command, the global options, the exit codes and the environment variables, exit 0", async () => {
    const { code, stdout } = await run("--help");
    expect(code).toBe(0);
    for (const command of [
      "demo",
      "plan",
      "explain <tool>",
      "call <tool> [json]",
      "run [options] [prompt...]",
      "serve",
    ])
      expect(stdout).toContain(command);
    for (const option of ["--config <file>", "--json", "--no-color", "--version"]) expect(stdout).toContain(option);
    expect(stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 /);
    for (const name of [
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_MODEL",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "OPENAI_MODEL",
      "TOOLWIRE_MODEL",
      "NO_COLOR",
      "FORCE_COLOR",
    ])
      expect(stdout).toContain(name);
  });

  it.each([
    ["demo", ["--keep"]],
    ["plan", []],
    ["explain", ["<tool>"]],
    ["pin", ["--diff <tool>", "--accept <tool>", "--accept-all"]],
    ["call", ["<tool>", "[json]", '{"path":"README.md"}']],
    [
      "run",
      ["--model <spec>", "scripted:FILE", "openai:MODEL", "--base-url <url>", "--max-turns <n>", "TOOLWIRE_MODEL"],
    ],
    ["serve", ["--stdio", "--http <port>", "--host <host>", "127.0.0.1"]],
  ])("%s --help describes its options and the global ones, exit 0", async (command, expected) => {
    const { code, stdout, stderr } = await run(command, "--help");
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toContain(`Usage: toolwire ${command}`);
    for (const text of [...expected, "Global Options:", "--config <file>", "--json"]) expect(stdout).toContain(text);
  });

  it("--version prints the package version, exit 0", async () => {
    const { code, stdout } = await run("--version");
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe.concurrent("usage errors exit 2", { timeout: 60_000 }, () => {
  it("an unknown command names it, suggests the close one, and gives a one-line hint instead of the help", async () => {
    const { code, stdout, stderr } = await run("plam");
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("unknown command 'plam'");
    expect(stderr).toContain("(Did you mean plan?)");
    expect(stderr).toContain("toolwire --help lists the commands");
    expect(stderr).not.toContain("Usage: toolwire");
    expect(stderr.trim().split("\n")).toHaveLength(3);
  });

  it("an unknown option names it", async () => {
    const { code, stderr } = await run("plan", "--verbose");
    expect(code).toBe(2);
    expect(stderr).toContain("unknown option '--verbose'");
  });

  it("a missing argument names it", async () => {
    const { code, stderr } = await run("explain");
    expect(code).toBe(2);
    expect(stderr).toContain("missing required argument 'tool'");
  });

  it("a bad option value says what was expected", async () => {
    const turns = await run("run", "--model", "scripted:x.json", "--max-turns", "0", "go");
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain("--max-turns must be a positive integer, got 0");
    const port = await run("serve", "--http", "eighty");
    expect(port.code).toBe(2);
    expect(port.stderr).toContain("--http needs a port number, got eighty");
    const both = await run("serve", "--stdio", "--http", "0");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("choose --stdio or --http, not both");
  });

  it("a bad worker --concurrency says a positive integer was expected", async () => {
    const { code, stderr } = await run("worker", "--executor", "remote", "--concurrency", "two");
    expect(code).toBe(2);
    expect(stderr).toContain("--concurrency must be a positive integer, got two");
  });

  it("an unknown model spec lists the forms", async () => {
    const { code, stderr } = await run("run", "--model", "gpt-4", "hello");
    expect(code).toBe(2);
    expect(stderr).toContain(
      'Unknown model "gpt-4": expected one of scripted:FILE, anthropic:MODEL, openai:MODEL, openai-responses:MODEL, gemini:MODEL',
    );
  });
});
