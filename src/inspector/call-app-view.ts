// callAppView: what a call's MCP App is given (its tool, its input, its result), from what the inspector kept of it.
import { isRecord } from "../core/json.js";
import type { ToolDescriptor } from "../core/types.js";
import type { CallAppView, CallDetail, CutText } from "./types.js";

/**
 * The app view of `detail`, a call of `tool` whose app `uri` is served at `src`: its input when it was kept whole
 * (a cut or dropped input is left out), and once it ended its result as a `CallToolResult` (the content as text, and
 * `details.structuredContent` when the details were kept whole).
 */
export function callAppView(
  detail: CallDetail,
  tool: ToolDescriptor,
  app: { readonly uri: string; readonly src: string; readonly meta: unknown },
): CallAppView {
  const input = wholeJson(detail.input);
  const details = wholeJson(detail.result?.details);
  const structured = isRecord(details) && isRecord(details.structuredContent) ? details.structuredContent : undefined;
  const ui = isRecord(app.meta) && isRecord(app.meta.ui) ? app.meta.ui : {};
  return {
    uri: app.uri,
    src: app.src,
    ...(typeof ui.prefersBorder === "boolean" ? { prefersBorder: ui.prefersBorder } : {}),
    tool: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
    ...(isRecord(input) ? { input } : {}),
    ...(detail.result === undefined
      ? {}
      : {
          result: {
            content: [{ type: "text" as const, text: detail.result.content.text }],
            ...(structured === undefined ? {} : { structuredContent: structured }),
            ...(detail.result.isError ? { isError: true } : {}),
          },
        }),
  };
}

function wholeJson(text: CutText | undefined): unknown {
  if (text === undefined || text.cut) return undefined;
  try {
    return JSON.parse(text.text) as unknown;
  } catch {
    return undefined;
  }
}
