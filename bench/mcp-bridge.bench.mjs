// Benchmark: one MCP tool call through the bridge against a direct SDK client.callTool on server-everything (stdio).
// Run: npm run bench:mcp   (the bridge should add under 5%)
//      npm run bench:mcp -- --cpu [--baseline DIR]... [--rounds N]   (the client's CPU per call, interleaved: the
//      v2 client's callTool direct, this build's bridge, and the bridge of each other build whose dist/ is in a DIR)
// Calls of the paths are interleaved, so machine load hits them alike. Over HTTP all clients share one server
// process (the toolwire gateway serving server-everything's echo); over stdio each path has its own fresh process
// per round, and the median over rounds evens out the speed differences between server processes.
import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { bench, do_not_optimize, run, summary } from "mitata";
import * as current from "../dist/index.js";
import { mapCallToolResult } from "../dist/mcp/client/map-result.js";
import * as currentMcp from "../dist/mcp/index.js";
import { flag } from "./lib/args.js";
import { median } from "./lib/figures.js";

const { createAgentSession, createToolRegistry } = current;
const { connectMcpServer } = currentMcp;

const require = createRequire(import.meta.url);
const everything = join(
  dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")),
  "dist",
  "index.js",
);
const env = { PATH: process.env.PATH ?? "" };
const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
const ROUNDS = Number(flag("--rounds") ?? process.env.ROUNDS ?? 5);
const CALLS = Number(process.env.CALLS ?? 1000);
const WARMUP = 200;
const input = { message: "hello" };
const freshContext = () => ({ toolCallId: "bench", signal: new AbortController().signal, onUpdate() {} });
let id = 0;

/**
 * A bridged connection and a direct SDK client. "stdio": each on its own fresh server-everything process.
 * "http": both on one server process, `toolwire serve --http` on loopback serving
 * server-everything's echo, so the two paths differ only by the bridge.
 */
async function start(mode) {
  let gateway;
  let url;
  if (mode === "http") {
    const folder = await mkdtemp(join(tmpdir(), "toolwire-bench-"));
    const config = join(folder, "toolwire.config.json");
    const server = { id: "everything", command: process.execPath, args: [everything, "stdio"], env, include: ["echo"] };
    await writeFile(config, JSON.stringify({ builtins: { enabled: false }, mcpServers: [server] }));
    gateway = spawn(process.execPath, [cli, "serve", "--http", "0", "--no-auth", "--config", config], {
      cwd: folder,
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise((resolve, reject) => {
      let text = "";
      gateway.stderr.on("data", (chunk) => {
        text += chunk;
        const match = / at (http:\/\/\S+\/mcp)/.exec(text);
        if (match) resolve(match[1]);
      });
      gateway.once("exit", (code) => reject(new Error(`gateway exited with ${code}: ${text}`)));
    });
  }
  const toolName = mode === "http" ? "everything__echo" : "echo";
  const bridgedName = `gw__${toolName}`;
  const stdio = { id: "gw", command: process.execPath, args: [everything, "stdio"], env };
  // Over stdio every path gets its own server process: a process that just answered is quicker to answer again,
  // so paths sharing one would be favoured by the order of the interleaving.
  const bridge = async () => connectMcpServer(mode === "http" ? { id: "gw", url } : stdio);
  const direct = async () => {
    const client = new Client({ name: "bench", version: "1.0.0" });
    await client.connect(
      mode === "http"
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StdioClientTransport({ command: process.execPath, args: [everything, "stdio"], env, stderr: "ignore" }),
    );
    return client;
  };
  const [plain, requester, withOptions, executeConnection, dispatchConnection] = await Promise.all([
    direct(),
    direct(),
    direct(),
    bridge(),
    bridge(),
  ]);
  const tool = executeConnection.tools.find((candidate) => candidate.descriptor.name === bridgedName);
  const session = createAgentSession({ registry: createToolRegistry({ extensions: [dispatchConnection] }) });
  const paths = {
    "direct client.callTool": () => plain.callTool({ name: toolName, arguments: input }),
    "direct client.request": () =>
      requester.request({ method: "tools/call", params: { name: toolName, arguments: input } }, CallToolResultSchema),
    // The same request options the bridge uses: a per-call signal, progress, timeout reset on progress.
    "direct callTool, bridge's options": () =>
      withOptions.callTool({ name: toolName, arguments: input }, undefined, {
        signal: new AbortController().signal,
        timeout: 60_000,
        resetTimeoutOnProgress: true,
        onprogress() {},
      }),
    // A fresh context per call, as the session gives every call.
    "bridge tool.execute": () => tool.execute(input, freshContext()),
    "session.dispatch via bridge": () => session.dispatch({ id: `b${++id}`, name: bridgedName, input }),
  };
  return {
    paths,
    client: plain,
    async stop() {
      await Promise.all([plain, requester, withOptions].map((client) => client.close()));
      await Promise.all([executeConnection, dispatchConnection].map((connection) => connection.close()));
      gateway?.kill();
    },
  };
}

/**
 * The client's CPU per call (process.cpuUsage: every thread of this process, none of the servers'), over stdio:
 * the v2 client's `callTool` direct (what the bridge is built on), and per build the bridged tool's `execute` and
 * `session.dispatch` of it, each path on its own fresh server process every round. A round runs blocks of `BLOCK`
 * calls per path, the paths' order rotating from block to block; a path's figure in a round is the median of its
 * blocks, and the ratios are taken within each round.
 */
async function cpuRounds(baselineDirs) {
  const BLOCK = 50;
  const BLOCKS = Number(flag("--blocks") ?? 40);
  const builds = [["this build", current, currentMcp]];
  for (const dir of baselineDirs) {
    const load = (path) => import(pathToFileURL(resolve(dir, "dist", path)).href);
    builds.push([`${basename(resolve(dir))} build`, await load("index.js"), await load("mcp/index.js")]);
  }
  const stdio = { id: "gw", command: process.execPath, args: [everything, "stdio"], env };
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    const open = [];
    const v2 = new ClientV2({ name: "bench", version: "1.0.0" });
    await v2.connect(
      new StdioClientTransportV2({ command: process.execPath, args: [everything, "stdio"], env, stderr: "ignore" }),
    );
    open.push(v2);
    const paths = { "v2 callTool": () => v2.callTool({ name: "echo", arguments: input }) };
    for (const [name, api, mcp] of builds) {
      const [forExecute, forDispatch] = await Promise.all([mcp.connectMcpServer(stdio), mcp.connectMcpServer(stdio)]);
      const tool = forExecute.tools.find((candidate) => candidate.descriptor.name === "gw__echo");
      const session = api.createAgentSession({ registry: api.createToolRegistry({ extensions: [forDispatch] }) });
      open.push(session, forExecute, forDispatch);
      paths[`${name}, execute`] = () => tool.execute(input, freshContext());
      paths[`${name}, dispatch`] = () => session.dispatch({ id: `b${++id}`, name: "gw__echo", input });
    }
    const names = Object.keys(paths);
    for (let index = 0; index < WARMUP; index++) for (const name of names) await paths[name]();
    const samples = Object.fromEntries(names.map((name) => [name, []]));
    for (let block = 0; block < BLOCKS; block++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(block + k) % names.length];
        const fn = paths[name];
        const start = process.cpuUsage();
        for (let call = 0; call < BLOCK; call++) await fn();
        const used = process.cpuUsage(start);
        samples[name].push((used.user + used.system) / BLOCK);
      }
    }
    for (const each of open.reverse()) await each.close();
    rows.push(Object.fromEntries(names.map((name) => [name, median(samples[name])])));
  }
  const names = Object.keys(rows[0]);
  const spread = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  const cell = (values) => `${median(values).toFixed(2)}x (${spread(values)})`;
  console.log(`\nclient CPU per call over stdio, ${ROUNDS} rounds x ${BLOCKS} blocks of ${BLOCK} calls per path`);
  console.log("ratios taken within each round: median (lowest-highest)\n");
  console.log("| path | µs per call | over v2 callTool | this build over it |");
  console.log("|---|---:|---:|---:|");
  for (const name of names) {
    const per = rows.map((row) => row[name]);
    const overV2 = cell(rows.map((row) => row[name] / row["v2 callTool"]));
    const ours = name.replace(/^.* build, /, "this build, ");
    const overThis = ours === name || !(ours in rows[0]) ? "" : cell(rows.map((row) => row[ours] / row[name]));
    console.log(`| ${name} | ${median(per).toFixed(1)} (${spread(per)}) | ${overV2} | ${overThis} |`);
  }
}

