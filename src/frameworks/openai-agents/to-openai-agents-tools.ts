// toOpenAIAgentsTools: a session's active tools as OpenAI Agents SDK function tools, every call through dispatch.
import { randomUUID } from "node:crypto";
import { type FunctionTool, type ToolCallOutputContent, type ToolInputParameters, tool } from "@openai/agents-core";
import type { AgentSession } from "../../core/dispatch/session.js";
import { describeThrown, ToolDefinitionError } from "../../core/errors.js";
import { errorPrefixed } from "../../providers/shared.js";
import { frameworkApprovals } from "../framework-approvals.js";
import { isFailedOutcome, ToolCallFailedError } from "../tool-call-failed-error.js";
import { toOpenAIAgentsOutput } from "./to-openai-agents-output.js";

/** Everything `toOpenAIAgentsTools` takes. */
export interface ToOpenAIAgentsToolsOptions {
  /**
   * Who asks a person when the session's `approvals.require` names a call. `"agents"` (the default): the tool's
   * `needsApproval` says so, the run stops with an interruption, and the call runs once `state.approve(item)`
   * approves it (a rejected call never reaches toolwire). `"session"`: the Agents SDK is not told; the session's
   * own approver decides inside the call, and without one the call fails `approval-required`.
   */
  readonly approvals?: "agents" | "session";
}

/** A JSON Schema as the Agents SDK types a non-strict tool's parameters. */
type NonStrictParameters = Extract<ToolInputParameters, { additionalProperties: true }>;

/** A function tool of `toOpenAIAgentsTools`: it answers with text or structured output parts. */
export type OpenAIAgentsFunctionTool = FunctionTool<unknown, NonStrictParameters, string | ToolCallOutputContent[]>;

/**
 * The session's active tools, now, as Agents SDK `FunctionTool`s for an `Agent`'s `tools`: each made with
 * `tool({ name, description, parameters: descriptor.inputSchema, strict: false })`, so the model sees toolwire's
 * JSON Schema as is and toolwire validates. `execute` runs the call through `session.dispatchDetailed` with the
 * model's call id and the run's abort signal, so the session's validation, hooks, approvals, timeouts and
 * events apply; a result becomes `toOpenAIAgentsOutput` (text, or parts with images). An error result is thrown
 * as `ToolCallFailedError` and the tool's `errorFunction` gives the model its text, prefixed `Error: ` as
 * toolwire's OpenAI adapters do (the SDK's default would hide it behind a fixed message).
 * The Agents SDK turns every character but letters and digits of a name into `_`; throws `ToolDefinitionError`
 * when two active tools would end up with one name. A snapshot: after the active set changes, build the list again.
 */
export function toOpenAIAgentsTools(
  session: AgentSession,
  options: ToOpenAIAgentsToolsOptions = {},
): OpenAIAgentsFunctionTool[] {
  const route = options.approvals ?? "agents";
  if (route !== "agents" && route !== "session") {
    throw new TypeError(`toOpenAIAgentsTools: approvals must be "agents" or "session", got ${JSON.stringify(route)}`);
  }
  const approvals = frameworkApprovals(session, route === "agents" ? "framework" : "session");
  const asks = route === "agents" && session.approvals !== undefined;
  const byAgentsName = new Map<string, string>();
  const tools: OpenAIAgentsFunctionTool[] = [];
  for (const [name, { descriptor }] of session.activeTools) {
    const made = tool<NonStrictParameters, unknown, string | ToolCallOutputContent[]>({
      name,
      description: descriptor.description,
      parameters: descriptor.inputSchema as unknown as NonStrictParameters,
      strict: false,
      ...(asks
        ? { needsApproval: async (_context: unknown, input: unknown) => approvals.needsApproval(name, input) }
        : {}),
      errorFunction: (_context, error) =>
        error instanceof ToolCallFailedError ? errorPrefixed(error.message, true) : `Error: ${describeThrown(error)}`,
      execute: async (input, _context, details) => {
        const id = details?.toolCall?.callId ?? randomUUID();
        const outcome = await session.dispatchDetailed(
          { id, name, input },
          approvals.dispatchOptions(name, input, details?.signal),
        );
        if (isFailedOutcome(outcome)) throw new ToolCallFailedError(name, id, outcome);
        return toOpenAIAgentsOutput(outcome.result.content);
      },
    });
    const clash = byAgentsName.get(made.name);
    if (clash !== undefined) {
      throw new ToolDefinitionError(
        "invalid-tool-definition",
        name,
        `Tools ${clash} and ${name} both become ${made.name} in the OpenAI Agents SDK (it keeps only letters, digits and _ in a name); rename one of them`,
      );
    }
    byAgentsName.set(made.name, name);
    tools.push(made as OpenAIAgentsFunctionTool);
  }
  return tools;
}
