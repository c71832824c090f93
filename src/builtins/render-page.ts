// renderPage: a fetched body as the model reads it: HTML as Markdown, text and JSON as text, anything else described.
import type { HtmlConversion } from "./convert-html.js";
import { formatSize } from "./truncate.js";

/** How a body was shown: `markdown` (from HTML), `text`, `html` (as it came, no converter installed), `none` (binary). */
export type PageForm = "markdown" | "text" | "html" | "none";

/** A body made readable, and a note for the model when something about it must be said. */
export interface RenderedPage {
  readonly text: string;
  readonly form: PageForm;
  readonly note?: string;
}

const TEXT_TYPES = new Set([
  "application/json",
  "application/ld+json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/x-ndjson",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-www-form-urlencoded",
  "application/graphql",
  "application/sql",
  "image/svg+xml",
]);

/** The media type of a `content-type` value, lower case, without parameters; `undefined` when there is none. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === undefined || type === "" ? undefined : type;
}

/**
 * Renders `body` by its content type: HTML through `convertHtml` (called for HTML only; as it came, with its note, when
 * the conversion is unavailable), text-like types (`text/*`, JSON, XML, YAML, JavaScript) decoded by their charset (UTF-8 when none or an
 * unknown one), a body with no content type as text when it looks like text, and anything else not shown at all but
 * described by type and size.
 */
export async function renderPage(
  contentType: string | undefined,
  body: Buffer,
  convertHtml: (html: string) => Promise<HtmlConversion>,
): Promise<RenderedPage> {
  const type = mediaTypeOf(contentType);
  if (type === "text/html" || type === "application/xhtml+xml") {
    const html = decodeText(body, contentType);
    const converted = await convertHtml(html);
    return "markdown" in converted
      ? { text: converted.markdown, form: "markdown" }
      : { text: html, form: "html", note: converted.unavailable };
  }
  if (type === undefined ? looksLikeText(body) : isTextType(type)) {
    return type === undefined
      ? { text: decodeText(body, undefined), form: "text", note: "The server sent no content type; it reads as text." }
      : { text: decodeText(body, contentType), form: "text" };
  }
  return {
    text: "",
    form: "none",
    note: `The content is ${type ?? "binary data without a content type"} (${formatSize(body.length)} read), not text: it is not shown.`,
  };
}

function isTextType(type: string): boolean {
  return type.startsWith("text/") || TEXT_TYPES.has(type) || type.endsWith("+json") || type.endsWith("+xml");
}

/** Text without NUL bytes that decodes as UTF-8 (a character cut at the end of a truncated body allowed). */
function looksLikeText(body: Buffer): boolean {
  if (body.includes(0)) return false;
  try {
    // `stream: true`: an unfinished character at the end is held back, not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(body, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function decodeText(body: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label.
    return new TextDecoder("utf-8").decode(body);
  }
}
