// Benchmark: deferred tools (docs/deferred-tools.md). The tools payload of each model request with and without deferral, over the
// built-ins and six real MCP servers, and how well tool_search finds the tool a request needs.
// Run: npm run bench:defer   (targets: at least 80% fewer tools payload bytes per turn; recall@5 of 0.9 or more)
// The servers run offline over stdio, bridged by toolwire itself (dist/mcp) with a minimal environment. Payload bytes
// are the UTF-8 length of the JSON of each adapter's formatTools; tokens are estimateToolTokens, the same for every
// provider. A "turn" after a search is the request that follows one tool_search call (default limit, so up to five
// tools join); its figures are averaged over the labelled requests of bench/fixtures/tool-search-queries.json.
import { realpathSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBuiltinTools } from "../dist/builtins/index.js";
import { createAgentSession, createToolRegistry, estimateToolTokens, TOOL_SEARCH_NAME } from "../dist/index.js";
import { connectMcpServer } from "../dist/mcp/index.js";
import { anthropic, openaiChat } from "../dist/providers/index.js";
import { median } from "./lib/figures.js";

const BUDGET_TOKENS = Number(process.env.BUDGET_TOKENS ?? 4000);
const TURNS = 10;

/** A dev dependency's bin script (node_modules/.bin), run with this Node: no shell, no npx. */
const bin = (name) => realpathSync(fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url)));

const root = await mkdtemp(join(tmpdir(), "toolwire-bench-defer-"));
const env = { PATH: process.env.PATH ?? "" };
const node = process.execPath;
const SERVERS = [
  {
    id: "filesystem",
    command: node,
    args: [bin("mcp-server-filesystem"), root],
    env,
  },
  { id: "everything", command: node, args: [bin("mcp-server-everything"), "stdio"], env },
  {
    id: "memory",
    command: node,
    args: [bin("mcp-server-memory")],
    env: { ...env, MEMORY_FILE_PATH: join(root, "memory.jsonl") },
  },
  {
    id: "thinking",
    command: node,
    args: [bin("mcp-server-sequential-thinking")],
    env,
  },
  { id: "git", command: node, args: [bin("git-mcp-server")], env },
  { id: "playwright", command: node, args: [bin("playwright-mcp")], env },
];

const connections = await Promise.all(
  SERVERS.map((server) => connectMcpServer(server, { connectTimeoutMs: 60_000, timeoutMs: 60_000 })),
);
const builtins = createBuiltinTools({ root });
const { queries } = JSON.parse(await readFile(new URL("./fixtures/tool-search-queries.json", import.meta.url), "utf8"));

function sessionWith(options) {
  return createAgentSession({
    registry: createToolRegistry({ builtins, extensions: connections, ...options }),
  });
}

const bytes = (value) => Buffer.byteLength(JSON.stringify(value), "utf8");
function payload(tools) {
  return {
    tools: tools.length,
    anthropic: bytes(anthropic.formatTools(tools)),
    openaiChat: bytes(openaiChat.formatTools(tools)),
    tokens: tools.reduce((sum, tool) => sum + estimateToolTokens(tool), 0),
  };
}
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
const search = (session, query, limit) =>
  session.dispatchDetailed({
    id: "bench",
    name: TOOL_SEARCH_NAME,
    input: limit === undefined ? { query } : { query, limit },
  });

const everything = sessionWith({});
const known = new Set(everything.activeToolNames);
const unknown = queries.filter((entry) => !known.has(entry.tool));
if (unknown.length > 0) throw new Error(`labelled tools missing: ${unknown.map((entry) => entry.tool).join(", ")}`);
console.log(
  `${everything.activeToolNames.length} tools: ${builtins.length} built-ins and ${connections.map((c) => `${c.tools.length} ${c.serverId}`).join(", ")}; ${queries.length} labelled requests\n`,
);

