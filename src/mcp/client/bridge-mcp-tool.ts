// One server tool as an AgentTool: its descriptor from the listing, its results and progress as the bridge reports
// them.
import type { Tool as McpTool, Progress } from "@modelcontextprotocol/client";
import { isRecord } from "../../core/json.js";
import { defineTool } from "../../core/register/define-tool.js";
import { pinToolDefinition } from "../../core/register/fingerprint-tool-definition.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolEffects, ToolResult, ToolTrust } from "../../core/types.js";
import { structuredContentCheck } from "./check-structured-content.js";
import type { CallResultAsSent } from "./lenient-results.js";
import { mapCallToolResult } from "./map-result.js";

/** What a call to a bridged tool needs to know of it, made once per tool. */
export interface BridgedTool {
  readonly serverId: string;
  /** The bridged name (`<server>__<tool>`) and the server's own. */
  readonly name: string;
  readonly toolName: string;
  /** Why a result's `structuredContent` does not fit the tool's `outputSchema`, or `undefined`; none without one. */
  readonly checkStructured: ((structured: unknown) => string | undefined) | undefined;
}

/**
 * The `AgentTool` named `name` for a listed server tool, owned `{ kind: "mcp", serverId }`, with the server's
 * `trust` and `effects` when its config overrides them; its `execute` is `call`, its `listedDefinition` the listed
 * definition and its fingerprint (what a registry pins). Throws `ToolDefinitionError` when `defineTool` refuses the
 * listed definition.
 */
export function bridgeMcpTool(
  serverId: string,
  name: string,
  tool: McpTool,
  provenance: { readonly trust?: ToolTrust; readonly effects?: ToolEffects },
  call: (bridged: BridgedTool, input: JsonObject, context: ToolCallContext) => Promise<ToolResult>,
): AgentTool {
  const outputSchema = isRecord(tool.outputSchema) ? (tool.outputSchema as JsonObject) : undefined;
  const bridged: BridgedTool = {
    serverId,
    name,
    toolName: tool.name,
    checkStructured: outputSchema === undefined ? undefined : structuredContentCheck(outputSchema),
  };
  const defined = defineTool({
    name,
    title: tool.title ?? tool.annotations?.title,
    description: tool.description ?? tool.title ?? "",
    inputSchema: tool.inputSchema as JsonObject,
    outputSchema: tool.outputSchema as JsonObject | undefined,
    annotations: tool.annotations === undefined ? undefined : (plainCopy(tool.annotations) as JsonObject),
    icons: Array.isArray(tool.icons) ? (plainCopy(tool.icons.filter(isRecord)) as JsonObject[]) : undefined,
    _meta: isRecord(tool._meta) ? (plainCopy(tool._meta) as JsonObject) : undefined,
    owner: { kind: "mcp", serverId },
    ...provenance,
    executor: { kind: "mcp", serverId, toolName: tool.name },
    execute: (input: JsonObject, context: ToolCallContext) => call(bridged, input, context),
  });
  return Object.freeze({ ...defined, listedDefinition: pinToolDefinition(tool as McpTool & Record<string, unknown>) });
}

/**
 * A server's answer to a call as the tool's result (`mapCallToolResult`); an answer whose
 * `structuredContent` breaks the tool's `outputSchema` is an error result blaming the server.
 */
export function bridgedResult(bridged: BridgedTool, result: CallResultAsSent): ToolResult {
  const { serverId, toolName } = bridged;
  const mapped = mapCallToolResult(result, { serverId, toolName });
  const violation = mapped.isError === true ? undefined : bridged.checkStructured?.(result.structuredContent);
  if (violation === undefined) return mapped;
  return {
    content: [
      {
        type: "text",
        text: `MCP server ${serverId} answered the call to ${toolName}, but ${violation}. This is a fault of the server, not of your call.`,
      },
    ],
    isError: true,
    ...(mapped.details === undefined ? {} : { details: mapped.details }),
  };
}

/** A progress notification of a call as a partial result: `progress 3/10: message`, the numbers in `details`. */
export function progressUpdate(progress: Progress): ToolResult {
  const total = progress.total === undefined ? "" : `/${progress.total}`;
  const message = progress.message === undefined ? "" : `: ${progress.message}`;
  return {
    content: [{ type: "text", text: `progress ${progress.progress}${total}${message}` }],
    details: { progress },
  };
}

/** A listed tool's extra, as plain JSON (what the SDK parsed may carry more than JSON). */
function plainCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
