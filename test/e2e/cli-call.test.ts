// toolwire call <tool> [json]: one tool call as a model makes it, in a real workspace, with exit codes and --json.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "./helpers/cli.js";

let root: { path: string; remove(): Promise<void> };
let workspace: string;
beforeAll(async () => {
  // The workspace is a folder of the temp folder; `outside.txt` sits next to it, out of the tools' reach.
  root = await tempWorkspace({
    "outside.txt": "TOP SECRET outside the workspace\n",
    "ws/a.txt": "alpha\nbeta\ngamma\n",
    "ws/toolwire.config.json": JSON.stringify({ policy: [{ label: "no-shell", deny: ["bash"] }] }),
  });
  workspace = `${root.path}/ws`;
});
afterAll(() => root.remove());

const call = (...args: string[]) => runCli(["call", ...args], { cwd: workspace });

describe.concurrent("toolwire call", { timeout: 60_000 }, () => {
  it("read prints the file with line numbers, exit 0", async () => {
    const { code, stdout, stderr } = await call("read", '{"path":"a.txt"}');
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe("     1\talpha\n     2\tbeta\n     3\tgamma\n");
  });

  it("a path outside the workspace is refused, exit 1, and nothing of the outside file shows", async () => {
    const { code, stdout, stderr } = await call("read", '{"path":"../outside.txt"}');
    expect(code).toBe(1);
    expect(stdout).toContain('Path "../outside.txt" is outside the workspace.');
    expect(stdout + stderr).not.toContain("TOP SECRET");
    expect(stderr.trim()).toBe("error (invalid-input)");
  });

  it("malformed JSON input gets the message a model would get, exit 1", async () => {
    const { code, stdout } = await call("read", '{"path":');
    expect(code).toBe(1);
    expect(stdout.trim()).toBe(
      'Invalid input for tool read: the input is not valid JSON (Unexpected end of JSON input). Send the input as one JSON object, for example {"key": "value"}.',
    );
  });

  it("input that breaks the schema names the field, exit 1", async () => {
    const { code, stdout } = await call("read", "{}");
    expect(code).toBe(1);
    expect(stdout).toContain("Invalid input for tool read");
    expect(stdout).toContain("path");
  });

  it("an unknown tool, or one the policy removed, is not found, exit 1, with the tools there are", async () => {
    const unknown = await call("nope");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout.trim()).toBe("Tool nope not found. Available tools: edit, find, grep, ls, read, write.");
    expect(unknown.stderr.trim()).toBe("error (tool-not-found)");
    const removed = await call("bash", '{"command":"echo hi"}');
    expect(removed.code).toBe(1);
    expect(removed.stdout).toContain("Tool bash not found.");
  });

  it("write really writes the file in the workspace", async () => {
    const { code, stdout } = await call(
      "write",
      JSON.stringify({ path: "notes/new.md", content: "written by call\n" }),
    );
    expect(code).toBe(0);
    expect(stdout).toContain("notes/new.md");
    expect(await readFile(`${workspace}/notes/new.md`, "utf8")).toBe("written by call\n");
  });

  it("--json gives the tool_result with its error code, duration and details", async () => {
    const ok = await call("read", '{"path":"a.txt"}', "--json");
    expect(ok.code).toBe(0);
    const result = JSON.parse(ok.stdout);
    expect(result).toMatchObject({
      type: "tool_result",
      tool_use_id: "cli-call",
      content: [{ type: "text", text: "     1\talpha\n     2\tbeta\n     3\tgamma" }],
      details: { path: "a.txt", kind: "text", totalLines: 3, truncated: false },
    });
    expect(result.is_error).toBeUndefined();
    expect(result.durationMs).toBeTypeOf("number");
    expect(Math.round(result.durationMs * 100) / 100).toBe(result.durationMs); // rounded to two decimals

    const refused = await runCli(["--json", "call", "read", '{"path":"../outside.txt"}'], { cwd: workspace });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("");
    expect(JSON.parse(refused.stdout)).toMatchObject({
      type: "tool_result",
      is_error: true,
      errorCode: "invalid-input",
      content: [{ type: "text", text: expect.stringContaining("is outside the workspace") }],
    });
    const missing = JSON.parse((await call("nope", "--json")).stdout);
    expect(missing).toMatchObject({ is_error: true, errorCode: "tool-not-found" });
  });

  it("an error never repeats a huge tool name or input whole: it is cut to a few hundred characters", async () => {
    const name = "n".repeat(100_000);
    const unknown = await call(name, "{}");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain(`Tool ${"n".repeat(100)}… (99900 more characters) not found.`);
    expect(unknown.stdout.length).toBeLessThan(2000);
    const path = "p".repeat(100_000);
    const read = await call("read", JSON.stringify({ path }), "--json");
    expect(read.code).toBe(1);
    const result = JSON.parse(read.stdout);
    expect(result.is_error).toBe(true);
    expect(result.content[0].text).toContain(`"${"p".repeat(200)}…" is too long for the file system`);
    expect(result.content[0].text.length).toBeLessThan(2000);
    const key = await call("read", JSON.stringify({ path: "a.txt", ["k".repeat(100_000)]: 1 }));
    expect(key.code).toBe(1);
    expect(key.stdout.length).toBeLessThan(2000);
  });
});
