// A 2025 session's SSE events, kept so a client that lost its stream can resume it with Last-Event-ID.
import type { EventStore, JSONRPCMessage } from "@modelcontextprotocol/server";

/** The most events one session keeps; older ones are dropped (a resume from before them replays nothing). */
const MAX_KEPT_EVENTS = 1_000;

/**
 * An event store in memory, for one session: event ids are `<stream>:<n>`, and at most `maxEvents` are
 * kept, oldest dropped first, so an abandoned session holds a bounded amount.
 */
export function createMemoryEventStore(maxEvents = MAX_KEPT_EVENTS): EventStore {
  const events = new Map<string, { readonly streamId: string; readonly message: JSONRPCMessage }>();
  let next = 0;
  return {
    async storeEvent(streamId, message) {
      const eventId = `${streamId}:${++next}`;
      events.set(eventId, { streamId, message });
      if (events.size > maxEvents) events.delete(events.keys().next().value as string);
      return eventId;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (last === undefined) return "";
      let after = false;
      for (const [eventId, event] of events) {
        if (after && event.streamId === last.streamId) await send(eventId, event.message);
        if (eventId === lastEventId) after = true;
      }
      return last.streamId;
    },
  };
}
