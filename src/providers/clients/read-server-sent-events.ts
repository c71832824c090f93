// Server-sent events from a fetch body, as the streaming model APIs send them: one event per blank-line-ended block.

const LINE_END = /\r\n|\r|\n/g;

/** One event: its `event:` name when it had one, and its `data:` lines joined by newlines. */
export interface ServerSentEvent {
  readonly event?: string;
  readonly data: string;
}

/**
 * The events of a `text/event-stream` body in order (LF, CRLF or CR line ends; `:` comments and events without
 * data skipped; an event left unterminated when the body ends still counts). Stopping early cancels the body.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event: string | undefined;
  const take = (line: string): ServerSentEvent | undefined => {
    if (line === "") {
      const complete =
        data.length === 0 ? undefined : { ...(event === undefined ? {} : { event }), data: data.join("\n") };
      data = [];
      event = undefined;
      return complete;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    return undefined;
  };
  let finished = false;
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      finished = done;
      buffer += finished ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      while (true) {
        LINE_END.lastIndex = start;
        const end = LINE_END.exec(buffer);
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (end === null || (!finished && end[0] === "\r" && end.index === buffer.length - 1)) break;
        const complete = take(buffer.slice(start, end.index));
        start = end.index + end[0].length;
        if (complete !== undefined) yield complete;
      }
      buffer = buffer.slice(start);
    }
    if (buffer !== "") take(buffer);
    const last = take("");
    if (last !== undefined) yield last;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
