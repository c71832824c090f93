// What a tool returns: content blocks as the model sees them (MCP's, one to one), and details for programs.
import type { JsonObject, JsonValue } from "./json.js";

/**
 * What MCP lets any block carry besides its content, kept as sent: `annotations` (MCP's `audience`, `priority`,
 * `lastModified`, and whatever else the object holds) and `_meta`.
 */
interface ContentExtras {
  readonly annotations?: ContentAnnotations;
  readonly _meta?: JsonObject;
}
/** MCP's hints about a block: who it is for, how much it matters (0 to 1), when it last changed (ISO 8601). */
interface ContentAnnotations {
  readonly audience?: readonly ("user" | "assistant")[];
  readonly priority?: number;
  readonly lastModified?: string;
  readonly [key: string]: JsonValue | undefined;
}
/** Text for the model. */
interface TextContent extends ContentExtras {
  readonly type: "text";
  readonly text: string;
}
/** An image, base64 encoded, with its MIME type. */
export interface ImageContent extends ContentExtras {
  readonly type: "image";
  /** Base64, without a `data:` prefix. */
  readonly data: string;
  readonly mimeType: string;
}
/** Audio, base64 encoded, with its MIME type. */
interface AudioContent extends ContentExtras {
  readonly type: "audio";
  /** Base64, without a `data:` prefix. */
  readonly data: string;
  readonly mimeType: string;
}
/** A resource's contents, embedded: exactly one of `text` and `blob` (base64). */
export type EmbeddedResource =
  | (EmbeddedResourceHead & { readonly text: string; readonly blob?: never })
  | (EmbeddedResourceHead & { readonly blob: string; readonly text?: never });
interface EmbeddedResourceHead {
  readonly uri: string;
  readonly mimeType?: string;
  readonly _meta?: JsonObject;
}
/** A resource embedded in the result. */
interface EmbeddedResourceContent extends ContentExtras {
  readonly type: "resource";
  readonly resource: EmbeddedResource;
}
/** A pointer to a resource the reader can fetch; MCP's optional `title`, `size` (bytes) and `icons` kept. */
export interface ResourceLinkContent extends ContentExtras {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly mimeType?: string;
  readonly description?: string;
  readonly size?: number;
  readonly icons?: readonly JsonObject[];
}
/** What a tool result is made of, as the model sees it (docs/core.md). MCP content maps to it one to one. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResourceContent | ResourceLinkContent;

/** What a tool produced. `details` is for programs and never sent to the model. */
export interface ToolResult<TDetails = unknown> {
  content: ContentBlock[];
  details?: TDetails;
  isError?: boolean;
}
