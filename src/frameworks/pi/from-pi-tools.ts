// pi AgentTools as toolwire AgentTools: a registry lists them, a session dispatches to pi's execute.

import { defineTool } from "../../core/register/define-tool.js";
import type { AgentTool, JsonObject, ToolResult } from "../../core/types.js";
import { fromPiContent } from "./from-pi-content.js";
import type { PiAgentTool } from "./pi-agent-tool.js";

/**
 * pi tools as toolwire tools, for a registry's `custom` (or `extensions`) source. Each keeps its name, description
 * and `executionMode`, its `label` as the title, and its TypeBox `parameters` as the input schema (TypeBox 1.x
 * schemas are JSON Schema). A call runs the tool's `execute` with the call's id and abort signal, after the
 * session validated the input (then `prepareArguments`, when the tool has one, runs on the valid input); pi's
 * `onUpdate` partials become the call's progress, its `{ content, details }` the result. A tool that throws fails
 * the call with its message, as pi's own loop reports it; a result with `isError: true` (pi 1's way to fail without
 * throwing) is an error result, `details` kept. Throws `ToolDefinitionError` for a name toolwire cannot
 * take (it must match /^[A-Za-z0-9_-]{1,64}$/) or a schema that is not an object schema.
 */
export function fromPiTools(tools: readonly PiAgentTool[]): AgentTool[] {
  return tools.map((tool) =>
    defineTool({
      name: tool.name,
      ...(typeof tool.label === "string" && tool.label !== tool.name ? { title: tool.label } : {}),
      description: tool.description,
      inputSchema: tool.parameters as unknown as JsonObject,
      ...(tool.executionMode === undefined ? {} : { executionMode: tool.executionMode }),
      async execute(input, context): Promise<ToolResult> {
        const params = tool.prepareArguments === undefined ? input : tool.prepareArguments(input);
        const result = await tool.execute(context.toolCallId, params, context.signal, (partial) =>
          context.onUpdate(fromPiResult(partial)),
        );
        return fromPiResult(result);
      },
    }),
  );
}

function fromPiResult(result: { content?: unknown; details?: unknown; isError?: unknown }): ToolResult {
  const content = fromPiContent(result?.content);
  return {
    content,
    ...(result?.details === undefined ? {} : { details: result.details }),
    ...(result?.isError === true ? { isError: true } : {}),
  };
}
