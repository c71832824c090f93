// The AI SDK's code mode (`@ai-sdk/code-mode` on `run`) on code-mode.bench.mjs's task and cases, run on Node 22 from
// bench/code-mode.bench.mjs. Its run_code equivalent (`code_mode`: the description and input schema the AI SDK builds)
// is sent through toolwire's own adapters, as toolwire's run_code is, and runs the same program for real.
// Prints one JSON line: versions, the task's request bytes, and the speed passes.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  experimental_createCodeModeTool as createCodeModeTool,
  experimental_runCodeMode as runCodeMode,
} from "@ai-sdk/code-mode";
import { jsonSchema, tool } from "ai";
import * as api from "../../../dist/index.js";
import { meanMs, PARALLEL, SEQUENTIAL, SPIN, TRIVIAL, worstLagWhile } from "../../lib/code-mode-programs.js";
import { codeModeTurns, PROGRAM, PROMPT, SYSTEM_PROMPT, taskTools, writeWorkspace } from "../../lib/code-mode-task.js";
import { countingModel, totalsOf } from "../../lib/wire-bytes.js";

const PASSES = Number(process.argv[2] ?? 9);
const require = createRequire(import.meta.url);
const version = (name) => `${name}@${require(`${name}/package.json`).version}`;

// ------------------------------------------------------------------ the task
const root = await mkdtemp(join(tmpdir(), "toolwire-bench-ai-code-mode-"));
await writeWorkspace(root);
// The same tools as AI SDK tools: the same names, descriptions and JSON Schemas; the built-ins the task uses as file
// reads and writes in the workspace; the others answer as toolwire's scripted ones do.
const ours = taskTools(api, []);
const aiTools = {};
for (const each of ours) {
  const { name, description, inputSchema, outputSchema } = each.descriptor;
  aiTools[name] = tool({
    description,
    inputSchema: jsonSchema(inputSchema),
    ...(outputSchema === undefined ? {} : { outputSchema: jsonSchema(outputSchema) }),
    execute: async (input) => {
      const result = await each.execute(input, { toolCallId: "x", signal: new AbortController().signal });
      return result.details?.structuredContent ?? result.content.map((block) => block.text ?? "").join("");
    },
  });
}
aiTools.read = tool({
  description: "Read a file of the workspace.",
  inputSchema: jsonSchema({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
  execute: async ({ path }) => readFile(join(root, path), "utf8"),
});
aiTools.write = tool({
  description: "Write a file of the workspace.",
  inputSchema: jsonSchema({
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path", "content"],
  }),
  execute: async ({ path, content }) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
    return `wrote ${path}`;
  },
});
const codeModeTool = createCodeModeTool(aiTools);
// The AI SDK's code_mode tool as the model is sent it, formatted by toolwire's adapters.
const codeMode = api.defineTool({
  name: "code_mode",
  description: codeModeTool.description,
  inputSchema: (await codeModeTool.inputSchema.jsonSchema) ?? codeModeTool.inputSchema.jsonSchema,
  maxResultChars: Infinity,
  execute: async (input) => {
    const value = await runCodeMode({ js: input.js, tools: aiTools });
    return { content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] };
  },
});
const session = api.createAgentSession({
  registry: api.createToolRegistry({ custom: [codeMode] }),
  systemPrompt: SYSTEM_PROMPT,
});
const { model, requests } = countingModel(codeModeTurns(PROGRAM, "code_mode", "js"));
for await (const event of api.runAgent({ session, model, prompt: PROMPT })) void event;
const summary = await readFile(join(root, "summary.md"), "utf8");
await rm(root, { recursive: true, force: true });
if (!summary.includes("cus_")) throw new Error("the AI SDK's program wrote no summary");

// ------------------------------------------------------------------ speed
const noop = tool({
  description: "Does nothing.",
  inputSchema: jsonSchema({ type: "object", properties: { id: { type: "integer" } }, additionalProperties: false }),
  execute: async () => "ok",
});
const tools = { noop };
const options = { toolCallId: "d", messages: [] };
const program = (js, executionPolicy) =>
  runCodeMode({ js, tools, ...(executionPolicy === undefined ? {} : { options: { executionPolicy } }) });
for (let index = 0; index < 10; index++) {
  await program(TRIVIAL);
  await program(SEQUENTIAL);
  await program(PARALLEL);
}
const passes = { direct: [], trivial: [], sequential: [], parallel: [], lagSpin: [] };
for (let pass = 0; pass < PASSES; pass++) {
  passes.direct.push(await meanMs(() => noop.execute({ id: 1 }, options), 2000));
  passes.trivial.push(await meanMs(() => program(TRIVIAL), 40));
  passes.sequential.push(await meanMs(() => program(SEQUENTIAL), 10));
  passes.parallel.push(await meanMs(() => program(PARALLEL), 10));
}
let lagEnd;
for (let pass = 0; pass < 5; pass++) {
  const { worst, value } = await worstLagWhile(() =>
    program(SPIN, { timeoutMs: 1000 }).then(
      () => "returned",
      (error) => error?.name ?? "error",
    ),
  );
  lagEnd = value;
  passes.lagSpin.push(worst);
}
process.stdout.write(
  `${JSON.stringify({
    node: process.versions.node,
    versions: ["@ai-sdk/code-mode", "ai", "run"].map(version).join(", "),
    wire: { ...totalsOf(requests), descriptionBytes: Buffer.byteLength(codeModeTool.description) },
    lagEnd,
    passes,
  })}\n`,
);
