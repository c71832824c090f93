// The `web_fetch` tool: GET (and, when allowed, POST) of a URL on an allowed host, read as Markdown or text, refused
// for any other host and for private addresses, with size and time caps.
import { defineTool } from "../core/register/define-tool.js";
import type { AgentTool, ToolResult } from "../core/types.js";
import { toolError } from "./builtin-context.js";
import { convertHtml } from "./convert-html.js";
import { type FetchedPage, fetchPage } from "./fetch-page.js";
import { type RenderedPage, renderPage } from "./render-page.js";
import { formatSize } from "./truncate.js";
import { WebFetchError, type WebFetchErrorCode } from "./web-fetch-error.js";
import { type ResolvedWebFetchOptions, resolveWebFetchOptions, type WebFetchOptions } from "./web-fetch-options.js";

/** The name of the tool `createWebFetchTool` makes. */
export const WEB_FETCH_TOOL_NAME = "web_fetch";

/** What `web_fetch` reports to programs beside the text. */
export interface WebFetchDetails {
  /** The URL the call asked for. */
  readonly url: string;
  readonly method: "GET" | "POST";
  /** Set when the call was refused or failed (the result is then an error). */
  readonly code?: WebFetchErrorCode;
  /** The URL that answered, after redirects. */
  readonly finalUrl?: string;
  readonly status?: number;
  /** The `content-type` as the server sent it. */
  readonly contentType?: string;
  /** Bytes of body read (decoded when the server compressed it). */
  readonly bytes?: number;
  /** True when the body was longer than `maxBytes` and was cut there. */
  readonly truncated?: boolean;
  /** Each redirect followed: the URL that redirected, and its status. */
  readonly redirects?: readonly { readonly url: string; readonly status: number }[];
  /** How the body was shown: `markdown` (from HTML), `text`, `html` (as it came), `none` (not text). */
  readonly form?: "markdown" | "text" | "html" | "none";
}

interface WebFetchInput {
  readonly url: string;
  readonly method?: "GET" | "POST";
  readonly body?: string;
  readonly contentType?: string;
}

/**
 * Builds the `web_fetch` tool, owned `{ kind: "core" }`, `trust: "untrusted"` (what it returns comes from outside),
 * `effects: "none"` (`"external"` with `allowPost`). It fetches http(s) URLs whose host `allowHosts` names, follows
 * redirects itself (each hop checked the same way), connects only to addresses that pass the check (made on the
 * resolved addresses, so a name that resolves to 127.0.0.1 is refused), reads at most `maxBytes` within `timeoutMs`,
 * sends no cookies or credentials and a fixed User-Agent. A refusal or failure is an error result with `details.code`.
 * Throws `BuiltinToolsError` `invalid-option` for options it cannot use.
 */
export function createWebFetchTool(options: WebFetchOptions): AgentTool {
  const settings = resolveWebFetchOptions(options);
  return defineTool({
    name: WEB_FETCH_TOOL_NAME,
    title: "Fetch a web page",
    description: describeTool(settings),
    inputSchema: inputSchemaFor(settings.allowPost),
    annotations: { readOnlyHint: !settings.allowPost, openWorldHint: true },
    trust: "untrusted", // what it returns comes from outside the conversation
    effects: settings.allowPost ? "external" : "none",
    executionMode: "parallel",
    // Longer than its own limit, so that its own message (what was slow) is the one the model reads.
    timeoutMs: Math.min(settings.timeoutMs + 5000, 2_147_483_647),
    async execute(input: WebFetchInput, context): Promise<ToolResult<WebFetchDetails>> {
      const started = performance.now();
      const method = input.method ?? "GET";
      const asked = { url: input.url, method } as const;
      if (method === "POST" && !settings.allowPost) {
        return failure(
          asked,
          new WebFetchError(
            "method-not-allowed",
            "web_fetch may only GET here: POST is off in its settings (allowPost). Fetch the page with GET instead.",
          ),
        );
      }
      if (method === "GET" && input.body !== undefined) {
        throw toolError(
          WEB_FETCH_TOOL_NAME,
          "A body is sent only with method POST; leave it out for GET.",
          "invalid-input",
        );
      }
      let page: FetchedPage;
      try {
        page = await fetchPage(
          {
            url: input.url,
            method,
            ...(input.body === undefined ? {} : { body: input.body }),
            ...(input.contentType === undefined ? {} : { contentType: input.contentType }),
          },
          settings,
          context.signal,
        );
      } catch (error) {
        if (error instanceof WebFetchError) return failure(asked, error);
        throw error;
      }
      const left = settings.timeoutMs - (performance.now() - started);
      const rendered = await renderPage(page.contentType, page.body, (html) => convertHtml(html, left, context.signal));
      return present(asked, page, rendered, settings);
    },
  });
}

