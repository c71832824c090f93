// toAiSdkTools: a session's active tools as an AI SDK ToolSet, every call going through the session's dispatch.

import type { ToolSet } from "ai";
import * as ai from "ai";
import type { AgentSession } from "../../core/dispatch/session.js";
import { isRecord } from "../../core/json.js";
import type { ContentBlock, ToolResult } from "../../core/types.js";
import { frameworkApprovals } from "../framework-approvals.js";
import { isFailedOutcome, ToolCallFailedError } from "../tool-call-failed-error.js";
import { toAiSdkModelOutput } from "./to-ai-sdk-model-output.js";

/** Everything `toAiSdkTools` takes. */
export interface ToAiSdkToolsOptions {
  /**
   * Who asks a person when the session's `approvals.require` names a call. `"ai-sdk"` (the default): the tool's
   * `needsApproval` says so, the AI SDK stops with a `tool-approval-request` and runs the call once a
   * `tool-approval-response` approves it (a denied call never reaches toolwire). `"session"`: the AI SDK is not
   * told; the session's own approver decides inside the call, and without one the call fails `approval-required`.
   */
  readonly approvals?: "ai-sdk" | "session";
}

/** What a tool of `toAiSdkTools` returns to the AI SDK: the result's content and its `details` (for programs). */
export type AiSdkToolOutput = Pick<ToolResult, "content" | "details">;

/**
 * The session's active tools, now, as an AI SDK `ToolSet` for `generateText`, `streamText` or an agent: each a
 * dynamic tool with the descriptor's description (and title) and `inputSchema: jsonSchema(descriptor.inputSchema)`.
 * `execute` runs the call through `session.dispatchDetailed` with the AI SDK's `toolCallId` and `abortSignal`,
 * so the session's validation, hooks, approvals, timeouts and events apply; it resolves to an
 * `AiSdkToolOutput`, shown to the model through `toModelOutput` (`toAiSdkModelOutput`: text, or content parts
 * with images). An error result is thrown as `ToolCallFailedError`, which the AI SDK turns into a `tool-error`
 * part; the model then gets `{ type: "error-text" }` with exactly toolwire's text for the model.
 * A snapshot: after the active set changes, build the set again.
 */
export function toAiSdkTools(session: AgentSession, options: ToAiSdkToolsOptions = {}): ToolSet {
  const route = options.approvals ?? "ai-sdk";
  if (route !== "ai-sdk" && route !== "session") {
    throw new TypeError(`toAiSdkTools: approvals must be "ai-sdk" or "session", got ${JSON.stringify(route)}`);
  }
  const approvals = frameworkApprovals(session, route === "ai-sdk" ? "framework" : "session");
  const asks = route === "ai-sdk" && session.approvals !== undefined;
  const images = AI_SDK_7 ? "file" : "image-data";
  const tools: ToolSet = {};
  for (const [name, { descriptor }] of session.activeTools) {
    tools[name] = ai.dynamicTool({
      description: descriptor.description,
      ...(descriptor.title === undefined ? {} : { title: descriptor.title }),
      inputSchema: ai.jsonSchema(descriptor.inputSchema as Parameters<typeof ai.jsonSchema>[0]),
      ...(asks ? { needsApproval: (input: unknown) => approvals.needsApproval(name, input) } : {}),
      execute: async (input, { toolCallId, abortSignal }): Promise<AiSdkToolOutput> => {
        const outcome = await session.dispatchDetailed(
          { id: toolCallId, name, input },
          approvals.dispatchOptions(name, input, abortSignal),
        );
        if (isFailedOutcome(outcome)) throw new ToolCallFailedError(name, toolCallId, outcome);
        const { content, details } = outcome.result;
        return details === undefined ? { content } : { content, details };
      },
      toModelOutput: ({ output }) => toAiSdkModelOutput(contentOf(output), { images }),
    });
  }
  return tools;
}

// Whether the installed `ai` is 7 or later, which deprecates `image-data` parts: `uploadFile` is new in 7.
const AI_SDK_7 = "uploadFile" in ai;

/** The content of an output as `execute` gave it, or as it came back from a UI message (plain JSON). */
function contentOf(output: unknown): readonly ContentBlock[] {
  if (isRecord(output) && Array.isArray(output.content)) return output.content as ContentBlock[];
  return [{ type: "text", text: typeof output === "string" ? output : (JSON.stringify(output) ?? "null") }];
}
