// Which tools OpenAI's strict mode sends without `strict`, and why: what `toolwire plan` shows for an OpenAI model.
import type { AgentTool, ToolDescriptor } from "../core/types.js";
import { strictSchemaOf } from "./schema-adapt.js";
import { descriptorOf } from "./shared.js";

/** A tool `formatTools(…, { strict: true })` sends without `strict`, with the reasons its schema cannot be strict. */
export interface NonStrictTool {
  readonly name: string;
  readonly reasons: readonly string[];
}

/**
 * The tools, in order, whose input schema cannot be made strict for OpenAI (Chat and Responses), each with its
 * reasons (a JSON pointer into the schema and what is there). `formatTools(…, { strict: true })` sends these
 * tools as it sends every tool without strict mode: no `strict: true`, the schema unconverted except that an array
 * schema without `items` gets `items: {}`. Every other tool goes strict.
 */
export function listNonStrictTools(tools: Iterable<ToolDescriptor | AgentTool>): NonStrictTool[] {
  const out: NonStrictTool[] = [];
  for (const tool of tools) {
    const descriptor = descriptorOf(tool);
    const converted = strictSchemaOf(descriptor.inputSchema);
    if (!converted.strict) out.push({ name: descriptor.name, reasons: converted.reasons });
  }
  return out;
}
