// ownerLabel: who owns a tool in a few characters, as `toolwire plan` and the inspector show it (`mcp:github`).
import type { ToolOwnerRef } from "../types.js";

/** `core`, `plugin:<id>`, `channel:<id>` or `mcp:<server id>`: the policy pattern's spelling of the owner. */
export function ownerLabel(owner: ToolOwnerRef): string {
  switch (owner.kind) {
    case "core":
      return "core";
    case "plugin":
      return `plugin:${owner.pluginId}`;
    case "channel":
      return `channel:${owner.channelId}`;
    case "mcp":
      return `mcp:${owner.serverId}`;
  }
}
