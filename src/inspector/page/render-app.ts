// A call's MCP App in a sandboxed frame, spoken to as the MCP Apps extension says (JSON-RPC over postMessage): it is
// answered ui/initialize, then given the call's input and result; the page proxies nothing else for it.
import type { CallAppView } from "../types.js";
import { el, replaceChildren } from "./dom.js";

/** The MCP Apps revision the page speaks to apps. */
const APPS_PROTOCOL = "2026-01-26";
/** The tallest an app may make its frame, in CSS pixels. */
const MAX_HEIGHT = 800;

/** A box that shows the app of the call `key`, fetched now; says why when it cannot be shown. */
export function renderApp(key: number, uri: string): HTMLElement {
  const box = el("div", { class: "call-app" }, el("h4", null, "App ", el("span", { class: "size" }, uri)));
  const body = el("div", { class: "call-app-body" }, el("p", { class: "note" }, "Loading the app…"));
  box.append(body);
  void loadApp(key, body);
  return box;
}

async function loadApp(key: number, body: HTMLElement): Promise<void> {
  let view: CallAppView | undefined;
  let failure = "The app could not be loaded.";
  try {
    const response = await fetch(`./calls/${key}/app`, { headers: { Accept: "application/json" } });
    if (response.ok) view = (await response.json()) as CallAppView;
    else failure = await response.text();
  } catch {
    // the server went away
  }
  if (view === undefined) {
    replaceChildren(body, el("p", { class: "note" }, failure));
    return;
  }
  // allow-scripts without allow-same-origin: the app runs in an opaque origin, away from the page, its API and its
  // storage; its document is served with its own policy (only the origins it declared).
  const frame = el("iframe", {
    class: view.prefersBorder === false ? "app-frame borderless" : "app-frame",
    attrs: { sandbox: "allow-scripts", src: view.src, title: `App ${view.uri}`, referrerpolicy: "no-referrer" },
  });
  replaceChildren(body, frame);
  connectApp(frame, view);
}

/** Answers the app's messages until its frame leaves the page. */
function connectApp(frame: HTMLIFrameElement, view: CallAppView): void {
  const send = (message: Record<string, unknown>) =>
    // An opaque origin has no name to target: the message goes to this frame's window only.
    frame.contentWindow?.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const listener = (event: MessageEvent) => {
    if (!frame.isConnected) {
      window.removeEventListener("message", listener);
      return;
    }
    if (event.source !== frame.contentWindow) return;
    const message = event.data as { id?: unknown; method?: unknown; params?: unknown } | null;
    if (typeof message !== "object" || message === null || typeof message.method !== "string") return;
    const { id, method } = message;
    const answers = typeof id === "string" || typeof id === "number";
    if (method === "ui/initialize" && answers) {
      send({
        id,
        result: {
          protocolVersion: APPS_PROTOCOL,
          hostInfo: { name: "toolwire inspector", version: "1" },
          hostCapabilities: {},
          hostContext: {
            toolInfo: { tool: view.tool },
            theme: "light",
            displayMode: "inline",
            availableDisplayModes: ["inline"],
            platform: "web",
            containerDimensions: { maxHeight: MAX_HEIGHT },
          },
        },
      });
    } else if (method === "ui/notifications/initialized") {
      if (view.input !== undefined) send({ method: "ui/notifications/tool-input", params: { arguments: view.input } });
      if (view.result !== undefined) send({ method: "ui/notifications/tool-result", params: view.result });
    } else if (method === "ui/notifications/size-changed") {
      const height = (message.params as { height?: unknown } | undefined)?.height;
      if (typeof height === "number" && height > 0) frame.style.height = `${Math.min(Math.ceil(height), MAX_HEIGHT)}px`;
    } else if (method === "ping" && answers) {
      send({ id, result: {} });
    } else if (answers) {
      send({ id, error: { code: -32601, message: `The inspector only shows apps: ${method} is not offered` } });
    }
  };
  window.addEventListener("message", listener);
}
