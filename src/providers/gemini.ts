// Gemini: [{ functionDeclarations }] tools, functionCall parts in, one user turn of functionResponse parts out.
import { randomUUID } from "node:crypto";
import { isRecord } from "../core/json.js";
import type { AgentTool, ToolDescriptor } from "../core/types.js";
import { ProviderFormatError } from "./errors.js";
import { adaptSchema } from "./schema-adapt.js";
import { cachedToolEntry, contentAsText, descriptorOf, pairResultsWithCalls, stringField } from "./shared.js";
import type { ProviderAdapter, ToolCall } from "./types.js";

/** A functionResponse part as Gemini reads it. */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: { output: string } | { error: string } };
}

/** The prefix of the ids made up for calls Gemini sent without one; such ids are never echoed back. */
export const GEMINI_MADE_UP_ID_PREFIX = "toolwire-gemini-";

/**
 * The Gemini adapter. Schemas are cut to Gemini's OpenAPI subset (cached per schema); calls without an id get a
 * made-up one (unique within the response, prefixed `toolwire-gemini-`) and calls without `args` get `{}`.
 * Results are `{ output: text }` or `{ error: text }`; `functionResponse.id` only echoes an id the model gave.
 */
export const gemini: ProviderAdapter = {
  name: "gemini",
  formatTools(tools) {
    const list = Array.isArray(tools) ? (tools as readonly (ToolDescriptor | AgentTool)[]) : Array.from(tools);
    if (list.length === 0) return [];
    const functionDeclarations = list.map((tool) => {
      const descriptor = descriptorOf(tool);
      return cachedToolEntry(descriptor, "gemini", () => {
        const parameters = adaptSchema(descriptor.inputSchema, "gemini");
        return parameters === undefined
          ? { name: descriptor.name, description: descriptor.description }
          : { name: descriptor.name, description: descriptor.description, parameters };
      });
    });
    return [{ functionDeclarations }];
  },
  parseToolCalls(response) {
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
      calls.push({ id, name: stringField(call, "name"), input: call.args ?? {} });
    }
    return calls;
  },
  formatToolResults(results, calls): { role: "user"; parts: GeminiFunctionResponsePart[] } {
    const parts = pairResultsWithCalls(results, calls).map(({ call, result }) => {
      if (call === undefined) {
        throw new ProviderFormatError(
          "unmatched-tool-result",
          `Tool result for ${JSON.stringify(result.tool_use_id)} needs its call: Gemini answers a call by the function's name, so pass the calls to formatToolResults.`,
        );
      }
      const text = contentAsText(result.content);
      const functionResponse: GeminiFunctionResponsePart["functionResponse"] = {
        name: call.name,
        response: result.is_error === true ? { error: text } : { output: text },
      };
      return { functionResponse: isMadeUpId(call.id) ? functionResponse : { id: call.id, ...functionResponse } };
    });
    return { role: "user", parts };
  },
};

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
