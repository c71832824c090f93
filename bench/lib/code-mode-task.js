// The code-mode benchmark's task: about 40 tools (the built-ins, captured MCP listings, a data tool of 300 orders),
// the workspace it runs in, and the same job written as model turns (direct calls) and as one program (code mode).
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const MONTH = "2026-12";
export const THRESHOLD = 3000;
export const ORDER_COUNT = 300;
const CUSTOMER_COUNT = 40;

export const PROMPT =
  `Find the customers whose orders in ${MONTH} add up to more than ${THRESHOLD} EUR, read each one's notes file ` +
  "(notes/<customer id>.md), record them in the knowledge graph, and write a short summary to summary.md.";
export const SYSTEM_PROMPT =
  "You are a careful operations assistant. Use the tools to do the task, then say what you did.";
export const FINAL_TEXT = "Done: the customers over the threshold are in the knowledge graph and summary.md.";

/** A small deterministic generator, so every run sees the same orders. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const FIRST = ["Ada", "Ben", "Chloe", "Dario", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas"];
const LAST = ["Novak", "Okafor", "Larsen", "Moreau", "Quinn", "Sato", "Weber", "Costa"];
const SKUS = [
  "desk-oak",
  "lamp-brass",
  "chair-mesh",
  "shelf-pine",
  "rug-wool",
  "mug-stone",
  "cable-kit",
  "monitor-arm",
];

/** The customers: id and name. */
export const CUSTOMERS = Array.from({ length: CUSTOMER_COUNT }, (_, index) => ({
  id: `cus_${String(index + 1).padStart(3, "0")}`,
  name: `${FIRST[index % FIRST.length]} ${LAST[(index * 3) % LAST.length]}`,
}));

/** The month's 300 orders, as the data tool returns them. */
export const ORDERS = (() => {
  const random = seeded(29);
  return Array.from({ length: ORDER_COUNT }, (_, index) => {
    // A few customers order far more than the rest, so a handful cross the threshold.
    const customer = CUSTOMERS[random() < 0.2 ? Math.floor(random() * 5) : Math.floor(random() * CUSTOMER_COUNT)];
    const itemCount = 1 + Math.floor(random() * 4);
    const total = Math.round(itemCount * random() * 20000) / 100;
    return {
      id: `ord_${String(index + 1).padStart(4, "0")}`,
      customerId: customer.id,
      customerName: customer.name,
      placedAt: `${MONTH}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}T${String(8 + Math.floor(random() * 10)).padStart(2, "0")}:${String(Math.floor(random() * 60)).padStart(2, "0")}:00Z`,
      status: random() < 0.9 ? "paid" : "refunded",
      total,
      itemCount,
    };
  });
})();

/** The customers over the threshold (paid orders), largest first: what both modes must find. */
export function customersOverThreshold(orders) {
  const totals = new Map();
  for (const order of orders) {
    if (order.status !== "paid") continue;
    const entry = totals.get(order.customerId) ?? {
      id: order.customerId,
      name: order.customerName,
      total: 0,
      orders: 0,
    };
    entry.total = Math.round((entry.total + order.total) * 100) / 100;
    entry.orders += 1;
    totals.set(order.customerId, entry);
  }
  return [...totals.values()].filter((entry) => entry.total > THRESHOLD).sort((a, b) => b.total - a.total);
}

/** Writes every customer's notes file (a few hundred bytes each) under `root/notes`. */
export async function writeWorkspace(root) {
  await mkdir(join(root, "notes"), { recursive: true });
  for (const [index, customer] of CUSTOMERS.entries()) {
    const text = [
      `# ${customer.name} (${customer.id})`,
      "",
      `Account manager: ${FIRST[(index + 4) % FIRST.length]}. Segment: ${index % 3 === 0 ? "studio" : "home office"}.`,
      `Prefers delivery on ${["Mondays", "Wednesdays", "Fridays"][index % 3]}; invoices to finance@${customer.id}.example.`,
      `Last call: asked about ${SKUS[index % SKUS.length]} restock and a volume discount above 10 units.`,
      index % 2 === 0 ? "Open issue: one damaged parcel in November, replaced." : "No open issues.",
      "",
    ].join("\n");
    await writeFile(join(root, "notes", `${customer.id}.md`), text);
  }
}

