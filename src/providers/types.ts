// The provider adapter contract (SPEC 10): tools out, tool calls in, results out, in one provider's wire format.
import type { AgentTool, ToolDescriptor, ToolResultBlock } from "../core/types.js";

/** A model's tool call, read from a provider response. `input` is untrusted: dispatch parses and validates it. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** Options of `formatTools`. */
export interface FormatToolsOptions {
  /** OpenAI Chat and Responses: strict function calling (schemas adapted). The other adapters ignore it. */
  readonly strict?: boolean;
}

/** The name a provider adapter goes by. */
export type ProviderName = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/** One provider's tool wire format. Every method is pure and never does I/O. */
export interface ProviderAdapter {
  readonly name: ProviderName;
  /**
   * The request's `tools` (Gemini: `[{ functionDeclarations }]`), in the order given. The same tools give the
   * same bytes every time: converted schemas and tool entries are cached per schema and descriptor.
   */
  formatTools(tools: Iterable<ToolDescriptor | AgentTool>, options?: FormatToolsOptions): unknown[];
  /** The tool calls of a whole response body, in order; `[]` when there are none or the body is not a response. */
  parseToolCalls(response: unknown): ToolCall[];
  /**
   * The results in the provider's format, one per call in the calls' order. A call without a result gets an
   * error result saying so; a result whose `tool_use_id` matches no call throws `ProviderFormatError`.
   */
  formatToolResults(results: readonly ToolResultBlock[], calls: readonly ToolCall[]): unknown;
}
