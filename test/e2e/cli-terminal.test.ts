// toolwire on a terminal (a pseudo-terminal through `script`): colour without FORCE_COLOR, a spinner for slow work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatCompletionChunks, startFakeProvider } from "../support/fake-provider-server.js";
import { CAN_RUN_IN_TERMINAL, cliEnv, runCliInTerminal, tempWorkspace } from "./helpers/cli.js";

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({
    "toolwire.config.json": JSON.stringify({ policy: [{ label: "l", deny: ["write"] }] }),
  });
});
afterAll(() => workspace.remove());

(CAN_RUN_IN_TERMINAL ? describe.concurrent : describe.skip)("on a terminal", { timeout: 60_000 }, () => {
  it("plan is coloured with no variable asking for it, and NO_COLOR turns it off", async () => {
    const coloured = await runCliInTerminal(["plan"], { cwd: workspace.path });
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain("\u001b[32mread\u001b[39m");
    expect(coloured.stdout).toContain("\u001b[31mwrite\u001b[39m");
    const plain = await runCliInTerminal(["plan"], { cwd: workspace.path, env: cliEnv({ NO_COLOR: "1" }) });
    expect(plain.stdout).toContain("Removed (1)");
    expect(plain.stdout).not.toContain("\u001b[3");
  });

  it("a tool that runs longer than a moment shows a spinner with its label, cleared before the result", async () => {
    const { code, stdout } = await runCliInTerminal(["call", "bash", '{"command":"sleep 1; echo slept"}'], {
      cwd: workspace.path,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running bash \d+\.\ds/);
    expect(stdout).toContain("\r\u001b[2Kslept");
  });
  it("run streams the model's text by default, and --no-stream asks for whole replies", async () => {
    const answer = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1741294021,
      model: "test-model",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Hello there." } }],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    };
    const server = await startFakeProvider({
      "/v1/chat/completions": [{ sse: chatCompletionChunks(answer) }, { json: answer }],
    });
    try {
      const args = ["run", "--model", "openai:test-model", "--base-url", `${server.url}/v1`, "hi"];
      const streamed = await runCliInTerminal(args, { cwd: workspace.path });
      expect(streamed.code).toBe(0);
      expect(streamed.stdout).toContain("Hello there.");
      const plain = await runCliInTerminal([...args.slice(0, -1), "--no-stream", "hi"], { cwd: workspace.path });
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain("Hello there.");
      expect(server.requests.map((request) => request.body.stream)).toEqual([true, undefined]);
    } finally {
      await server.close();
    }
  });
});
