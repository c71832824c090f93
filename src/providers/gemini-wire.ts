// Gemini wire shapes the adapter writes and reads, structural so that no one needs the SDK to use them.
import type { JsonObject } from "../core/types.js";

/**
 * One function declaration (the SDK's `FunctionDeclaration`), a fresh object on every `formatTools` call (the SDK
 * rewrites it in place). `parameters` is Gemini's schema subset as JSON, the way the REST API reads it (lowercase
 * `type` names, which the SDK also takes); absent for a tool without properties. The schema object is cached, the
 * same one every turn: do not change it.
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters?: JsonObject;
}

/** The one entry of a request's `tools` that `gemini.formatTools` gives (the SDK's `Tool`); fresh on every call. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/** Image or PDF bytes of a result, base64, named in the result's text by `displayName`. */
export interface GeminiInlineData {
  mimeType: "image/png" | "image/jpeg" | "image/webp" | "application/pdf";
  data: string;
  displayName: string;
}

/** A functionResponse part as Gemini reads it (the SDK's `Part` with a `FunctionResponse`). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    /** Only an id the model gave: made-up ids are never echoed. */
    id?: string;
    name: string;
    response: { output: string } | { error: string };
    /** Images and PDFs of the result, as inline data (Gemini 3 models read them; the text names each one). */
    parts?: { inlineData: GeminiInlineData }[];
  };
}

/** What `gemini.formatToolResults` gives: one user turn (the SDK's `Content`) of functionResponse parts. */
export interface GeminiFunctionResponseContent {
  role: "user";
  parts: GeminiFunctionResponsePart[];
}

/** A part as `gemini.parseToolCalls` reads it: a `functionCall`'s `id`, `name` and `args`. */
export interface GeminiPartLike {
  readonly functionCall?: { readonly id?: string; readonly name?: string; readonly args?: unknown };
}

/** A content (`{ role, parts }`) as `gemini.parseToolCalls` reads it. */
export interface GeminiContentLike {
  readonly parts?: readonly GeminiPartLike[];
}

/**
 * What `gemini.parseToolCalls` reads: a `generateContent` response (the SDK's `GenerateContentResponse`; its first
 * candidate counts) or a content itself.
 */
export type GeminiResponseLike =
  | { readonly candidates?: readonly { readonly content?: GeminiContentLike }[] }
  | GeminiContentLike;
