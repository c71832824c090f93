// Server-sent events read from a body however its bytes are split.
import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent } from "./read-server-sent-events.js";

function body(pieces: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function read(pieces: readonly string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(body(pieces))) events.push(event);
  return events;
}

describe("readServerSentEvents", () => {
  it("reads events split anywhere, CRLF halves and multi-byte characters included", async () => {
    const text = 'event: a\r\ndata: {"x":"é"}\r\n\r\n: a comment\r\ndata: one\r\ndata: two\r\n\r\n';
    const bytes = new TextEncoder().encode(text);
    // Every single-byte split: the CRLF pairs and the two bytes of "é" get cut too.
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new TextDecoder();
      const pieces = [decoder.decode(bytes.slice(0, cut), { stream: true }), decoder.decode(bytes.slice(cut))];
      expect(await read(pieces)).toEqual([{ event: "a", data: '{"x":"é"}' }, { data: "one\ntwo" }]);
    }
  });

  it("takes LF and CR line ends, skips events without data, and keeps an event the body left unterminated", async () => {
    expect(await read(["data:x\n\nevent: ping\n\ndata: y\r\rdata: z"])).toEqual([
      { data: "x" },
      { data: "y" },
      { data: "z" },
    ]);
  });

  it("cancels the body when the reader stops early", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\ndata: 2\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readServerSentEvents(stream)) {
      expect(event.data).toBe("1");
      break;
    }
    expect(cancelled).toBe(true);
  });
});
