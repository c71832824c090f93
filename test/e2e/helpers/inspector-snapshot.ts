// The first message of an inspector page's event stream: the snapshot a page draws first.
import type { InspectorSnapshot } from "../../../src/inspector/types.js";

/** Reads the page's `events` stream at `url` until its first message, and returns it. */
export async function snapshotOf(url: string): Promise<InspectorSnapshot> {
  const controller = new AbortController();
  const response = await fetch(`${url}events`, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before a snapshot: ${text}`);
      text += decoder.decode(value, { stream: true });
      const data = /^data: (.*)$/m.exec(text);
      if (data !== null && text.includes("\n\n", data.index)) return JSON.parse(data[1] as string) as InspectorSnapshot;
    }
  } finally {
    controller.abort();
  }
}
