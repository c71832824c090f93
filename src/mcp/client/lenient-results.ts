// Result schemas for the SDK that accept what the bridge checks itself: one bad tool or block must not fail everything.
import type { StandardSchemaV1 } from "@modelcontextprotocol/client";

/** Accepts any object whose `field` is an array; the bridge reads each element itself. */
function objectWithArray<T>(field: string, what: string): StandardSchemaV1<unknown, T> {
  return {
    "~standard": {
      version: 1,
      vendor: "toolwire",
      validate(value: unknown) {
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          const list = (value as Record<string, unknown>)[field];
          if (list === undefined || Array.isArray(list)) return { value: value as T };
        }
        return { issues: [{ message: `${what} is not an object with a "${field}" list` }] };
      },
    },
  };
}

/** A `tools/list` page as sent: tools are checked one by one, so a broken one is skipped, not the page. */
interface ToolListPage {
  readonly tools?: readonly unknown[];
  readonly nextCursor?: unknown;
  /** 2026-07-28: how long the page may be kept, in ms (read by `listAllTools`). */
  readonly ttlMs?: unknown;
}

/** A `tools/call` result as sent: every block and field is read by `mapCallToolResult`. */
export interface CallResultAsSent {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
}

export const TOOL_LIST_PAGE = objectWithArray<ToolListPage>("tools", "the tools/list result");
export const CALL_RESULT_AS_SENT = objectWithArray<CallResultAsSent>("content", "the tools/call result");
