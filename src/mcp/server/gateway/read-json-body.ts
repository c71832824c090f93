// readJsonBody: a request's body read whole and parsed as JSON, or why it could not be.
import type { IncomingMessage } from "node:http";

/**
 * The body of `request` parsed as JSON; never rejects. Resolves to an `Error` for a body over `maxBytes` (the
 * request is destroyed then, nothing more is read), a body that is not JSON, or a stream that failed.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        resolve(new Error(`request body over ${maxBytes} bytes`));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        resolve(error as Error);
      }
    });
    request.on("error", (error) => resolve(error));
  });
}
