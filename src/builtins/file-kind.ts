// Sniffing file contents: images by their magic bytes, binary by NUL bytes or invalid UTF-8.
import { isUtf8 } from "node:buffer";

/** How many leading bytes the binary check looks at (the same window git uses). */
export const SNIFF_BYTES = 8000;

/** The image MIME type of a buffer's magic bytes, or `undefined` when it is not a known image. */
export function sniffImageMimeType(head: Uint8Array): string | undefined {
  const starts = (bytes: readonly number[], at = 0) => bytes.every((byte, index) => head[at + index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/**
 * Whether bytes look binary: a NUL byte, or bytes that are not UTF-8. A multi-byte character cut
 * at the end of the window is not counted against it.
 */
export function looksBinary(head: Uint8Array): boolean {
  if (head.includes(0)) return true;
  if (isUtf8(head)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** Text decoded from bytes (a BOM kept), or `undefined` when they are not UTF-8 text (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
