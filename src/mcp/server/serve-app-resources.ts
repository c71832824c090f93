// serveAppResources: resources/list and resources/read for the MCP Apps (ui:// resources) of the tools a server lists.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type Server } from "@modelcontextprotocol/server";
import { describeThrown } from "../../core/errors.js";
import type { ToolDescriptor } from "../../core/types.js";
import { appResourceUriOf, MCP_APP_MIME_TYPE, type McpAppResource } from "../client/mcp-app.js";

/**
 * Reads the app (`ui://` resource) that `tool` names: for a bridged tool, its server's
 * (`connection.readAppResource(uri)`). A rejection whose `code` is `mcp-app-not-found` tells the client "not found";
 * any other, an internal error with its message.
 */
export type AppResourceReader = (tool: ToolDescriptor, uri: string) => Promise<McpAppResource>;

/**
 * Answers `resources/list` with the `ui://` resources that the tools of `listed()` name (`_meta.ui.resourceUri`, or
 * the older `_meta["ui/resourceUri"]`), and `resources/read` for those URIs only (through `read`, with the first
 * listed tool that names it); any other URI is not found. `resources/templates/list` is empty.
 */
export function serveAppResources(
  server: Server,
  listed: () => readonly ToolDescriptor[],
  read: AppResourceReader,
): void {
  const apps = () => {
    const byUri = new Map<string, ToolDescriptor>();
    for (const tool of listed()) {
      const uri = appResourceUriOf(tool._meta);
      if (uri !== undefined && !byUri.has(uri)) byUri.set(uri, tool);
    }
    return byUri;
  };
  server.setRequestHandler("resources/list", () => ({
    resources: [...apps()].map(([uri, tool]) => ({
      uri,
      name: uri,
      title: `App of ${tool.name}`,
      mimeType: MCP_APP_MIME_TYPE,
    })),
  }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
  server.setRequestHandler("resources/read", async (request) => {
    const uri = request.params.uri;
    const tool = apps().get(uri);
    if (tool === undefined) throw new ResourceNotFoundError(uri);
    let app: McpAppResource;
    try {
      app = await read(tool, uri);
    } catch (error) {
      if ((error as { code?: unknown }).code === "mcp-app-not-found") throw new ResourceNotFoundError(uri);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        `The app ${uri} could not be read: ${describeThrown(error)}`,
      );
    }
    return {
      contents: [
        { uri, mimeType: app.mimeType, text: app.html, ...(app._meta === undefined ? {} : { _meta: app._meta }) },
      ],
    };
  });
}