if (process.argv.includes("--cpu")) {
  await cpuRounds(process.argv.flatMap((arg, at) => (process.argv[at - 1] === "--baseline" ? [arg] : [])));
  process.exit(0);
}

// 1. mitata, one round over stdio, for the distribution of each path.
{
  const { paths, client, stop } = await start("stdio");
  const sample = await client.callTool({ name: "echo", arguments: input });
  const where = { serverId: "everything", toolName: "echo" };
  summary(() => {
    for (const [name, fn] of Object.entries(paths)) {
      bench(name, async () => do_not_optimize(await fn()));
    }
    bench("mapCallToolResult alone", () => do_not_optimize(mapCallToolResult(sample, where)));
  });
  await run();
  await stop();
}

// 2. Interleaved rounds on fresh processes.
const pct = (value) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)}%`;

async function rounds(mode) {
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { paths, stop } = await start(mode);
    const names = Object.keys(paths);
    const samples = Object.fromEntries(names.map((name) => [name, []]));
    for (let index = 0; index < WARMUP + CALLS; index++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(index + k) % names.length]; // rotate the order every iteration
        const started = performance.now();
        await paths[name]();
        if (index >= WARMUP) samples[name].push(performance.now() - started);
      }
    }
    await stop();
    rows.push(Object.fromEntries(names.map((name) => [name, median(samples[name]) * 1000])));
  }
  console.log(`\n${mode}: ${ROUNDS} rounds x ${CALLS} interleaved calls per path, median µs per call`);
  console.log("round | callTool | request | callTool, bridge's options | bridge | dispatch | bridge vs callTool");
  rows.forEach((row, index) => {
    const [d, r, o, b, t] = Object.values(row);
    const cells = [d, r, o, b, t].map((value) => value.toFixed(1)).join(" | ");
    console.log(`${index + 1} | ${cells} | ${pct(b / d - 1)}`);
  });
  const ratio = (name) => median(rows.map((row) => row[name] / row["direct client.callTool"] - 1));
  console.log(`median over rounds, vs direct client.callTool:`);
  console.log(`  bridge tool.execute          ${pct(ratio("bridge tool.execute"))}`);
  console.log(`  session.dispatch via bridge  ${pct(ratio("session.dispatch via bridge"))}`);
  console.log(`  direct client.request        ${pct(ratio("direct client.request"))}`);
  console.log(`  callTool, bridge's options   ${pct(ratio("direct callTool, bridge's options"))}`);
  const own = median(rows.map((row) => row["bridge tool.execute"] / row["direct callTool, bridge's options"] - 1));
  console.log(`  bridge vs callTool with the bridge's options: ${pct(own)}`);
}

await rounds("http");
await rounds("stdio");
