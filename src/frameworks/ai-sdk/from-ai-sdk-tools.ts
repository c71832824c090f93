// fromAiSdkTools: AI SDK tools (a ToolSet) as toolwire tools, so that a toolwire registry and session run them.
import { asSchema, type ToolExecutionOptions, type ToolSet } from "ai";
import { describeThrown, ToolCallError, ToolDefinitionError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { defineTool } from "../../core/register/define-tool.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolOwnerRef, ToolResult } from "../../core/types.js";
import { fromAiSdkModelOutput } from "./from-ai-sdk-model-output.js";

/** Everything `fromAiSdkTools` takes besides the tools. */
export interface FromAiSdkToolsOptions {
  /** The owner of every tool, for policy (`plugin:<id>`, `group:plugins`) and reports. Default `{ kind: "core" }`. */
  readonly owner?: ToolOwnerRef;
  /** Handed to every `execute` as the AI SDK's `experimental_context`. */
  readonly context?: unknown;
}

type AiSdkTool = ToolSet[string];

/**
 * AI SDK tools as toolwire `AgentTool`s, one per entry of the set, named by its key, for a registry's
 * `extensions` or `custom` source. The input schema is the AI SDK's own conversion (`asSchema(inputSchema)
 * .jsonSchema`, so a zod schema and `jsonSchema(...)` both work); toolwire validates calls against it and then
 * the tool's own schema parses the input (zod refinements, transforms and defaults apply) before `execute` runs
 * with the call's id and abort signal. The output becomes a result as the AI SDK would show it to the model:
 * through the tool's `toModelOutput` (`fromAiSdkModelOutput`), else a string as text and anything else as its
 * JSON; the raw output is the result's `details`. A throw is the tool's failure (`execution-failed`); an input
 * the tool's schema refuses is `invalid-input`. Values an `execute` streams before its last are
 * `tool_execution_update`s. Not carried over: `needsApproval` (name the tool in the session's
 * `approvals.require`) and the `onInput*` callbacks.
 * Throws `ToolDefinitionError` for a tool without `execute`, a provider-defined tool, a name toolwire refuses,
 * or a schema that is not an object schema or is only known asynchronously.
 */
export function fromAiSdkTools(tools: ToolSet, options: FromAiSdkToolsOptions = {}): AgentTool[] {
  if (!isRecord(tools)) throw new TypeError("fromAiSdkTools takes an AI SDK ToolSet: an object of tools by name");
  return Object.entries(tools).map(([name, tool]) => fromAiSdkTool(name, tool, options));
}

function fromAiSdkTool(name: string, tool: AiSdkTool, options: FromAiSdkToolsOptions): AgentTool {
  const refuse = (code: "invalid-tool-definition" | "invalid-schema", message: string): never => {
    throw new ToolDefinitionError(code, name, `AI SDK tool ${name}: ${message}`);
  };
  if (!isRecord(tool)) return refuse("invalid-tool-definition", "not a tool object");
  if (tool.type === "provider") {
    return refuse("invalid-tool-definition", "a provider-defined tool runs at the model provider, not in toolwire");
  }
  const run = tool.execute;
  if (typeof run !== "function") {
    return refuse("invalid-tool-definition", "it has no execute function (the AI SDK leaves such tools to the client)");
  }
  let schema: ReturnType<typeof asSchema>;
  let jsonSchema: unknown;
  try {
    schema = asSchema(tool.inputSchema);
    jsonSchema = schema.jsonSchema;
  } catch (error) {
    return refuse("invalid-schema", `its input schema cannot be converted to JSON Schema: ${describeThrown(error)}`);
  }
  if (isRecord(jsonSchema) && typeof jsonSchema.then === "function") {
    return refuse("invalid-schema", "its JSON Schema is only known asynchronously; pass jsonSchema(await ...) instead");
  }
  const toModelOutput = tool.toModelOutput;
  return defineTool({
    name,
    description: typeof tool.description === "string" ? tool.description : "",
    ...(typeof tool.title === "string" ? { title: tool.title } : {}),
    inputSchema: jsonSchema as JsonObject,
    ...(options.owner === undefined ? {} : { owner: options.owner }),
    async execute(input: JsonObject, context: ToolCallContext): Promise<ToolResult> {
      const value = await parseInput(name, schema, input);
      const executionOptions: ToolExecutionOptions = {
        toolCallId: context.toolCallId,
        messages: [],
        abortSignal: context.signal,
        ...(options.context === undefined ? {} : { experimental_context: options.context }),
      };
      const output = await finalOutput(run.call(tool, value, executionOptions), (partial) =>
        context.onUpdate(defaultResult(partial)),
      );
      if (typeof toModelOutput !== "function") return defaultResult(output);
      const shown = await toModelOutput.call(tool, { toolCallId: context.toolCallId, input: value, output });
      return fromAiSdkModelOutput(shown, output);
    },
  });
}

/** The input as the tool's own schema parses it (the AI SDK does the same before `execute`). */
async function parseInput(name: string, schema: ReturnType<typeof asSchema>, input: JsonObject): Promise<unknown> {
  if (schema.validate === undefined) return input;
  const checked = await schema.validate(input);
  if (checked.success) return checked.value;
  throw new ToolCallError(
    "invalid-input",
    name,
    `Invalid input for tool ${name}:\n${describeIssues(checked.error)}\nFix these fields and call ${name} again.`,
  );
}

function describeIssues(error: unknown): string {
  const issues = isRecord(error) ? (Array.isArray(error.issues) ? error.issues : error.cause) : undefined;
  if (!Array.isArray(issues) || issues.length === 0) return `- ${describeThrown(error)}`;
  return issues
    .map((issue: unknown) => {
      const record = isRecord(issue) ? issue : {};
      let path = "input";
      for (const segment of Array.isArray(record.path) ? record.path : []) {
        const key = isRecord(segment) ? segment.key : segment;
        path += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
      }
      return `- ${path}: ${typeof record.message === "string" ? record.message : describeThrown(issue)}`;
    })
    .join("\n");
}

/**
 * What `execute` produced: its value, or for an async iterable (the AI SDK's preliminary results) the last
 * value, each earlier one handed to `onPreliminary` when the next arrives.
 */
async function finalOutput(produced: unknown, onPreliminary: (output: unknown) => void): Promise<unknown> {
  if (!isAsyncIterable(produced)) return await produced;
  let last: unknown;
  let first = true;
  for await (const value of produced) {
    if (!first) onPreliminary(last);
    first = false;
    last = value;
  }
  return last;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/** What the AI SDK shows the model of an output without `toModelOutput`: a string as text, anything else as JSON. */
function defaultResult(output: unknown): ToolResult {
  const text = typeof output === "string" ? output : (JSON.stringify(output ?? null) ?? "null");
  return output === undefined
    ? { content: [{ type: "text", text }] }
    : { content: [{ type: "text", text }], details: output };
}
