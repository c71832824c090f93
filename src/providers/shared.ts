// Helpers the four adapters share: reading tools, parsing arguments text, pairing results with calls, content as text.

import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import { toolSearchResultNames } from "../core/defer/tool-search-result-names.js";
import { isRecord } from "../core/json.js";
import { base64ByteLength, describeResourceLink } from "../core/tool-result.js";
import type {
  AgentTool,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ToolDescriptor,
  ToolResultBlock,
} from "../core/types.js";
import { ProviderFormatError } from "./errors.js";
import type { FormatToolResultsOptions, ToolCall, ToolCallCaller } from "./types.js";

/** The descriptor of a tool or descriptor. */
export function descriptorOf(tool: ToolDescriptor | AgentTool): ToolDescriptor {
  return "descriptor" in tool && isRecord(tool.descriptor) ? tool.descriptor : (tool as ToolDescriptor);
}

/** The entries of each variant, by descriptor: one table per variant, so a tool's entry is one lookup away. */
const entriesByVariant = new Map<string, WeakMap<ToolDescriptor, unknown>>();

function entriesOf(variant: string): WeakMap<ToolDescriptor, unknown> {
  let entries = entriesByVariant.get(variant);
  if (entries === undefined) {
    entries = new WeakMap();
    entriesByVariant.set(variant, entries);
  }
  return entries;
}

/**
 * One provider entry per descriptor and variant, built once and frozen, so `formatTools` returns the very same
 * objects (and so the same bytes) on every turn. Descriptors are immutable (`defineTool` freezes them).
 */
export function cachedToolEntry<T>(
  descriptor: ToolDescriptor,
  variant: string,
  build: (descriptor: ToolDescriptor) => T,
): T {
  const entries = entriesOf(variant) as WeakMap<ToolDescriptor, T>;
  let entry = entries.get(descriptor);
  if (entry === undefined) {
    entry = Object.freeze(build(descriptor));
    entries.set(descriptor, entry);
  }
  return entry;
}

/** `cachedToolEntry` over a list of tools, in their order: what every `formatTools` returns each turn. */
export function cachedToolEntries<T>(
  tools: Iterable<ToolDescriptor | AgentTool>,
  variant: string,
  build: (descriptor: ToolDescriptor) => T,
): T[] {
  const out: T[] = [];
  for (const tool of tools) out.push(cachedToolEntry(descriptorOf(tool), variant, build));
  return out;
}

/**
 * OpenAI's `arguments` text as a tool input: the parsed value, the raw text when it is not valid JSON (dispatch
 * then tells the model what was wrong), `{}` for blank text. An object (some compatible servers send one) is kept.
 */
