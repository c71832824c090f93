// openEventStream: one Server-Sent Events response: JSON messages, a heartbeat, and an end for a reader too slow.
import type { ServerResponse } from "node:http";

/** One open stream. */
export interface EventStream {
  /** Sends one message as a `data:` line of JSON. Ignored once the stream has ended. */
  send(message: unknown): void;
  /** Ends the response. */
  close(): void;
  readonly closed: boolean;
}

/**
 * Starts the response as `text/event-stream` and returns its stream. A comment goes out every `heartbeatMs` (so
 * idle connections stay open through proxies and the page notices a dead server). A reader that lets more than
 * `maxBufferedBytes` pile up is cut off: its page reconnects and starts again from a fresh snapshot. `onClose`
 * runs once, however the stream ends.
 */
export function openEventStream(
  response: ServerResponse,
  options: { readonly heartbeatMs: number; readonly maxBufferedBytes: number; readonly onClose: () => void },
): EventStream {
  response.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
    "X-Content-Type-Options": "nosniff",
  });
  response.write("retry: 1000\n\n");
  let closed = false;
  const heartbeat = setInterval(() => write(": ping\n\n"), options.heartbeatMs);
  heartbeat.unref();
  const end = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    options.onClose();
  };
  const write = (text: string) => {
    if (closed) return;
    if (response.writableLength > options.maxBufferedBytes) {
      stream.close();
      return;
    }
    response.write(text);
  };
  response.on("close", end);
  const stream: EventStream = {
    send(message) {
      write(`data: ${JSON.stringify(message)}\n\n`);
    },
    close() {
      end();
      response.end();
    },
    get closed() {
      return closed;
    },
  };
  return stream;
}
