// The AI SDK's tool output for the model (a `toModelOutput` answer) as a toolwire result.
import type { ContentBlock, ToolResult } from "../../core/types.js";
import type { AiSdkToolResultOutput } from "./to-ai-sdk-model-output.js";

type ContentPart = Extract<AiSdkToolResultOutput, { type: "content" }>["value"][number];

/**
 * A toolwire result for what an AI SDK tool shows the model: `text` and `json` as one text block (JSON as its
 * text); `error-text`, `error-json` and `execution-denied` the same, marked `isError`; `content` part by part
 * (text; image data as image blocks; other file data as image, audio or embedded resource blocks by media type;
 * image and file URLs as resource links; provider file ids and custom parts described in a line).
 * `details` is set when given: the tool's raw output, for programs.
 */
export function fromAiSdkModelOutput(output: AiSdkToolResultOutput, details?: unknown): ToolResult {
  const result = (content: ContentBlock[], isError = false): ToolResult => ({
    content,
    ...(details === undefined ? {} : { details }),
    ...(isError ? { isError: true } : {}),
  });
  const text = (value: string): ContentBlock[] => [{ type: "text", text: value }];
  switch (output.type) {
    case "text":
      return result(text(output.value));
    case "json":
      return result(text(JSON.stringify(output.value) ?? "null"));
    case "error-text":
      return result(text(output.value), true);
    case "error-json":
      return result(text(JSON.stringify(output.value) ?? "null"), true);
    case "execution-denied":
      return result(text(`Tool execution denied${output.reason === undefined ? "" : `: ${output.reason}`}`), true);
    case "content":
      return result(output.value.map(fromContentPart));
  }
  return result(text(JSON.stringify(output) ?? "null"));
}

function fromContentPart(part: ContentPart): ContentBlock {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image-data":
      return { type: "image", data: part.data, mimeType: part.mediaType };
    case "media":
    case "file-data":
      return fromFileData(part.data, part.mediaType, part.type === "file-data" ? part.filename : undefined);
    case "image-url":
      return linkTo(part.url, undefined);
    case "file-url":
      return linkTo(part.url, part.mediaType);
    case "file-id":
    case "image-file-id":
      return { type: "text", text: `[provider file ${JSON.stringify(part.fileId)}; not shown here]` };
  }
  return { type: "text", text: `[${part.type} content; not shown here]` };
}

function fromFileData(data: string, mediaType: string, filename: string | undefined): ContentBlock {
  if (mediaType.startsWith("image/")) return { type: "image", data, mimeType: mediaType };
  if (mediaType.startsWith("audio/")) return { type: "audio", data, mimeType: mediaType };
  return { type: "resource", resource: { uri: filename ?? "file", mimeType: mediaType, blob: data } };
}

function linkTo(url: string, mediaType: string | undefined): ContentBlock {
  const path = url.replace(/[?#].*$/, "");
  const name = path.slice(path.lastIndexOf("/") + 1) || url;
  return { type: "resource_link", uri: url, name, ...(mediaType === undefined ? {} : { mimeType: mediaType }) };
}
