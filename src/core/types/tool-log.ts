// The log messages a call sends (`context.log`), as listeners and a dispatch's `onLog` get them.
import type { JsonValue } from "./json.js";

/** Log levels, least severe first (syslog's, as MCP uses them). */
export type ToolLogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** One log message of a call, as `tool_log` listeners and `DispatchOptions.onLog` get it. */
export interface ToolLogEvent {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly level: ToolLogLevel;
  readonly data: JsonValue;
  readonly logger?: string;
}
