// Anthropic Messages wire shapes the adapter writes and reads, structural so that no one needs the SDK to use them.
import type { JsonObject } from "../core/types.js";

/** A tool's input schema as Anthropic takes it: a JSON Schema of `type: "object"` (what `defineTool` enforces). */
export type AnthropicInputSchema = JsonObject & { readonly type: "object" };

/**
 * One entry of a Messages request's `tools` (the SDK's `Tool`). Frozen: the same object every turn. `defer_loading`
 * (only with `formatTools(..., { deferLoading: true })`) keeps the definition out of the model's context until a
 * `tool_reference` names it. `allowed_callers` (only with `formatTools(..., { programmaticToolCalling: true })`) lets
 * the code execution tool's programs call it as well as the model.
 */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: AnthropicInputSchema;
  readonly defer_loading?: true;
  readonly allowed_callers?: AnthropicAllowedCaller[];
}

/** The code execution version whose programs may call client tools (programmatic tool calling). */
export type AnthropicCodeExecutionVersion = "code_execution_20260120";

/** Who may call a tool: the model (`direct`) or the code execution tool's programs. */
export type AnthropicAllowedCaller = "direct" | AnthropicCodeExecutionVersion;

/**
 * The code execution server tool as a `tools` entry (the SDK's `CodeExecutionTool20260120`): what a request needs
 * for programs to call the tools marked with `allowed_callers`.
 */
export interface AnthropicCodeExecutionTool {
  readonly type: AnthropicCodeExecutionVersion;
  readonly name: "code_execution";
}

/** The image types Anthropic reads. */
export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/**
 * The content of an Anthropic tool_result: text, a base64 image, a base64 PDF document, or (answering a native tool
 * search) a reference to a deferred tool, which the API expands into that tool's definition.
 */
export type AnthropicResultContent =
  | { type: "text"; text: string }
  | { type: "tool_reference"; tool_name: string }
  | { type: "image"; source: { type: "base64"; media_type: AnthropicImageMediaType; data: string } }
  | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string }; title: string };

/** A tool_result block as Anthropic reads it (the SDK's `ToolResultBlockParam`). */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content?: AnthropicResultContent[];
  is_error?: true;
}

/** What `anthropic.formatToolResults` gives: one user message (the SDK's `MessageParam`) of tool_result blocks. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResult[];
}

/**
 * A content block as `anthropic.parseToolCalls` reads it: a `tool_use` block's `id`, `name`, `input` and `caller`
 * (`{ type: "direct" }`, or `{ type: "code_execution_<date>", tool_id }` for a call a program made).
 */
export interface AnthropicContentBlockLike {
  readonly type: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
  readonly caller?: unknown;
}

/** What `anthropic.parseToolCalls` reads: a Messages response (the SDK's `Message`) or an assistant `MessageParam`. */
export interface AnthropicMessageLike {
  readonly content: string | readonly AnthropicContentBlockLike[];
}