// ------------------------------------------------------------------ payload per turn
const scenarios = [
  ["every tool up front (no deferral)", {}],
  ['defer: ["group:mcp"]', { defer: ["group:mcp"] }],
  [`deferBudgetTokens: ${BUDGET_TOKENS}`, { deferBudgetTokens: BUDGET_TOKENS }],
];
const rows = [];
for (const [label, options] of scenarios) {
  const first = payload(sessionWith(options).modelTools);
  const after = [];
  const resultTokens = [];
  for (const { query } of queries) {
    const session = sessionWith(options);
    if (session.deferredToolNames.length === 0) {
      after.push(first);
      continue;
    }
    const outcome = await search(session, query);
    resultTokens.push(Math.ceil(outcome.block.content.map((block) => block.text ?? "").join("").length / 4));
    after.push(payload(session.modelTools));
  }
  const later = {
    tools: mean(after.map((entry) => entry.tools)),
    anthropic: mean(after.map((entry) => entry.anthropic)),
    openaiChat: mean(after.map((entry) => entry.openaiChat)),
    tokens: mean(after.map((entry) => entry.tokens)),
  };
  rows.push({ label, first, later, searchResultTokens: resultTokens.length === 0 ? 0 : mean(resultTokens) });
}
const base = rows[0];
const fewer = (value, reference) => `${(100 * (1 - value / reference)).toFixed(1)}%`;
const round = (value) => Math.round(value).toLocaleString("en-US");
console.log("#### Tools payload per request (bytes of the JSON each adapter sends; tokens estimated)\n");
console.log(
  "| setup | request | tools | Anthropic bytes | OpenAI Chat bytes | est. tokens | fewer bytes (Anthropic) |",
);
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) {
  for (const [turn, figures, reference] of [
    ["turn 1", row.first, base.first],
    ["after one search (mean)", row.later, base.later],
  ]) {
    console.log(
      `| ${row.label} | ${turn} | ${figures.tools.toFixed(figures.tools % 1 === 0 ? 0 : 1)} | ${round(figures.anthropic)} | ${round(figures.openaiChat)} | ${round(figures.tokens)} | ${row === base ? "" : fewer(figures.anthropic, reference.anthropic)} |`,
    );
  }
}
console.log(`\n#### A ${TURNS}-turn task with one search in its first turn: tools payload over all its requests\n`);
console.log(
  "| setup | Anthropic bytes | OpenAI Chat bytes | est. tokens | search result tokens | fewer tokens, results included |",
);
console.log("|---|---|---|---|---|---|");
const task = (row, key) => row.first[key] + (TURNS - 1) * row.later[key];
for (const row of rows) {
  const tokens = task(row, "tokens") + row.searchResultTokens;
  console.log(
    `| ${row.label} | ${round(task(row, "anthropic"))} | ${round(task(row, "openaiChat"))} | ${round(task(row, "tokens"))} | ${round(row.searchResultTokens)} | ${row === base ? "" : fewer(tokens, task(base, "tokens"))} |`,
  );
}

// ------------------------------------------------------------------ search quality
const session = sessionWith({ defer: ["group:mcp"] });
const deferredCount = session.deferredToolNames.length;
const started = performance.now();
await search(session, "warm up: the first search builds the index");
const firstSearchMs = performance.now() - started;
let atOne = 0;
let atFive = 0;
let reciprocal = 0;
const times = [];
const misses = [];
for (const { query, tool } of queries) {
  const start = performance.now();
  const outcome = await search(session, query, 5);
  times.push(performance.now() - start);
  const found = outcome.result.details?.tools ?? [];
  const rank = found.indexOf(tool);
  if (rank === 0) atOne++;
  if (rank >= 0) {
    atFive++;
    reciprocal += 1 / (rank + 1);
  }
  if (rank !== 0) misses.push({ query, tool, rank: rank < 0 ? "not in 5" : rank + 1, top: found.slice(0, 3) });
}
console.log(`\n#### tool_search over the ${deferredCount} deferred MCP tools, ${queries.length} labelled requests\n`);
console.log("| recall@1 | recall@5 | MRR@5 | first search (builds the index) | search, median |");
console.log("|---|---|---|---|---|");
console.log(
  `| ${(atOne / queries.length).toFixed(3)} | ${(atFive / queries.length).toFixed(3)} | ${(reciprocal / queries.length).toFixed(3)} | ${firstSearchMs.toFixed(1)} ms | ${median(times).toFixed(2)} ms |`,
);
console.log("\nNot ranked first:");
for (const miss of misses) {
  console.log(`- "${miss.query}" -> ${miss.tool} at ${miss.rank}; top: ${miss.top.join(", ") || "none"}`);
}

await Promise.allSettled(connections.map((connection) => connection.close()));
await rm(root, { recursive: true, force: true });
