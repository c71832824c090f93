// The provider adapter contract (docs/providers.md): tools out, tool calls in, results out, in one provider's wire
// format.
import type { AgentTool, ToolDescriptor, ToolResultBlock } from "../core/types.js";

/** A model's tool call, read from a provider response. `input` is untrusted: dispatch parses and validates it. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
  /**
   * Who made the call, when the provider says (provider-native programmatic tool calling): the model itself, or a
   * program the provider runs for it. Absent when the response does not say or says it in a form not known.
   * Either way the call dispatches like any other.
   */
  readonly caller?: ToolCallCaller;
}

/**
 * The maker of a call: `direct` (the model), or `program` (code the provider runs, such as Anthropic's code
 * execution or OpenAI's programmatic tool calling), with `id` that program's own call id (Anthropic's `tool_id`,
 * OpenAI's `caller_id`).
 */
export type ToolCallCaller = { readonly type: "direct" } | { readonly type: "program"; readonly id: string };

/** Options of `formatTools`. */
export interface FormatToolsOptions {
  /** OpenAI Chat and Responses: strict function calling (schemas adapted). The other adapters ignore it. */
  readonly strict?: boolean;
  /**
   * Anthropic and OpenAI Responses: send every tool given with `defer_loading: true`, so the provider keeps its
   * definition out of the model's context until a tool search finds it (provider-native deferral). The other
   * adapters ignore it.
   */
  readonly deferLoading?: boolean;
  /**
   * Anthropic and OpenAI Responses: let a program the provider runs call every tool given, as well as the model
   * (Anthropic `allowed_callers: ["direct", "code_execution_20260120"]`, OpenAI Responses `allowed_callers:
   * ["direct", "programmatic"]`). The request must also carry the provider's code tool (`ANTHROPIC_CODE_EXECUTION_TOOL`,
   * `OPENAI_PROGRAMMATIC_TOOL`). The other adapters ignore it.
   */
  readonly programmaticToolCalling?: boolean;
}

/**
 * Options of `formatToolResults`. With `toolSearch`, the results of `tool_search` calls go back the provider's native
 * way (Anthropic: `tool_reference` blocks; OpenAI Responses: a `tool_search_output` item with the found tools'
 * definitions); the other adapters ignore it.
 */
export interface FormatToolResultsOptions {
  readonly toolSearch?: {
    /**
     * The tools the request sent with `defer_loading: true`. A name a search listed that is not among them is left
     * out (the providers reject a reference to a tool the request does not define).
     */
    readonly deferredTools: Iterable<ToolDescriptor | AgentTool>;
    /** OpenAI Responses: the found tools' definitions in strict form, as `formatTools` with `strict` gives them. */
    readonly strict?: boolean;
    /** OpenAI Responses: the found tools' definitions as `formatTools` with `programmaticToolCalling` gives them. */
    readonly programmaticToolCalling?: boolean;
  };
}

/** The name a provider adapter goes by. */
export type ProviderName = "anthropic" | "openai-chat" | "openai-responses" | "gemini";

/**
 * One provider's tool wire format. Every method is pure and never does I/O. The type parameters are the wire
 * shapes: `TTool` one entry of the request's `tools`, `TResults` what `formatToolResults` gives, `TResponse` the
 * response shape `parseToolCalls` reads. Each is a small structural type of toolwire's own that the provider's
 * official SDK accepts (and, for `TResponse`, whose response type fits), so no cast is needed either way.
 * `ProviderAdapter` alone (every parameter `unknown`) is any adapter.
 */
export interface ProviderAdapter<TTool = unknown, TResults = unknown, TResponse = unknown> {
  readonly name: ProviderName;
  /**
   * The request's `tools` (Gemini: `[{ functionDeclarations }]`), in the order given. The same tools give the
   * same bytes every time: converted schemas and tool entries are cached per schema and descriptor (and frozen).
   */
  formatTools(tools: Iterable<ToolDescriptor | AgentTool>, options?: FormatToolsOptions): TTool[];
  /** The tool calls of a whole response body, in order; `[]` when there are none or the body is not a response. */
  parseToolCalls(response: TResponse): ToolCall[];
  /** Any value: what is not a response gives `[]`. */
  parseToolCalls(response: unknown): ToolCall[];
  /**
   * The results in the provider's format, one per call in the calls' order. A call without a result gets an
   * error result saying so; a result whose `tool_use_id` matches no call throws `ProviderFormatError`. With
   * `options.toolSearch`, results of `tool_search` calls take the provider's native form (see the options).
   */
  formatToolResults(
    results: readonly ToolResultBlock[],
    calls: readonly ToolCall[],
    options?: FormatToolResultsOptions,
  ): TResults;
}