const listing = (file) =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/mcp-listings/${file}`, import.meta.url), "utf8")).result.tools;

/** The captured MCP tools the task offers (31 across three servers), as `<server>__<tool>` like the bridge names them. */
export const MCP_PICK = {
  memory: { file: "mcp-tools-list.memory.json", names: "*" },
  git: {
    file: "mcp-tools-list.git.json",
    names: [
      "git_status",
      "git_log",
      "git_diff",
      "git_show",
      "git_add",
      "git_commit",
      "git_branch",
      "git_checkout",
      "git_blame",
      "git_tag",
    ],
  },
  notion: {
    file: "mcp-tools-list.notion.json",
    names: [
      "API-post-search",
      "API-retrieve-a-page",
      "API-post-page",
      "API-patch-page",
      "API-get-block-children",
      "API-patch-block-children",
      "API-retrieve-a-block",
      "API-query-data-source",
      "API-retrieve-a-data-source",
      "API-create-a-comment",
      "API-get-users",
      "API-retrieve-page-markdown",
    ],
  },
};

/**
 * The task's tools for `api` (the built package's root module): the built-ins over `builtins`, the captured MCP
 * tools defined as local tools with their listed schemas and scripted results (no server runs), and the data tool.
 */
export function taskTools(api, builtins) {
  const mcp = [];
  for (const [serverId, pick] of Object.entries(MCP_PICK)) {
    for (const tool of listing(pick.file)) {
      if (pick.names !== "*" && !pick.names.includes(tool.name)) continue;
      mcp.push(
        api.defineTool({
          name: `${serverId}__${tool.name}`,
          ...(tool.title === undefined ? {} : { title: tool.title }),
          description: tool.description ?? "",
          inputSchema: tool.inputSchema,
          ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
          ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
          owner: { kind: "mcp", serverId },
          execute: (input) => scriptedMcpResult(tool, input),
        }),
      );
    }
  }
  const orders = api.defineTool({
    name: "shop__list_orders",
    description: "Every order placed in a month, with its customer, status, total and number of items.",
    inputSchema: {
      type: "object",
      properties: { month: { type: "string", description: "The month, as YYYY-MM", pattern: "^\\d{4}-\\d{2}$" } },
      required: ["month"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        orders: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string" },
              customerId: { type: "string" },
              customerName: { type: "string" },
              placedAt: { type: "string" },
              status: { type: "string", enum: ["paid", "refunded"] },
              total: { type: "number" },
              itemCount: { type: "integer" },
            },
          },
        },
      },
    },
    owner: { kind: "mcp", serverId: "shop" },
    execute: (input) => {
      const found = input.month === MONTH ? ORDERS : [];
      return {
        content: [{ type: "text", text: JSON.stringify({ orders: found }) }],
        details: { structuredContent: { orders: found } },
      };
    },
  });
  return [...builtins, orders, ...mcp];
}

/** A memory server's answer, scripted: the entities it was given, as the real server echoes them. */
function scriptedMcpResult(tool, input) {
  const structured = tool.name === "create_entities" ? { entities: input.entities ?? [] } : { ok: true };
  return {
    content: [{ type: "text", text: JSON.stringify(structured, null, 2) }],
    ...(tool.outputSchema === undefined ? {} : { details: { structuredContent: structured } }),
  };
}

/** The summary both modes write. */
export function summaryText(found, notes) {
  const lines = [`# Customers over ${THRESHOLD} EUR in ${MONTH}`, ""];
  for (const entry of found) {
    const note = (notes.get(entry.id) ?? "").split("\n").find((line) => line.includes("Last call")) ?? "";
    lines.push(`- ${entry.name} (${entry.id}): ${entry.total} EUR over ${entry.orders} orders. ${note}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The entities both modes record. */
export function entitiesOf(found) {
  return found.map((entry) => ({
    name: entry.name,
    entityType: "customer",
    observations: [`${entry.total} EUR in ${MONTH} over ${entry.orders} orders`, `notes: notes/${entry.id}.md`],
  }));
}

/**
 * The direct model's turns: each is `(transcript) => turn`, deciding from the tool results it has seen as a model
 * would (one call, then a batch of reads, then one call at a time), 8 calls over 5 requests.
 */
export function directTurns() {
  const resultsOf = (messages) =>
    messages.filter((message) => message.role === "tool").flatMap((message) => message.results);
  const textOf = (result) => result.content.map((block) => block.text ?? "").join("");
  let found = [];
  const notes = new Map();
  const call = (id, name, input) => ({ id, name, input });
  return [
    () => ({ text: "I'll fetch this month's orders.", toolCalls: [call("c1", "shop__list_orders", { month: MONTH })] }),
    (messages) => {
      found = customersOverThreshold(JSON.parse(textOf(resultsOf(messages).at(-1))).orders);
      return {
        text: `${found.length} customers are over ${THRESHOLD} EUR. Reading their notes.`,
        toolCalls: found.map((entry, index) => call(`c2_${index}`, "read", { path: `notes/${entry.id}.md` })),
      };
    },
    (messages) => {
      const results = resultsOf(messages).slice(-found.length);
      for (const [index, entry] of found.entries()) notes.set(entry.id, textOf(results[index]));
      return { text: "", toolCalls: [call("c3", "memory__create_entities", { entities: entitiesOf(found) })] };
    },
    () => ({ text: "", toolCalls: [call("c4", "write", { path: "summary.md", content: summaryText(found, notes) })] }),
    () => ({ text: FINAL_TEXT, toolCalls: [] }),
  ];
}

/** The same job as one program (what the model writes into run_code), returning only what matters. */
export const PROGRAM = `const { orders } = await tools.shop__list_orders({ month: "${MONTH}" });
const totals = new Map();
for (const order of orders) {
  if (order.status !== "paid") continue;
  const entry = totals.get(order.customerId) ?? { id: order.customerId, name: order.customerName, total: 0, orders: 0 };
  entry.total = Math.round((entry.total + order.total) * 100) / 100;
  entry.orders += 1;
  totals.set(order.customerId, entry);
}
const found = [...totals.values()].filter((entry) => entry.total > ${THRESHOLD}).sort((a, b) => b.total - a.total);
const notes = await Promise.all(found.map((entry) => tools.read({ path: \`notes/\${entry.id}.md\` })));
await tools.memory__create_entities({
  entities: found.map((entry) => ({
    name: entry.name,
    entityType: "customer",
    observations: [\`\${entry.total} EUR in ${MONTH} over \${entry.orders} orders\`, \`notes: notes/\${entry.id}.md\`],
  })),
});
const lines = ["# Customers over ${THRESHOLD} EUR in ${MONTH}", ""];
found.forEach((entry, index) => {
  const note = String(notes[index]).split("\\n").find((line) => line.includes("Last call")) ?? "";
  lines.push(\`- \${entry.name} (\${entry.id}): \${entry.total} EUR over \${entry.orders} orders. \${note}\`);
});
await tools.write({ path: "summary.md", content: lines.join("\\n") + "\\n" });
return { customers: found.map((entry) => ({ id: entry.id, name: entry.name, total: entry.total })), summary: "summary.md" };`;

/** The code-mode model's turns: one run_code call with the program, then the final text. */
export function codeModeTurns(program = PROGRAM, toolName = "run_code", field = "code") {
  return [
    () => ({ text: "", toolCalls: [{ id: "p1", name: toolName, input: { [field]: program } }] }),
    () => ({ text: FINAL_TEXT, toolCalls: [] }),
  ];
}
