#!/usr/bin/env node
// `npm start`: a registry from sample tools, its plan with the reasons for hidden tools, and a batch of good and bad calls.
import { createAgentSession, createToolRegistry, defineTool, type ToolResultBlock } from "../index.js";

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } },
    required: ["city"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
  execute: ({ city, unit = "celsius" }) => `It is 21 degrees ${unit} and sunny in ${city}.`,
});

const clock = defineTool({
  name: "now",
  description: "The current time in ISO 8601 (built-in version)",
  inputSchema: { type: "object" },
  execute: () => new Date().toISOString(),
});

const betterClock = defineTool({
  name: "now",
  description: "The current time in ISO 8601, with the time zone (extension version)",
  inputSchema: { type: "object" },
  owner: { kind: "plugin", pluginId: "clock-plus" },
  execute: () => `${new Date().toISOString()} (${Intl.DateTimeFormat().resolvedOptions().timeZone})`,
});

const github = defineTool({
  name: "github_search",
  description: "Search GitHub issues",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  availability: { kind: "auth", providerId: "github" },
  execute: ({ query }) => `results for ${query}`,
});

const deploy = defineTool({
  name: "deploy",
  description: "Deploy the current build",
  inputSchema: { type: "object" },
  availability: {
    allOf: [
      { kind: "env", name: "DEPLOY_TOKEN" },
      { kind: "context", key: "stage", equals: "prod" },
    ],
  },
  execute: () => "deployed",
});

const flaky = defineTool({
  name: "flaky",
  description: "A tool whose backend is down",
  inputSchema: { type: "object" },
  execute: () => {
    throw new Error("connection refused by backend:5432");
  },
});

const registry = createToolRegistry({
  builtins: [weather, clock, flaky],
  extensions: [betterClock, github, deploy],
  availability: { authProviderIds: new Set(), env: {}, values: { stage: "dev" } },
});
const session = createAgentSession({
  registry,
  systemPrompt: "You are a demo agent.",
  beforeToolCall: [
    (event) =>
      event.toolName === "get_weather" && event.input.city === "Atlantis"
        ? { block: true, reason: "Atlantis is off-limits" }
        : undefined,
  ],
});

const line = (text = "") => process.stdout.write(`${text}\n`);

line("toolwire demo: register, filter, wrap, dispatch\n");
line("Visible tools:");
for (const tool of registry.tools.values()) line(`  ${tool.descriptor.name.padEnd(14)} ${tool.descriptor.description}`);
line("Hidden tools:");
for (const entry of registry.hidden) {
  line(
    `  ${entry.descriptor.name.padEnd(14)} ${entry.diagnostics.map((d) => `${d.message} (${d.reason})`).join("; ")}`,
  );
}
line("Overrides:");
for (const override of registry.lastReport.overrides)
  line(`  ${override.name}: ${override.kept} tool kept, ${override.dropped} tool dropped`);
line(`\nexplain("deploy"):\n  ${registry.explain("deploy").replaceAll("\n", "\n  ")}`);

const calls = [
  { id: "call_1", name: "get_weather", input: { city: "Lisbon" } },
  { id: "call_2", name: "now", input: "{}" },
  { id: "call_3", name: "get_weather", input: { city: 42, unit: "kelvin" } },
  { id: "call_4", name: "get_weather", input: '{"city": "Paris"' },
  { id: "call_5", name: "github_search", input: { query: "bug" } },
  { id: "call_6", name: "get_weather", input: { city: "Atlantis" } },
  { id: "call_7", name: "flaky", input: {} },
];
line("\nDispatching a batch of tool_use blocks:");
session.on("tool_execution_end", (event) => {
  line(
    `  [${event.isError ? "error" : " ok  "}] ${event.toolName} (${event.toolCallId}) ${event.durationMs.toFixed(2)} ms${event.errorCode ? `  code=${event.errorCode}` : ""}`,
  );
});
const results: ToolResultBlock[] = await session.dispatchAll(calls);
line("\ntool_result blocks, in the calls' order:");
for (const [index, result] of results.entries()) {
  const call = calls[index];
  line(`- ${call?.name}(${JSON.stringify(call?.input)})`);
  for (const block of result.content)
    line(`    ${block.type === "text" ? block.text.replaceAll("\n", "\n    ") : `[image ${block.mimeType}]`}`);
}
