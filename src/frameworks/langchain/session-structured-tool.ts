// One session tool as a LangChain StructuredTool: every call goes through the session's dispatch.

import { randomUUID } from "node:crypto";
import {
  CallbackManager,
  type CallbackManagerForToolRun,
  parseCallbackConfigArg,
} from "@langchain/core/callbacks/manager";
import { ToolMessage } from "@langchain/core/messages";
import { type ContentAndArtifact, StructuredTool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import type { AgentSession } from "../../core/dispatch/session.js";
import { isRecord } from "../../core/json.js";
import type { DispatchOptions, ToolDescriptor, ToolResult } from "../../core/types.js";
import { ToolCallFailedError } from "../tool-call-failed-error.js";
import { toLangChainContent } from "./to-langchain-content.js";

/** How a session tool calls the session: the options every dispatch gets (an approver, for now). */
export type SessionToolDispatchOptions = Pick<DispatchOptions, "approver">;

/**
 * A LangChain tool over one tool of a session. Its `schema` is the tool's JSON Schema, for the model; LangChain does
 * not check the input with it, the session does (its errors name each field and what was expected). A call made
 * with a tool call (as ToolNode and createAgent make them) answers with a ToolMessage: `status: "success"`, or
 * `status: "error"` with the session's error text, `artifact` the result's `details` either way. A call made with
 * bare arguments answers with the content, or throws `ToolCallFailedError`.
 */
export class SessionStructuredTool extends StructuredTool<JSONSchema> {
  static override lc_name(): string {
    return "SessionStructuredTool";
  }

  name: string;
  description: string;
  schema: JSONSchema;
  readonly #session: AgentSession;
  readonly #dispatchOptions: SessionToolDispatchOptions;

  constructor(session: AgentSession, descriptor: ToolDescriptor, dispatchOptions: SessionToolDispatchOptions = {}) {
    super({ responseFormat: "content_and_artifact" });
    this.name = descriptor.name;
    this.description = descriptor.description;
    // A copy of its own: the descriptor's schema is frozen, and LangChain's JSON Schema validator writes into the
    // schemas it reads (it marks each with its base URI).
    this.schema = JSON.parse(JSON.stringify(descriptor.inputSchema)) as JSONSchema;
    this.#session = session;
    this.#dispatchOptions = dispatchOptions;
  }

  // LangChain's own `call` (which `invoke` runs) first checks the input against `schema` with its own validator,
  // and a failure reaches the model as "did not match expected schema" and a stack trace. This one does what it
  // does otherwise (callbacks, tool call id, the ToolMessage) and leaves the checking to the session.
  // biome-ignore lint/suspicious/noExplicitAny: the base method's return type is a conditional type over its generics
  override async call(arg: unknown, configArg?: unknown, tags?: string[]): Promise<any> {
    const toolCall = isToolCall(arg) ? arg : undefined;
    const input = toolCall === undefined ? arg : toolCall.args;
    const config = parseCallbackConfigArg(configArg as ToolRunnableConfig | undefined) as ToolRunnableConfig;
    const toolCallId = typeof toolCall?.id === "string" ? toolCall.id : toolCallIdOf(config);
    const callbacks = CallbackManager.configure(
      config.callbacks,
      this.callbacks,
      config.tags ?? tags,
      this.tags,
      config.metadata,
      this.metadata,
      { verbose: this.verbose },
    );
    const runManager = await callbacks?.handleToolStart(
      this.toJSON(),
      isRecord(input) ? input : (JSON.stringify(input) ?? String(input)),
      config.runId,
      undefined,
      undefined,
      undefined,
      config.runName ?? this.name,
      toolCallId,
    );
    let output: unknown;
    try {
      const result = await this.#dispatch(input, toolCallId, config, runManager);
      output = this.#answer(result, toolCallId);
    } catch (error) {
      await runManager?.handleToolError(error);
      throw error;
    }
    await runManager?.handleToolEnd(output);
    return output;
  }

  /** What LangChain's own `call` runs, were it to call this tool without the override above. */
  protected async _call(
    input: unknown,
    runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<ContentAndArtifact> {
    const toolCallId = toolCallIdOf(config);
    const result = await this.#dispatch(input, toolCallId, config ?? {}, runManager);
    const answer = this.#answer(result, toolCallId);
    // A ToolMessage passes through LangChain's formatting as it is; content is wrapped with the artifact.
    return answer instanceof ToolMessage ? [answer as never, undefined] : [answer, result.result.details];
  }

  async #dispatch(
    input: unknown,
    toolCallId: string | undefined,
    config: ToolRunnableConfig,
    runManager: CallbackManagerForToolRun | undefined,
  ): Promise<{ result: ToolResult; failure?: ToolCallFailedError }> {
    const id = toolCallId ?? `call_${randomUUID()}`;
    const { signal } = config;
    const outcome = await this.#session.dispatchDetailed(
      { id, name: this.name, input },
      {
        ...this.#dispatchOptions,
        ...(signal === undefined ? {} : { signal }),
        ...(runManager === undefined ? {} : { onUpdate: progressTo(runManager) }),
      },
    );
    const { result } = outcome;
    if (outcome.errorCode === "aborted" && signal?.aborted === true) throw abortError(signal);
    if (result.isError !== true) return { result };
    return { result, failure: new ToolCallFailedError(this.name, id, outcome) };
  }

  #answer({ result, failure }: { result: ToolResult; failure?: ToolCallFailedError }, toolCallId: string | undefined) {
    const content = toLangChainContent(result.content);
    if (toolCallId === undefined) {
      if (failure !== undefined) throw failure;
      return content;
    }
    return new ToolMessage({
      status: failure === undefined ? "success" : "error",
      content,
      artifact: result.details,
      tool_call_id: toolCallId,
      name: this.name,
    });
  }
}

interface ToolCallShape {
  readonly id?: string;
  readonly args?: unknown;
}

/** LangChain's test for a ToolCall passed to `call` (its own is not exported). */
function isToolCall(value: unknown): value is ToolCallShape {
  return isRecord(value) && value.type === "tool_call";
}

/** The tool call id `invoke` puts in the config when it was given a ToolCall. */
function toolCallIdOf(config: ToolRunnableConfig | undefined): string | undefined {
  const id = config?.toolCall?.id;
  return typeof id === "string" ? id : undefined;
}

/**
 * Passes the session's progress to the run's callbacks, which LangGraph streams to `streamMode: "tools"` as
 * `on_tool_event` under the call's id. A callback that fails is reported as LangChain's own tools report it.
 */
function progressTo(runManager: CallbackManagerForToolRun): (partial: ToolResult) => void {
  return (partial) => {
    runManager.handleToolEvent(partial).catch((error: unknown) => runManager.handleToolError(error).catch(() => {}));
  };
}

/** The abort's reason, as LangChain's own tools reject on an abort. */
function abortError(signal: AbortSignal): Error {
  const { reason } = signal;
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === "string" ? reason : "Aborted");
}
