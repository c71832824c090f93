// nestCalls: the calls in the order the page lists them, each program's nested calls right under it, indented.

import type { CallSummary } from "../types.js";

/** One row of the list: the call, how deep it is nested, and how many calls it made itself (shown on its row). */
export interface NestedRow {
  readonly call: CallSummary;
  /** 0 for a call the model made; 1 for a call its program made, and so on. */
  readonly depth: number;
  /** The calls shown that this call's program made directly. */
  readonly nested: number;
}

/**
 * `calls` (in key order) with each call whose `parentToolCallId` names a call shown of the same session moved right
 * under that call, after the ones it made before, in key order. A call whose parent is not shown (dropped from the
 * history, or never seen) stays where it is, at depth 0. The parent is the latest shown call of that id (a call
 * resumed after a pause keeps its id). Pure.
 */
export function nestCalls(calls: readonly CallSummary[]): NestedRow[] {
  const byId = new Map<string, CallSummary>();
  const children = new Map<number, CallSummary[]>();
  const roots: CallSummary[] = [];
  for (const call of calls) {
    const parent =
      call.parentToolCallId === undefined ? undefined : byId.get(idOf(call.sessionId, call.parentToolCallId));
    if (parent === undefined) roots.push(call);
    else {
      const siblings = children.get(parent.key);
      if (siblings === undefined) children.set(parent.key, [call]);
      else siblings.push(call);
    }
    byId.set(idOf(call.sessionId, call.toolCallId), call);
  }
  const rows: NestedRow[] = [];
  // Depth first, without recursion: a long chain of programs cannot overflow the stack.
  const stack: { readonly call: CallSummary; readonly depth: number }[] = roots
    .map((call) => ({ call, depth: 0 }))
    .reverse();
  while (stack.length > 0) {
    const { call, depth } = stack.pop() as { call: CallSummary; depth: number };
    const made = children.get(call.key) ?? [];
    rows.push({ call, depth, nested: made.length });
    for (let index = made.length - 1; index >= 0; index--)
      stack.push({ call: made[index] as CallSummary, depth: depth + 1 });
  }
  return rows;
}

function idOf(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}