export function parseArgumentsText(text: unknown): unknown {
  if (typeof text !== "string") return text ?? {};
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The model as a call's caller: one frozen object for every direct call. */
export const DIRECT_CALLER: ToolCallCaller = Object.freeze({ type: "direct" });

/** A string field of an untrusted record, or `""`. */
export function stringField(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  return typeof value === "string" ? value : "";
}

/** The text a result without a match gets: the providers reject a call left unanswered. */
export const MISSING_RESULT_TEXT = "No result: the call was not run.";

/**
 * The results paired with the calls, one per call in the calls' order (results matched by `tool_use_id`, in order
 * among equal ids). A call without a result gets an error result. A result that matches no call throws
 * `ProviderFormatError` (`unmatched-tool-result`). With no calls given, the results are taken as they are.
 */
export function pairResultsWithCalls(
  results: readonly ToolResultBlock[],
  calls: readonly ToolCall[],
): { call: ToolCall | undefined; result: ToolResultBlock }[] {
  if (calls.length === 0) return results.map((result) => ({ call: undefined, result }));
  // The usual turn: one result per call, in the calls' order (as the loop and dispatchAll give them). Pairing it
  // needs no lookup; anything else goes the long way.
  if (results.length === calls.length && results.every((result, index) => result.tool_use_id === calls[index]?.id)) {
    return calls.map((call, index) => ({ call, result: results[index] as ToolResultBlock }));
  }
  const pending = new Map<string, ToolResultBlock[]>();
  for (const result of results) {
    const queue = pending.get(result.tool_use_id);
    if (queue === undefined) pending.set(result.tool_use_id, [result]);
    else queue.push(result);
  }
  const paired = calls.map((call) => {
    const result = pending.get(call.id)?.shift() ?? {
      type: "tool_result" as const,
      tool_use_id: call.id,
      content: [{ type: "text" as const, text: MISSING_RESULT_TEXT }],
      is_error: true,
    };
    return { call, result };
  });
  for (const queue of pending.values()) if (queue.length > 0) unmatched(queue[0] as ToolResultBlock);
  return paired;
}

/**
 * For native tool search: the tools of `tools` that are not among `deferred`, in order (a found tool is already among
 * the deferred, which go with `defer_loading: true`, so it is not sent twice).
 */
export function upFrontTools<T extends ToolDescriptor | AgentTool>(
  tools: readonly T[],
  deferred: readonly (ToolDescriptor | AgentTool)[],
): T[] {
  const deferredNames = new Set(deferred.map((tool) => descriptorOf(tool).name));
  return tools.filter((tool) => !deferredNames.has(descriptorOf(tool).name));
}

/**
 * For native tool search: a lookup of the deferred tools by name that tells, per result, which of them a
 * `tool_search` call found (`undefined` for a result that is not a tool search's, or without `options.toolSearch`).
 * Found names come from the result's pinned text, once each, best first, restricted to the deferred tools given.
 */
export function nativeSearchFinder(
  options: FormatToolResultsOptions | undefined,
): (call: ToolCall | undefined, result: ToolResultBlock) => ToolDescriptor[] | undefined {
  const search = options?.toolSearch;
  if (search === undefined) return () => undefined;
  const byName = new Map<string, ToolDescriptor>();
  for (const tool of search.deferredTools) {
    const descriptor = descriptorOf(tool);
    byName.set(descriptor.name, descriptor);
  }
  return (call, result) => {
    if (call?.name !== TOOL_SEARCH_NAME) return undefined;
    const found = new Set(toolSearchResultNames(result).filter((name) => byName.has(name)));
    return [...found].map((name) => byName.get(name) as ToolDescriptor);
  };
}

/** Throws `unmatched-tool-result` for a result that answers no known call. */
function unmatched(result: ToolResultBlock): never {
  throw new ProviderFormatError(
    "unmatched-tool-result",
    `Tool result for ${JSON.stringify(result.tool_use_id)} matches no tool call of the turn: every result must answer one call (providers reject an unmatched result).`,
  );
}

/** A text line standing in for an image, for providers whose tool results carry no images (of its type). */
function describeImage(image: ImageContent): string {
  return `[image: ${image.mimeType}, about ${base64ByteLength(image.data)} bytes; this provider cannot show tool images to the model]`;
}

/**
 * One block as text, for what a provider's tool result cannot carry: text as it is, a text resource as its
 * text, a resource link as a line naming it, anything else as a line saying what it is and that it is not shown.
 */
export function blockAsText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return describeImage(block);
    case "audio":
      return `[audio: ${block.mimeType}, about ${base64ByteLength(block.data)} bytes; this provider cannot play tool audio to the model]`;
    case "resource":
      return block.resource.text ?? describeBlob(block.resource as EmbeddedResource & { blob: string });
    case "resource_link":
      return describeResourceLink(block);
  }
}

function describeBlob(resource: EmbeddedResource & { blob: string }): string {
  const type = resource.mimeType ?? "unknown type";
  return `[resource ${resource.uri} (${type}), about ${base64ByteLength(resource.blob)} bytes of binary data; this provider cannot show it to the model]`;
}

/** The content as one text: each block as `blockAsText` gives it, joined by newlines. */
export function contentAsText(content: readonly ContentBlock[]): string {
  return content.map(blockAsText).join("\n");
}

/** A file name for a resource: the last segment of its URI's path, or `fallback`. */
export function resourceFileName(uri: string, fallback: string): string {
  const path = uri.replace(/[?#].*$/, "");
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "" ? fallback : decodeSafely(name);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The result's text with the `Error: ` prefix OpenAI models read as a failure (they have no error flag). */
export function errorPrefixed(text: string, isError: boolean | undefined): string {
  return isError === true ? `Error: ${text}` : text;
}
