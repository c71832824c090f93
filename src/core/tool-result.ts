// Tool results: normalizing what an executor returned, and error results written for the model.
import { copyJson } from "./copy-json.js";
import { isRecord } from "./json.js";
import type { ContentBlock, ResourceLinkContent, ToolResult } from "./types.js";

/** A result with one text block and `isError: true`. */
export function errorResult(text: string, details?: unknown): ToolResult {
  return details === undefined
    ? { content: [{ type: "text", text }], isError: true }
    : { content: [{ type: "text", text }], details, isError: true };
}

/**
 * Why `value` is not a valid content block (docs/core.md), or `undefined` when it is. A switch on `type`, so a
 * text block costs one comparison and two absent-field reads.
 */
export function describeContentProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "a content block is not an object";
  switch (value.type) {
    case "text":
      if (typeof value.text !== "string") return "a text block has no string `text`";
      return describeExtrasProblem(value, "a text block");
    case "image":
    case "audio":
      return describeMediaProblem(value, value.type === "image" ? "an image block" : "an audio block");
    case "resource":
      return describeEmbeddedResourceProblem(value);
    case "resource_link":
      return describeResourceLinkProblem(value);
  }
  return `unknown content block type ${JSON.stringify(value.type) ?? "undefined"} (expected "text", "image", "audio", "resource" or "resource_link")`;
}

/** Whether `value` is base64 as the providers take it: the standard alphabet, padding optional, no whitespace. */
export function isBase64(value: string): boolean {
  const length = value.length;
  if (length % 4 === 1 || !BASE64.test(value)) return false;
  return value.charCodeAt(length - 1) !== 61 /* = */ || length % 4 === 0;
}
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function describeMediaProblem(value: Record<string, unknown>, what: string): string | undefined {
  if (typeof value.data !== "string" || typeof value.mimeType !== "string") {
    return `${what} needs string \`data\` (base64) and \`mimeType\``;
  }
  if (!isBase64(value.data)) return `${what}'s \`data\` is not base64 (standard alphabet, no \`data:\` prefix)`;
  return describeExtrasProblem(value, what);
}

function describeEmbeddedResourceProblem(value: Record<string, unknown>): string | undefined {
  const { resource } = value;
  if (!isRecord(resource)) return "a resource block needs a `resource` object ({ uri, mimeType?, text or blob })";
  if (typeof resource.uri !== "string") return "an embedded resource has no string `uri`";
  if (resource.mimeType !== undefined && typeof resource.mimeType !== "string") {
    return "an embedded resource's `mimeType` is not a string";
  }
  const hasText = resource.text !== undefined;
  const hasBlob = resource.blob !== undefined;
  if (hasText === hasBlob) {
    return `an embedded resource needs exactly one of \`text\` and \`blob\` (it has ${hasText ? "both" : "neither"})`;
  }
  if (hasText && typeof resource.text !== "string") return "an embedded resource's `text` is not a string";
  if (hasBlob && (typeof resource.blob !== "string" || !isBase64(resource.blob))) {
    return "an embedded resource's `blob` is not a base64 string";
  }
  if (resource._meta !== undefined && !isRecord(resource._meta))
    return "an embedded resource's `_meta` is not an object";
  return describeExtrasProblem(value, "a resource block");
}

function describeResourceLinkProblem(value: Record<string, unknown>): string | undefined {
  if (typeof value.uri !== "string" || typeof value.name !== "string") {
    return "a resource_link block needs string `uri` and `name`";
  }
  for (const key of ["title", "mimeType", "description"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "string")
      return `a resource_link's \`${key}\` is not a string`;
  }
  const { size, icons } = value;
  if (size !== undefined && (typeof size !== "number" || !Number.isInteger(size) || size < 0)) {
    return "a resource_link's `size` is not a whole number of bytes";
  }
  if (icons !== undefined) {
    if (!Array.isArray(icons)) return "a resource_link's `icons` is not an array";
    for (let index = 0; index < icons.length; index++) {
      const icon: unknown = icons[index];
      if (!isRecord(icon) || typeof icon.src !== "string")
        return `a resource_link's \`icons[${index}]\` has no string \`src\``;
    }
  }
  return describeExtrasProblem(value, "a resource_link");
}

