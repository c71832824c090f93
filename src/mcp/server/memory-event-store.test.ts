import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./memory-event-store.js";

const message = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

describe("createMemoryEventStore", () => {
  it("replays the events of the same stream after the given one, in order", async () => {
    const store = createMemoryEventStore();
    const a1 = await store.storeEvent("a", message(1));
    await store.storeEvent("b", message(2));
    const a3 = await store.storeEvent("a", message(3));
    const a4 = await store.storeEvent("a", message(4));
    const sent: [string, JSONRPCMessage][] = [];
    const stream = await store.replayEventsAfter(a1, { send: async (id, event) => void sent.push([id, event]) });
    expect(stream).toBe("a");
    expect(sent).toEqual([
      [a3, message(3)],
      [a4, message(4)],
    ]);
    expect(await store.getStreamIdForEventId?.(a3)).toBe("a");
  });

  it("keeps at most maxEvents, dropping the oldest; an unknown id replays nothing", async () => {
    const store = createMemoryEventStore(2);
    const first = await store.storeEvent("s", message(1));
    await store.storeEvent("s", message(2));
    await store.storeEvent("s", message(3));
    const sent: string[] = [];
    expect(await store.replayEventsAfter(first, { send: async (id) => void sent.push(id) })).toBe("");
    expect(sent).toEqual([]);
    expect(await store.getStreamIdForEventId?.(first)).toBeUndefined();
  });
});
