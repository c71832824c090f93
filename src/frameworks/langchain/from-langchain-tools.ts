// LangChain tools as toolwire AgentTools: a registry lists them, a session dispatches to the tool's invoke.
import { ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, ToolInputParsingException } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { toolCallRefusal } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { defineTool } from "../../core/register/define-tool.js";
import type { AgentTool, JsonObject, ToolResult } from "../../core/types.js";
import { fromLangChainContent } from "./from-langchain-content.js";

/**
 * LangChain tools (`tool()`, `DynamicStructuredTool`, `DynamicTool`, any `StructuredTool`) as toolwire tools, for a
 * registry's `custom` (or `extensions`) source. Each keeps its name and description; its schema becomes JSON Schema
 * through LangChain's own `toJsonSchema` (zod 3 and 4 as the input they accept, Standard JSON Schemas, plain JSON
 * Schema as it is). A call, once the session validated the input, runs the tool's `invoke` with a ToolCall of the
 * call's id and the call's abort signal; the ToolMessage it answers with becomes the result (`content` as toolwire
 * blocks, `artifact` as `details`, `status: "error"` as an error result). A tool that throws fails the call with its
 * message; one whose own schema check rejects the input (a zod refinement JSON Schema cannot say) fails it as
 * `invalid-input`. Throws `ToolDefinitionError` for a name toolwire cannot take (it must match
 * /^[A-Za-z0-9_-]{1,64}$/) or a schema that is not an object schema.
 */
export function fromLangChainTools(tools: readonly StructuredToolInterface[]): AgentTool[] {
  return tools.map((tool) => {
    const { name } = tool;
    return defineTool({
      name,
      description: tool.description,
      inputSchema: inputSchemaOf(tool),
      async execute(input, context): Promise<ToolResult> {
        let output: unknown;
        try {
          output = await tool.invoke(
            { type: "tool_call", id: context.toolCallId, name, args: input },
            { signal: context.signal },
          );
        } catch (error) {
          if (!(error instanceof ToolInputParsingException)) throw error;
          throw toolCallRefusal(
            "invalid-input",
            name,
            `Invalid input for tool ${name}: ${error.message}\nFix the input and call ${name} again.`,
          );
        }
        return resultOf(name, output);
      },
    });
  });
}

function inputSchemaOf(tool: StructuredToolInterface): JsonObject {
  // zod 4 converts for its output by default, where a field with a default is required; the model sends the input.
  const schema = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0], { io: "input" });
  // A plain copy: zod 4 leaves a non-enumerable `~standard` on the JSON Schema it makes, which defineTool would take
  // for a schema to convert once more; the copy is the JSON Schema LangChain made, as it is.
  return JSON.parse(JSON.stringify(schema)) as JsonObject;
}

function resultOf(name: string, output: unknown): ToolResult {
  if (ToolMessage.isInstance(output)) {
    const result: ToolResult = { content: fromLangChainContent(output.content) };
    if (output.artifact !== undefined) result.details = output.artifact;
    if (output.status === "error") result.isError = true;
    return result;
  }
  if (isRecord(output) && output.lg_name === "Command") {
    throw new Error(`Tool ${name} returned a LangGraph Command, which only a LangGraph graph can carry out`);
  }
  return { content: fromLangChainContent(output) };
}
