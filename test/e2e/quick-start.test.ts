// docs/quick-start.md as a newcomer follows it: the install, the config, plan, run against a model, the program.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerProject, createConsumerProject } from "../support/consumer-project.js";
import { type DocBlock, readDocBlocks } from "../support/doc-blocks.js";
import { type FakeProviderServer, startFakeProvider } from "../support/fake-provider-server.js";
import { openAIChatToolRound } from "../support/provider-fixtures.js";
import { runToEnd } from "../support/run-to-end.js";
import { cliEnv } from "./helpers/cli.js";

const PAGE = "docs/quick-start.md";
const blocks = readDocBlocks(PAGE);
const ranHere = blocks.filter(
  (block) => block.marker.kind === "runs" && block.marker.test === "test/e2e/quick-start.test.ts",
);
const files = Object.fromEntries(
  ranHere.flatMap((block) => (block.marker.kind === "runs" && block.marker.as ? [[block.marker.as, block.code]] : [])),
);
/** The command lines of the page's shell blocks this test runs, without comments and `export` lines. */
const commands = ranHere
  .filter((block) => block.lang === "sh")
  .flatMap((block) => block.code.split("\n"))
  .map((line) => line.replace(/\s+#.*$/, "").trim())
  .filter((line) => line !== "" && !line.startsWith("export "));
const command = (start: string) => {
  const line = commands.find((entry) => entry.startsWith(start));
  if (line === undefined) throw new Error(`${PAGE} has no command starting with ${start}`);
  return line;
};

/** The packages the install block names, and what `npx -y` fetches for the config's server. */
function installedPackages(install: DocBlock | undefined): string[] {
  const names = (install?.code ?? "")
    .split("\n")
    .map((line) => line.replace(/#.*$/, ""))
    .flatMap((line) => /\bnpm install (.*)/.exec(line)?.[1]?.trim().split(/\s+/) ?? []);
  return [...names, "openai", "@modelcontextprotocol/server-filesystem"];
}

let project: ConsumerProject;
let server: FakeProviderServer;
beforeAll(async () => {
  project = await createConsumerProject({
    packages: installedPackages(blocks.find((block) => block.lang === "sh" && block.code.includes("npm install"))),
    files: {
      ...files,
      "package.json": `${JSON.stringify({ name: "my-agent", version: "1.0.0", type: "module" }, null, 2)}\n`,
    },
  });
  // An OpenAI-compatible server on loopback: the model lists the folder through the MCP server, then answers.
  const [call, answer] = openAIChatToolRound({
    call: { id: "call_1", name: "fs__read_text_file", arguments: '{"path":"package.json"}' },
    answer: "The name is my-agent.",
  });
  server = await startFakeProvider({ "/v1/chat/completions": [{ json: call }, { json: answer }] });
});
afterAll(async () => {
  await server?.close();
  await project?.remove();
});

/** Runs one line of the page with sh in the project, offline, with no model key but those given. */
function shell(line: string, env: Record<string, string> = {}) {
  return runToEnd("sh", ["-c", line], {
    cwd: project.path,
    env: cliEnv({ npm_config_offline: "true", npm_config_update_notifier: "false", ...env }),
    timeoutMs: 60_000,
    what: line,
  });
}

describe.concurrent("docs/quick-start.md, followed as written", { timeout: 90_000 }, () => {
  it("every block is run here or marked", () => {
    expect(Object.keys(files).sort()).toEqual(["agent.js", "toolwire.config.json", "turns.json"]);
    expect(blocks.filter((block) => block.marker.kind === "none")).toEqual([]);
  });

  it("npx toolwire plan lists the MCP server's tools beside the built-ins, read from the object form", async () => {
    const { code, stdout, stderr } = await shell(command("npx toolwire plan"));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain("mcpServers: object form");
    expect(stdout).toMatch(/fs__read_text_file\s+mcp:fs/);
    expect(stdout).toMatch(/\nread\s+core/);
  });

  it("npx toolwire run with a key asks the model, the MCP tool's result goes back, the run completes", async () => {
    const line = command('npx toolwire run "');
    const { code, stdout } = await shell(line, { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${server.url}/v1` });
    expect(stdout).toContain('call   fs__read_text_file {"path":"package.json"}');
    expect(stdout).toContain("model  The name is my-agent.");
    expect(stdout).toContain("■ completed after 2 turns");
    expect(code).toBe(0);
    const result = server.requests[1]?.body.messages.at(-1);
    expect(result).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(JSON.stringify(result.content)).toContain("my-agent");
  });

  it("npx toolwire run --model scripted:turns.json completes with no key and no network", async () => {
    const { code, stdout } = await shell(command("npx toolwire run --model scripted:"));
    expect(stdout).toContain("model  The package is my-agent.");
    expect(stdout).toContain("■ completed after 2 turns");
    expect(code).toBe(0);
  });

  it("node agent.js without a key runs the scripted model and prints what the page shows", async () => {
    const { code, stdout, stderr } = await shell("node agent.js");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const shown = (files["agent.js"] as string)
      .split("\n")
      .filter((line) => /^\/\/ (model|call|done):/.test(line))
      .map((line) => line.slice(3));
    expect(shown.length).toBe(4);
    expect(stdout.trim().split("\n")).toEqual(shown);
  });

  it("node agent.js with OPENAI_API_KEY asks that model, and the read's result goes back to it", async () => {
    const [call, answer] = openAIChatToolRound({
      call: { id: "call_1", name: "read", arguments: '{"path":"package.json"}' },
      answer: "It is my-agent.",
    });
    const model = await startFakeProvider({ "/v1/chat/completions": [{ json: call }, { json: answer }] });
    try {
      const { code, stdout } = await shell("node agent.js", {
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: `${model.url}/v1`,
      });
      expect(stdout).toContain('call: read {"path":"package.json"}');
      expect(stdout).toContain("model: It is my-agent.");
      expect(stdout).toContain("done: completed after 2 turns");
      expect(code).toBe(0);
      expect(model.requests[0]?.body.model).toBe("gpt-4.1");
      expect(model.requests[1]?.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_1" });
      expect(model.requests[1]?.body.messages.at(-1).content).toContain('"name": "my-agent"');
    } finally {
      await model.close();
    }
  });
});
