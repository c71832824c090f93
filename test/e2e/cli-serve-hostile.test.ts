// toolwire serve keeps serving when a plugin tool returns or throws hostile values: each call gets an error result.
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, tempWorkspace } from "./helpers/cli.js";
import { serveUrlOf } from "./helpers/serve-url.js";

const PLUGIN = `
const revoked = () => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; };
const cyclic = () => { const details = {}; details.self = details; return { content: [{ type: "text", text: "x" }], details }; };
const getter = () => Object.defineProperty({}, "content", { enumerable: true, get() { throw new Error("getter"); } });
const make = (defineTool, name, execute) =>
  defineTool({ name, description: name, inputSchema: { type: "object" }, execute });
export default {
  id: "hostile",
  tools: ({ defineTool }) => [
    make(defineTool, "getter", () => getter()),
    make(defineTool, "revoked", () => revoked()),
    make(defineTool, "cyclic", () => cyclic()),
    make(defineTool, "bigint", () => ({ content: [], details: { n: 10n } })),
    make(defineTool, "symbol", () => Symbol("s")),
    make(defineTool, "throws_revoked", () => { throw revoked(); }),
    make(defineTool, "fine", () => "still here"),
  ],
};
`;

let project: { path: string; remove(): Promise<void> };
let child: ChildProcess | undefined;
beforeAll(async () => {
  project = await tempWorkspace({
    "plugins/hostile.mjs": PLUGIN,
    "toolwire.config.json": JSON.stringify({
      builtins: { enabled: false },
      plugins: [{ module: "./plugins/hostile.mjs" }],
    }),
  });
});
afterAll(async () => {
  if (child?.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await project.remove();
});

describe("toolwire serve with hostile plugin tools", () => {
  it("answers every hostile call with an error result and keeps serving", async () => {
    const server = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
      cwd: project.path,
      env: cliEnv({ TOOLWIRE_SERVE_TOKEN: "hostile-test-token" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = server;
    const url = await serveUrlOf(server);
    const client = new Client({ name: "hostile-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: "Bearer hostile-test-token" } },
      }),
    );
    const hostile = ["getter", "revoked", "cyclic", "bigint", "symbol", "throws_revoked"];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(hostile.map((name) => client.callTool({ name, arguments: {} })));
      for (const answer of answers) expect(answer.isError).toBe(true);
    }
    const fine = await client.callTool({ name: "fine", arguments: {} });
    expect(fine.content).toEqual([{ type: "text", text: "still here" }]);
    await client.close();
    expect(server.exitCode).toBeNull();
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
