// The MCP Apps extension's names (io.modelcontextprotocol/ui): its mime type, where a tool names its app, what an app is.
import { isRecord } from "../../core/json.js";
import type { JsonObject } from "../../core/types.js";

/** The mime type of an MCP App's HTML (`io.modelcontextprotocol/ui`). */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The MCP Apps extension's identifier, as clients and servers declare it in `capabilities.extensions`. */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";

/** An MCP App as its server sent it: the HTML, and the `_meta` (its `ui` holds `csp`, `permissions`, ...). */
export interface McpAppResource {
  readonly uri: string;
  readonly mimeType: string;
  /** The document, decoded when the server sent it base64 (`blob`). */
  readonly html: string;
  /** The content's `_meta` as sent, when it has one (`_meta.ui.csp`, `_meta.ui.permissions`, `_meta.ui.prefersBorder`). */
  readonly _meta?: JsonObject;
}

/**
 * The `ui://` resource a tool names (`_meta.ui.resourceUri`, or the older `_meta["ui/resourceUri"]`), or
 * `undefined` when it names none.
 */
export function appResourceUriOf(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const nested = isRecord(meta.ui) ? meta.ui.resourceUri : undefined;
  const uri = typeof nested === "string" ? nested : meta["ui/resourceUri"];
  return typeof uri === "string" && uri.startsWith("ui://") ? uri : undefined;
}
