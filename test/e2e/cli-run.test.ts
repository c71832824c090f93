// toolwire run with a scripted model and against a loopback OpenAI-compatible server, and toolwire demo --json.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chatCompletionChunks,
  type FakeProviderServer,
  type FakeReply,
  startFakeProvider,
} from "../support/fake-provider-server.js";
import { openAIChatToolRound, readProviderFixture } from "../support/provider-fixtures.js";
import { CLI, cliEnv, hasAnsi, runCli, tempWorkspace } from "./helpers/cli.js";

const SCRIPT = {
  turns: [
    {
      text: "Reading a.txt.",
      toolCalls: [{ id: "c1", name: "read", input: { path: "a.txt" } }],
      usage: { inputTokens: 100, outputTokens: 20 },
      expect: { tools: ["read", "ls"], systemPromptContains: "careful coding agent" },
    },
    {
      text: "It says hello.",
      usage: { inputTokens: 150, outputTokens: 10 },
      expect: { toolResults: [{ id: "c1", isError: false, contains: "hello" }] },
    },
  ],
};
/** The same first turn, then an expectation the result does not meet. */
const FAILING_SCRIPT = {
  turns: [SCRIPT.turns[0], { text: "x", expect: { toolResults: [{ id: "c1", contains: "goodbye" }] } }],
};

let workspace: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  workspace = await tempWorkspace({
    "a.txt": "hello from a\n",
    "turns.json": JSON.stringify(SCRIPT),
    "failing.json": JSON.stringify(FAILING_SCRIPT),
    "tools-listed.json": JSON.stringify({
      turns: [{ text: "I see the tools.", expect: { systemPromptContains: "You can call these tools:" } }],
    }),
    "slow-tool.json": JSON.stringify({
      turns: [{ toolCalls: [{ name: "bash", input: { command: "sleep 30" } }] }, { text: "never reached" }],
    }),
  });
});
afterAll(() => workspace.remove());

const run = (args: string[], env?: Record<string, string>) =>
  runCli(["run", ...args], { cwd: workspace.path, env: cliEnv(env) });

