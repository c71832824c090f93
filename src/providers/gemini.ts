// Gemini: [{ functionDeclarations }] tools, functionCall parts in, one user turn of functionResponse parts out.
import { randomUUID } from "node:crypto";
import { isRecord } from "../core/json.js";
import type { AgentTool, ContentBlock, ToolDescriptor } from "../core/types.js";
import { ProviderFormatError } from "./errors.js";
import { fromGeminiName, toGeminiName } from "./gemini-names.js";
import type {
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponsePart,
  GeminiInlineData,
  GeminiResponseLike,
  GeminiTool,
} from "./gemini-wire.js";
import { adaptSchema } from "./schema-adapt.js";
import { blockAsText, descriptorOf, pairResultsWithCalls, stringField } from "./shared.js";
import type { ProviderAdapter, ToolCall } from "./types.js";

/** The prefix of the ids made up for calls Gemini sent without one; such ids are never echoed back. */
export const GEMINI_MADE_UP_ID_PREFIX = "toolwire-gemini-";

/**
 * The Gemini adapter. Schemas are cut to Gemini's OpenAPI subset (cached per schema). A tool name Gemini refuses
 * (a digit or `-` first) goes with `_` in front, and so does one starting with `_` (`toGeminiName`); calls come
 * back by the tool's own name. Calls without an id get a made-up one (unique within the response, prefixed
 * `toolwire-gemini-`) and calls without `args` get `{}`.
 * Results are `{ output: text }` or `{ error: text }`; `functionResponse.id` only echoes an id the model gave.
 * PNG, JPEG and WebP images and PDFs (image blocks, embedded blobs) go in `functionResponse.parts` as inline
 * data, each named in the text by its `displayName`; a text resource is its text; audio, other blobs and resource
 * links are described in the text.
 */
export const gemini: ProviderAdapter<GeminiTool, GeminiFunctionResponseContent, GeminiResponseLike> = {
  name: "gemini",
  formatTools(tools) {
    const list = Array.isArray(tools) ? (tools as readonly (ToolDescriptor | AgentTool)[]) : Array.from(tools);
    if (list.length === 0) return [];
    // Fresh declarations around the cached schemas, not frozen entries: @google/genai rewrites each declaration's
    // `parameters` in place (and throws on a frozen one). The schema objects themselves are reused, never changed.
    const functionDeclarations = list.map((tool): GeminiFunctionDeclaration => {
      const descriptor = descriptorOf(tool);
      const parameters = adaptSchema(descriptor.inputSchema, "gemini");
      const name = toGeminiName(descriptor.name);
      return parameters === undefined
        ? { name, description: descriptor.description }
        : { name, description: descriptor.description, parameters };
    });
    return [{ functionDeclarations }];
  },
  parseToolCalls(response: unknown) {
    const parts = geminiPartsOf(response);
    const calls: ToolCall[] = [];
    const given = new Set<string>();
    for (const part of parts) {
      if (isRecord(part) && isRecord(part.functionCall) && typeof part.functionCall.id === "string") {
        given.add(part.functionCall.id);
      }
    }
    const batch = randomUUID().slice(0, 8);
    for (const part of parts) {
      if (!isRecord(part) || !isRecord(part.functionCall)) continue;
      const call = part.functionCall;
      let id = typeof call.id === "string" && call.id !== "" ? call.id : "";
      if (id === "") {
        let n = calls.length;
        do id = `${GEMINI_MADE_UP_ID_PREFIX}${batch}-${n++}`;
        while (given.has(id));
        given.add(id);
      }
      calls.push({ id, name: fromGeminiName(stringField(call, "name")), input: call.args ?? {} });
    }
    return calls;
  },
  formatToolResults(results, calls) {
    const parts = pairResultsWithCalls(results, calls).map(({ call, result }) => {
      if (call === undefined) {
        throw new ProviderFormatError(
          "unmatched-tool-result",
          `Tool result for ${JSON.stringify(result.tool_use_id)} needs its call: Gemini answers a call by the function's name, so pass the calls to formatToolResults.`,
        );
      }
      const { text, attached } = splitContent(result.content);
      const functionResponse: GeminiFunctionResponsePart["functionResponse"] = {
        name: toGeminiName(call.name),
        response: result.is_error === true ? { error: text } : { output: text },
      };
      if (attached.length > 0) functionResponse.parts = attached;
      return { functionResponse: isMadeUpId(call.id) ? functionResponse : { id: call.id, ...functionResponse } };
    });
    return { role: "user", parts };
  },
};

/** The inline data types Gemini takes in a function response. */
const GEMINI_INLINE_TYPES: ReadonlySet<string> = new Set<GeminiInlineData["mimeType"]>([
  "image/png",
  "image/jpeg",
  "image/webp",
  "application/pdf",
]);

function isInlineType(mimeType: string): mimeType is GeminiInlineData["mimeType"] {
  return GEMINI_INLINE_TYPES.has(mimeType);
}

type InlinePart = { inlineData: GeminiInlineData };

/** The result's text, with each image or PDF Gemini can take moved to an inline part and named in its place. */
function splitContent(content: readonly ContentBlock[]): { text: string; attached: InlinePart[] } {
  const attached: InlinePart[] = [];
  const lines = content.map((block) => {
    const inline =
      block.type === "image"
        ? { mimeType: block.mimeType, data: block.data }
        : block.type === "resource" && block.resource.blob !== undefined && block.resource.mimeType !== undefined
          ? { mimeType: block.resource.mimeType, data: block.resource.blob }
          : undefined;
    if (inline === undefined || !isInlineType(inline.mimeType)) return blockAsText(block);
    const { mimeType, data } = inline;
    const displayName = `${mimeType === "application/pdf" ? "document" : "image"}-${attached.length + 1}`;
    attached.push({ inlineData: { mimeType, data, displayName } });
    const what = block.type === "resource" ? `resource ${block.resource.uri} (${inline.mimeType})` : inline.mimeType;
    return `[${what}: attached as ${displayName}]`;
  });
  return { text: lines.join("\n"), attached };
}

/** Whether an id was made up by `gemini.parseToolCalls` (Gemini gave none). */
export function isMadeUpId(id: string): boolean {
  return id.startsWith(GEMINI_MADE_UP_ID_PREFIX);
}

/** The parts of a response's first candidate, or of a content (`{ role, parts }`) given directly. */
function geminiPartsOf(response: unknown): unknown[] {
  if (!isRecord(response)) return [];
  if (Array.isArray(response.candidates)) {
    const candidate = response.candidates[0];
    const content = isRecord(candidate) ? candidate.content : undefined;
    return isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
  }
  return Array.isArray(response.parts) ? response.parts : [];
}