function present(
  asked: { readonly url: string; readonly method: "GET" | "POST" },
  page: FetchedPage,
  rendered: RenderedPage,
  settings: ResolvedWebFetchOptions,
): ToolResult<WebFetchDetails> {
  const shownAs = rendered.form === "markdown" ? ", shown as Markdown" : "";
  const lines = [
    `${page.status} ${page.statusText} from ${page.url} (${page.contentType ?? "no content type"}, ${formatSize(page.body.length)}${shownAs}).`,
  ];
  if (page.redirects.length > 0) {
    lines.push(`Redirected: ${page.redirects.map((hop) => `${hop.url} (${hop.status})`).join(" → ")} → ${page.url}.`);
  }
  if (page.truncated) {
    const of = page.declaredBytes === undefined ? "" : ` of ${formatSize(page.declaredBytes)}`;
    lines.push(`Cut at ${formatSize(settings.maxBytes)}${of}: the rest was not read.`);
  }
  if (rendered.note !== undefined) lines.push(rendered.note);
  const text = rendered.text === "" ? lines.join("\n") : `${lines.join("\n")}\n\n${rendered.text}`;
  const details: WebFetchDetails = {
    ...asked,
    finalUrl: page.url,
    status: page.status,
    ...(page.contentType === undefined ? {} : { contentType: page.contentType }),
    bytes: page.body.length,
    truncated: page.truncated,
    redirects: page.redirects,
    form: rendered.form,
  };
  return {
    content: [{ type: "text", text }],
    details,
    ...(page.status >= 400 ? { isError: true } : {}),
  };
}

function failure(
  asked: { readonly url: string; readonly method: "GET" | "POST" },
  error: WebFetchError,
): ToolResult<WebFetchDetails> {
  return { content: [{ type: "text", text: error.message }], details: { ...asked, code: error.code }, isError: true };
}

function describeTool(settings: ResolvedWebFetchOptions): string {
  const hosts = settings.allowHosts.length === 0 ? "none (every URL is refused)" : settings.allowHosts.join(", ");
  return [
    `Fetch a web page or API answer over http(s) and read it: HTML comes back as Markdown, text and JSON as text, other content only described.`,
    `Only these hosts (*.x means any subdomain of x): ${hosts}.`,
    `Reads at most ${formatSize(settings.maxBytes)} within ${Math.round(settings.timeoutMs / 1000)} s; follows up to ${settings.maxRedirects} redirects.`,
    settings.allowPost ? "GET by default; POST with a body when method is POST." : "GET only.",
  ].join(" ");
}

function inputSchemaFor(allowPost: boolean) {
  const url = {
    type: "string",
    minLength: 1,
    maxLength: 8192,
    description: "The http:// or https:// URL to fetch.",
  } as const;
  if (!allowPost)
    return { type: "object", properties: { url }, required: ["url"], additionalProperties: false } as const;
  return {
    type: "object",
    properties: {
      url,
      method: { type: "string", enum: ["GET", "POST"], description: "Default GET." },
      body: { type: "string", description: "The request body, sent with POST only." },
      contentType: {
        type: "string",
        pattern: "^[\\x20-\\x7e]{1,200}$",
        description: 'The body\'s content type. Default "text/plain; charset=utf-8".',
      },
    },
    required: ["url"],
    additionalProperties: false,
  } as const;
}
