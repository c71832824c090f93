// fromOpenAIAgentsTools: OpenAI Agents SDK function tools as toolwire tools, so that a toolwire session runs them.
import { RunContext, type Tool } from "@openai/agents-core";
import { ToolDefinitionError } from "../../core/errors.js";
import { isRecord } from "../../core/json.js";
import { defineTool } from "../../core/register/define-tool.js";
import type { AgentTool, JsonObject, ToolCallContext, ToolOwnerRef, ToolResult } from "../../core/types.js";
import { fromOpenAIAgentsOutput } from "./from-openai-agents-output.js";

/** Everything `fromOpenAIAgentsTools` takes besides the tools. */
export interface FromOpenAIAgentsToolsOptions<Context = unknown> {
  /** The owner of every tool, for policy (`plugin:<id>`, `group:plugins`) and reports. Default `{ kind: "core" }`. */
  readonly owner?: ToolOwnerRef;
  /** The `context` of the `RunContext` each call gets (what `Runner.run(agent, input, { context })` would pass). */
  readonly context?: Context;
}

/**
 * Agents SDK function tools (from `tool(...)`, or an agent's `tools`) as toolwire `AgentTool`s, for a registry's
 * `extensions` or `custom` source: name, description, and the tool's `parameters` JSON Schema (a zod tool's is its
 * strict conversion), which toolwire validates calls against. Each call runs `tool.invoke(new RunContext(context),
 * JSON text of the input, { toolCall, signal })`, so the tool's own parsing (zod), timeout and `errorFunction`
 * apply as in a run; the answer becomes a result through `fromOpenAIAgentsOutput`. The tool's `timeoutMs` is also
 * the toolwire call's. A tool made with `errorFunction: null` throws, which toolwire reports as `execution-failed`
 * with the message; with the SDK's default error function, the failure arrives as its fixed text, marked `isError`.
 * Not carried over: `needsApproval` (name the tool in the session's `approvals.require`), `isEnabled` and the
 * tool's input and output guardrails (the Runner runs those). Throws `ToolDefinitionError` for a tool that is not a
 * function tool (hosted, computer, shell, apply_patch) or whose schema toolwire refuses.
 */
export function fromOpenAIAgentsTools<Context = unknown>(
  tools: readonly Tool<Context>[],
  options: FromOpenAIAgentsToolsOptions<Context> = {},
): AgentTool[] {
  if (!Array.isArray(tools)) throw new TypeError("fromOpenAIAgentsTools takes a list of Agents SDK tools");
  return tools.map((tool) => fromOpenAIAgentsTool(tool, options));
}

function fromOpenAIAgentsTool<Context>(tool: Tool<Context>, options: FromOpenAIAgentsToolsOptions<Context>): AgentTool {
  if (!isRecord(tool) || tool.type !== "function" || typeof tool.invoke !== "function") {
    const name = isRecord(tool) && typeof tool.name === "string" ? tool.name : "(unnamed)";
    const kind = isRecord(tool) ? `a ${String(tool.type)} tool` : "not a tool";
    throw new ToolDefinitionError(
      "invalid-tool-definition",
      name,
      `Agents SDK tool ${name}: only function tools can run in toolwire (this one is ${kind})`,
    );
  }
  const { invoke } = tool;
  return defineTool({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as unknown as JsonObject,
    ...(options.owner === undefined ? {} : { owner: options.owner }),
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    async execute(input: JsonObject, context: ToolCallContext): Promise<ToolResult> {
      const text = JSON.stringify(input);
      const toolCall = {
        type: "function_call" as const,
        callId: context.toolCallId,
        name: tool.name,
        status: "completed" as const,
        arguments: text,
      };
      const output = await invoke.call(tool, new RunContext<Context>(options.context), text, {
        toolCall,
        signal: context.signal,
      });
      return fromOpenAIAgentsOutput(output);
    },
  });
}
