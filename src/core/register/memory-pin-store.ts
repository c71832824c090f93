// The default pin store: a registry's own, in memory, gone with it.
import type { ToolPin, ToolPinEntry, ToolPinStore } from "../types.js";

/** A pin store in memory (a registry's default): pins last as long as the store. */
export function createMemoryPinStore(): ToolPinStore {
  const servers = new Map<string, Map<string, ToolPin>>();
  return {
    get: (serverId, toolName) => servers.get(serverId)?.get(toolName),
    set(entries) {
      for (const { serverId, toolName, pin } of entries) {
        const tools = servers.get(serverId) ?? new Map<string, ToolPin>();
        tools.set(toolName, pin);
        servers.set(serverId, tools);
      }
    },
    entries() {
      const entries: ToolPinEntry[] = [];
      for (const [serverId, tools] of servers) {
        for (const [toolName, pin] of tools) entries.push({ serverId, toolName, pin });
      }
      return entries.sort(compareEntries);
    },
  };
}

/** By server id, then tool name, comparing UTF-16 code units (the same on every machine and locale). */
export function compareEntries(a: ToolPinEntry, b: ToolPinEntry): number {
  if (a.serverId !== b.serverId) return a.serverId < b.serverId ? -1 : 1;
  return a.toolName < b.toolName ? -1 : a.toolName > b.toolName ? 1 : 0;
}