describe.concurrent("toolwire run --model scripted:FILE", { timeout: 60_000 }, () => {
  it("prints the turns, the call, the result and the outcome; exit 0 when the run completed", async () => {
    const { code, stdout, stderr } = await run(["--model", "scripted:turns.json", "read", "a.txt"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`model scripted:turns.json, workspace ${workspace.path}`);
    expect(stdout).toContain('── turn 1\nmodel  Reading a.txt.\ncall   read {"path":"a.txt"}\n✓      read ');
    expect(stdout).toContain("         │      1\thello from a\n── turn 2\nmodel  It says hello.");
    expect(stdout).toContain("■ completed after 2 turns, 250 input and 30 output tokens");
    expect(hasAnsi(stdout)).toBe(false);
  });

  it("exit 1 when the script's expectation fails, with the model's error", async () => {
    const { code, stdout } = await run(["--model", "scripted:failing.json", "read a.txt"]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      'error  Scripted model scripted:failing.json, turn 2: result 0: expected text containing "goodbye", got "     1\\thello from a"',
    );
    expect(stdout).toContain("■ model_error after 2 turns");
  });

  it("exit 1 when --max-turns is reached, after the last turn's calls are answered", async () => {
    const { code, stdout } = await run(["--model", "scripted:turns.json", "--max-turns", "1", "read a.txt"]);
    expect(code).toBe(1);
    expect(stdout).toContain("✓      read");
    expect(stdout).not.toContain("── turn 2");
    expect(stdout).toContain("■ max_turns after 1 turn");
  });

  it("--json prints one event per line, errors with their message", async () => {
    const ok = await run(["--model", "scripted:turns.json", "--json", "read a.txt"]);
    expect(ok.code).toBe(0);
    const events = ok.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((event) => event.type)).toEqual([
      "turn_start",
      "model_text_delta",
      "model_text",
      "usage",
      "tool_call",
      "tool_result",
      "turn_end",
      "turn_start",
      "model_text_delta",
      "model_text",
      "usage",
      "turn_end",
      "done",
    ]);
    expect(events[5]).toMatchObject({
      call: { id: "c1", name: "read", input: { path: "a.txt" } },
      result: { tool_use_id: "c1", content: [{ type: "text", text: "     1\thello from a" }] },
    });
    expect(events.at(-1)).toEqual({
      type: "done",
      reason: "completed",
      turns: 2,
      usage: { inputTokens: 250, outputTokens: 30 },
    });

    const failed = await run(["--model", "scripted:failing.json", "--json", "read a.txt"]);
    expect(failed.code).toBe(1);
    const done = JSON.parse(failed.stdout.trim().split("\n").at(-1) ?? "");
    expect(done).toMatchObject({
      type: "done",
      reason: "model_error",
      error: { name: "ModelError", code: "expectation-failed", message: expect.stringContaining("turn 2: result 0") },
    });
  });

  it("Ctrl-C (SIGINT) during a tool call ends the run as aborted, the call answered with why, exit 1", async () => {
    const child = spawn(process.execPath, [CLI, "run", "--model", "scripted:slow-tool.json", "sleep"], {
      cwd: workspace.path,
      env: cliEnv(),
    });
    let stdout = "";
    let interrupted = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes("call   bash") && child.signalCode === null && !interrupted)
        interrupted = child.kill("SIGINT");
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ {6}bash .*\n.*│ Tool call bash aborted: interrupted \(Ctrl-C\)/);
    expect(stdout).toContain("■ aborted after 1 turn");
  });

  it("--tools-in-system-prompt also lists the active tools in the system prompt", async () => {
    const listed = await run(["--model", "scripted:tools-listed.json", "--tools-in-system-prompt", "hi"]);
    expect(listed.stdout).toContain("■ completed after 1 turn");
    expect(listed.code).toBe(0);
    const unlisted = await run(["--model", "scripted:tools-listed.json", "hi"]);
    expect(unlisted.code).toBe(1);
    expect(unlisted.stdout).toContain('system prompt does not contain "You can call these tools:"');
  });

  it("takes the model from TOOLWIRE_MODEL", async () => {
    const { code, stdout } = await run(["read a.txt"], { TOOLWIRE_MODEL: "scripted:turns.json" });
    expect(code).toBe(0);
    expect(stdout).toContain("model scripted:turns.json");
  });

  it("a script file that is not there ends the run with model_error, exit 1", async () => {
    const { code, stdout } = await run(["--model", "scripted:nowhere.json", "hi"]);
    expect(code).toBe(1);
    expect(stdout).toContain("error  Cannot read the script nowhere.json");
  });

  it("without a model and without keys, exit 2 with what to do", async () => {
    const { code, stdout, stderr } = await run(["hello"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim()).toBe(
      "toolwire: No model: pass --model scripted:FILE | anthropic:MODEL | openai:MODEL, or set ANTHROPIC_API_KEY or OPENAI_API_KEY (and OPENAI_BASE_URL for a local server).",
    );
  });
});