/** `annotations` and `_meta`, when present: objects, and the annotations MCP defines in its shapes. */
function describeExtrasProblem(value: Record<string, unknown>, what: string): string | undefined {
  const { annotations, _meta } = value;
  if (_meta !== undefined && !isRecord(_meta)) return `${what}'s \`_meta\` is not an object`;
  if (annotations === undefined) return undefined;
  if (!isRecord(annotations)) return `${what}'s \`annotations\` is not an object`;
  const { audience, priority, lastModified } = annotations;
  if (audience !== undefined && !(Array.isArray(audience) && audience.every(isRole))) {
    return `${what}'s \`annotations.audience\` is not a list of "user" and "assistant"`;
  }
  if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)) {
    return `${what}'s \`annotations.priority\` is not a number from 0 to 1`;
  }
  if (lastModified !== undefined && !(typeof lastModified === "string" && ISO_DATE_TIME.test(lastModified))) {
    return `${what}'s \`annotations.lastModified\` is not an ISO 8601 date and time with an offset`;
  }
  return undefined;
}
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;

function isRole(value: unknown): boolean {
  return value === "user" || value === "assistant";
}

/**
 * An executor's return value as a `ToolResult`, or a string saying why it is not one. Never throws:
 * the result is a fresh plain-data copy (see `copyJson`), so a getter, a proxy or a cycle in what the
 * tool returned can neither break this call nor anything that reads the result later.
 */
export function normalizeToolResult(value: unknown): ToolResult | string {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (typeof value !== "object" || value === null) {
    return `expected a string or { content: [...] }, got ${value === null ? "null" : typeof value}`;
  }
  const copied = copyJson(value, "result");
  if (!copied.ok) return copied.problem;
  const result = copied.value;
  if (!isRecord(result)) return "expected a string or { content: [...] }, got an array";
  const { content } = result;
  if (!Array.isArray(content)) return "the result has no `content` array";
  for (let index = 0; index < content.length; index++) {
    const problem = describeContentProblem(content[index]);
    if (problem !== undefined) return `content[${index}]: ${problem}`;
  }
  if (result.isError !== undefined && typeof result.isError !== "boolean") return "`isError` is not a boolean";
  const normalized: ToolResult = { content: content as ContentBlock[] };
  if (result.details !== undefined) normalized.details = result.details;
  if (result.isError !== undefined) normalized.isError = result.isError;
  return normalized;
}

/** The content blocks of a patch, if they are valid. */
export function isContentArray(value: unknown): value is ContentBlock[] {
  return Array.isArray(value) && value.every((block) => describeContentProblem(block) === undefined);
}

/** How many bytes a base64 string decodes to (padding or none). */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * One block as a person reads it in a terminal or a log: text (and a text resource) as it is, anything else
 * as a bracketed line saying what it is. Not what a model is sent: the provider adapters decide that.
 */
export function contentBlockAsText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${base64ByteLength(block.data)} bytes]`;
    case "resource": {
      const { resource } = block;
      if (resource.text !== undefined) return resource.text;
      const type = resource.mimeType === undefined ? "" : ` ${resource.mimeType}`;
      return `[resource ${resource.uri}${type}, ${base64ByteLength(resource.blob)} bytes]`;
    }
    case "resource_link":
      return describeResourceLink(block);
  }
}

/** A resource link in one bracketed line: uri, title or name, type, description. */
export function describeResourceLink(link: ResourceLinkContent): string {
  const type = link.mimeType === undefined ? "" : ` (${link.mimeType})`;
  const description = link.description === undefined ? "" : `: ${link.description}`;
  return `[resource link: ${link.uri} "${link.title ?? link.name}"${type}${description}]`;
}
