// An MCP server over stdio (the SDK's low-level Server, both protocol eras) with MCP Apps (io.modelcontextprotocol/ui):
// - `show_chart` names its app in `_meta.ui.resourceUri` (ui://charts/chart.html); a call answers the bars it drew.
// - `legacy_chart` names the same app the older way, `_meta["ui/resourceUri"]`.
// - `lost_app` names ui://charts/missing.html, which the server does not have.
// - `text_app` names ui://charts/notes.txt, which is plain text, not HTML.
// - `plain` has no app.
// The app's HTML is the file named by the APP_HTML environment variable, else a small page; its content carries
// `_meta.ui` with a CSP and prefersBorder. Reading any other URI is "not found" (-32602 with the URI).
import { readFileSync } from "node:fs";
import { ResourceNotFoundError, Server } from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";

const CHART = "ui://charts/chart.html";
const HTML = process.env.APP_HTML
  ? readFileSync(process.env.APP_HTML, "utf8")
  : "<!DOCTYPE html><html><body><p id='chart'>chart app</p></body></html>";
const APP_META = { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } };
const schema = { type: "object", properties: { bars: { type: "array", items: { type: "number" } } } };

const tools = [
  { name: "show_chart", description: "Draws a bar chart", inputSchema: schema, _meta: { ui: { resourceUri: CHART } } },
  {
    name: "legacy_chart",
    description: "Draws a chart (old _meta key)",
    inputSchema: schema,
    _meta: { "ui/resourceUri": CHART },
  },
  {
    name: "lost_app",
    description: "Names an app the server lacks",
    inputSchema: schema,
    _meta: { ui: { resourceUri: "ui://charts/missing.html" } },
  },
  {
    name: "text_app",
    description: "Names an app that is not HTML",
    inputSchema: schema,
    _meta: { ui: { resourceUri: "ui://charts/notes.txt" } },
  },
  { name: "plain", description: "No app", inputSchema: schema },
];

function makeServer() {
  const server = new Server({ name: "app-server", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler("tools/list", () => ({ tools }));
  server.setRequestHandler("tools/call", (request) => {
    const bars = Array.isArray(request.params.arguments?.bars) ? request.params.arguments.bars : [];
    return {
      content: [{ type: "text", text: `drew ${bars.length} bars` }],
      structuredContent: { bars, total: bars.reduce((sum, bar) => sum + bar, 0) },
    };
  });
  server.setRequestHandler("resources/list", () => ({
    resources: [
      { uri: CHART, name: "chart", mimeType: "text/html;profile=mcp-app" },
      { uri: "ui://charts/notes.txt", name: "notes", mimeType: "text/plain" },
    ],
  }));
  server.setRequestHandler("resources/read", (request) => {
    const uri = request.params.uri;
    if (uri === CHART) {
      return { contents: [{ uri, mimeType: "text/html;profile=mcp-app", text: HTML, _meta: APP_META }] };
    }
    if (uri === "ui://charts/notes.txt") return { contents: [{ uri, mimeType: "text/plain", text: "just notes" }] };
    throw new ResourceNotFoundError(uri);
  });
  return server;
}

serveStdio(makeServer, { transport: new StdioServerTransport() });