describe.concurrent("toolwire run against a loopback OpenAI-compatible server", { timeout: 60_000 }, () => {
  const servers: FakeProviderServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  /** The fixture's tool-call completion with one `read` call, then a plain answer (both streamed with `stream`). */
  async function startServer(stream = false): Promise<FakeProviderServer> {
    const [first, second] = openAIChatToolRound({
      call: { id: "call_read_1", name: "read", arguments: '{"path":"a.txt"}' },
      answer: "The file says hello.",
      model: "test-model",
    });
    const reply = (body: unknown): FakeReply => (stream ? { sse: chatCompletionChunks(body) } : { json: body });
    return started(startFakeProvider({ "/v1/chat/completions": [reply(first), reply(second)] }));
  }

  async function started(starting: Promise<FakeProviderServer>): Promise<FakeProviderServer> {
    const server = await starting;
    servers.push(server);
    return server;
  }

  function expectReadRoundTrip(server: FakeProviderServer): void {
    expect(server.requests).toHaveLength(2);
    const [request1, request2] = server.requests;
    expect(request1?.body.model).toBe("test-model");
    expect(request1?.body.messages.at(-1)).toEqual({ role: "user", content: "What does a.txt say?" });
    expect(request1?.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toContain("read");
    // the second request carries the assistant's call and the tool's result for it
    const messages = request2?.body.messages;
    expect(messages.at(-2)).toMatchObject({
      role: "assistant",
      tool_calls: [{ id: "call_read_1", function: { name: "read", arguments: '{"path":"a.txt"}' } }],
    });
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_read_1", content: "     1\thello from a" });
  }

  it("--model openai:test-model --base-url: the model calls read, the result goes back, the run completes", async () => {
    const server = await startServer();
    const { code, stdout, stderr } = await run([
      "--model",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "What does a.txt say?",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expectReadRoundTrip(server);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer unused"); // no key anywhere: a placeholder
    expect(stdout).toContain('call   read {"path":"a.txt"}');
    expect(stdout).toContain("model  The file says hello.");
    expect(stdout).toContain("■ completed after 2 turns, 164 input and 102 output tokens");
  });

  it("--stream streams through a pipe and prints the same lines as a run that does not stream", async () => {
    const args = (server: FakeProviderServer) => [
      "--model",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "What does a.txt say?",
    ];
    const streamedServer = await startServer(true);
    const plainServer = await startServer();
    const streamed = await run(["--stream", ...args(streamedServer)]);
    const plain = await run(args(plainServer));
    expect(streamed.code).toBe(0);
    expect(streamedServer.requests[0]?.body.stream).toBe(true);
    expect(plainServer.requests[0]?.body.stream).toBeUndefined();
    expectReadRoundTrip(streamedServer);
    const steady = (stdout: string) => stdout.replace(/\d+\.\d ms/g, "N ms").replace(/127\.0\.0\.1:\d+/g, "HOST");
    expect(steady(streamed.stdout)).toBe(steady(plain.stdout));
    expect(streamed.stdout).toContain("model  The file says hello.\n");
  });

  it("OPENAI_BASE_URL and OPENAI_MODEL instead of flags, with OPENAI_API_KEY sent as the bearer", async () => {
    const server = await startServer();
    const { code, stdout } = await run(["What does a.txt say?"], {
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_MODEL: "test-model",
      OPENAI_API_KEY: "sk-local-test",
    });
    expect(code).toBe(0);
    expect(stdout).toContain("model openai:test-model");
    expectReadRoundTrip(server);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-local-test");
  });

  it("--temperature and --reasoning reach the request body as temperature and reasoning_effort", async () => {
    const server = await startServer();
    const { code } = await run([
      "--model",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--temperature",
      "0.2",
      "--reasoning",
      "low",
      "What does a.txt say?",
    ]);
    expect(code).toBe(0);
    expectReadRoundTrip(server);
    for (const request of server.requests) {
      expect(request.body).toMatchObject({ temperature: 0.2, reasoning_effort: "low" });
    }
  });

  it("a temperature the provider refuses, or one that is not a number, is a usage error before any request", async () => {
    const server = await startServer();
    const model = ["--model", "openai:test-model", "--base-url", `${server.url}/v1`];
    const outOfRange = await run([...model, "--temperature", "3", "hi"]);
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toContain("temperature must be a number from 0 to 2, got 3");
    const notANumber = await run([...model, "--temperature", "warm", "hi"]);
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toContain("--temperature must be a number, got warm");
    const level = await run([...model, "--reasoning", "max", "hi"]);
    expect(level.code).toBe(2);
    expect(level.stderr).toContain("Allowed choices are low, medium, high");
    expect(server.requests).toHaveLength(0);
  });

  it("a server that fails ends the run with model_error, exit 1, naming the status", async () => {
    const server = await started(
      startFakeProvider({
        "/v1/chat/completions": [{ status: 400, json: { error: { message: "model not loaded", type: "invalid" } } }],
      }),
    );
    const { code, stdout } = await run([
      "--model",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "What does a.txt say?",
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain("400");
    expect(stdout).toContain("■ model_error after 1 turn");
  });
});

describe.concurrent("toolwire run against a loopback Gemini server", { timeout: 60_000 }, () => {
  const servers: FakeProviderServer[] = [];
  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it("--model gemini:test-model --base-url: the model calls read, the result goes back, the run completes", async () => {
    const { response } = readProviderFixture("gemini.function-call-response.json");
    const call = structuredClone(response);
    call.candidates[0].content.parts = [
      { functionCall: { name: "read", args: { path: "a.txt" } }, thoughtSignature: "c2ln" },
    ];
    const answer = {
      candidates: [{ index: 0, finishReason: "STOP", content: { role: "model", parts: [{ text: "It says hello." }] } }],
      usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 6, totalTokenCount: 56 },
    };
    const server = await startFakeProvider({
      "/v1beta/models/test-model:generateContent": [{ json: call }, { json: answer }],
    });
    servers.push(server);
    const { code, stdout, stderr } = await run([
      "--model",
      "gemini:test-model",
      "--base-url",
      server.url,
      "What does a.txt say?",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain('call   read {"path":"a.txt"}');
    expect(stdout).toContain("model  It says hello.");
    expect(stdout).toContain("■ completed after 2 turns, 79 input and 21 output tokens");
    expect(server.requests[0]?.headers["x-goog-api-key"]).toBeUndefined(); // no key anywhere: none sent
    const contents = server.requests[1]?.body.contents;
    expect(contents.at(-2)).toEqual(call.candidates[0].content);
    expect(contents.at(-1)).toEqual({
      role: "user",
      parts: [{ functionResponse: { name: "read", response: { output: "     1\thello from a" } } }],
    });
  });
});

describe.concurrent("toolwire run with deferred tools against a loopback Responses server", { timeout: 60_000 }, () => {
  let deferring: { path: string; remove(): Promise<void> };
  beforeAll(async () => {
    deferring = await tempWorkspace({ "toolwire.config.json": JSON.stringify({ defer: ["grep"] }) });
  });
  afterAll(() => deferring.remove());

  /** One run against a server that answers with text at once; the tools of the request it got. */
  async function toolsSent(flags: string[]): Promise<Record<string, unknown>[]> {
    const answer = readProviderFixture("openai-responses.function-call-response.json").response;
    answer.output = [
      {
        type: "message",
        id: "msg_1",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "Done.", annotations: [] }],
      },
    ];
    const server = await startFakeProvider({ "/v1/responses": [{ json: answer }] });
    try {
      const { code, stderr } = await runCli(
        ["run", "--model", "openai-responses:test-model", "--base-url", `${server.url}/v1`, ...flags, "hi"],
        { cwd: deferring.path, env: cliEnv() },
      );
      expect(stderr).toBe("");
      expect(code).toBe(0);
      return server.requests[0]?.body.tools as Record<string, unknown>[];
    } finally {
      await server.close();
    }
  }

  it("sends tool_search as a function tool and leaves the deferred tool out, by default", async () => {
    const tools = await toolsSent([]);
    expect(tools.map((tool) => tool.name)).toContain("tool_search");
    expect(tools.map((tool) => tool.name)).not.toContain("grep");
    expect(tools.every((tool) => tool.type === "function" && tool.defer_loading === undefined)).toBe(true);
  });

  it("--native-tool-search sends the client tool_search tool and the deferred tool with defer_loading", async () => {
    const tools = await toolsSent(["--native-tool-search"]);
    expect(tools).toContainEqual(expect.objectContaining({ type: "tool_search", execution: "client" }));
    expect(tools).toContainEqual(expect.objectContaining({ type: "function", name: "grep", defer_loading: true }));
    expect(tools.filter((tool) => tool.name === "tool_search")).toEqual([]);
  });
});

describe.concurrent("the demo task: run without a prompt, and demo --json", { timeout: 60_000 }, () => {
  const demoScript = resolve(import.meta.dirname, "..", "..", "examples", "demo-script.json");

  it("runs in a temporary copy of the sample workspace and removes it afterwards; --keep keeps it", async () => {
    const removed = await runCli(["run", "--model", `scripted:${demoScript}`], {
      cwd: workspace.path,
      timeoutMs: 50_000,
    });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("■ completed after 6 turns");
    const copy = /workspace (\S+)\n/.exec(removed.stdout)?.[1] ?? "";
    expect(copy).toMatch(/toolwire-demo-/);
    expect(existsSync(copy)).toBe(false);

    const kept = await runCli(["run", "--model", `scripted:${demoScript}`, "--keep"], {
      cwd: workspace.path,
      timeoutMs: 50_000,
    });
    expect(kept.code).toBe(0);
    const keptCopy = /The workspace is kept at (\S+)\n/.exec(kept.stdout)?.[1] ?? "";
    try {
      expect(await readFile(`${keptCopy}/src/cart.js`, "utf8")).toContain("item.priceCents * item.quantity");
    } finally {
      await rm(keptCopy, { recursive: true, force: true });
    }
  }, 120_000);

  it("demo --json prints one JSON event per line and exits 0", async () => {
    const { code, stdout } = await runCli(["demo", "--json"], {
      cwd: resolve(import.meta.dirname, "..", ".."),
      timeoutMs: 50_000,
    });
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.filter((event) => event.type === "tool_call").map((event) => event.call.name)).toEqual([
      "bash",
      "grep",
      "ls",
      "read",
      "edit",
      "bash",
    ]);
    // the tests fail first (bash exits 1), then every step works
    expect(
      events.filter((event) => event.type === "tool_result").map((event) => event.result.is_error === true),
    ).toEqual([true, false, false, false, false, false]);
    expect(events.at(-1)).toMatchObject({ type: "done", reason: "completed", turns: 6 });
  }, 60_000);
});
