import { describe, expect, it } from "vitest";
import { McpConnectionError } from "./errors.js";
import {
  type McpConnectionEvent,
  type McpConnectionState,
  nextMcpConnectionState,
  reconnectWaitMs,
} from "./mcp-connection-state.js";

interface Link {
  readonly name: string;
}

const first: Link = { name: "first" };
const second: Link = { name: "second" };
const attempt = new Promise<Link>(() => {});
const exited = new McpConnectionError("mcp-server-exited", "srv", "MCP server srv exited with code 1");

function run(...events: McpConnectionEvent<Link>[]): McpConnectionState<Link> {
  return events.reduce<McpConnectionState<Link>>(nextMcpConnectionState, { kind: "idle" });
}

const connectedToFirst: McpConnectionEvent<Link>[] = [
  { kind: "connect", attempt },
  { kind: "connected", live: first },
];

describe("nextMcpConnectionState", () => {
  it("goes idle, connecting, connected on the first connect, with no failures", () => {
    expect(run({ kind: "connect", attempt }).kind).toBe("connecting");
    expect(run(...connectedToFirst)).toEqual({ kind: "connected", live: first, failures: 0, lastFailureAt: 0 });
  });

  it("counts a lost connection as a failure, with its reason and time", () => {
    const state = run(...connectedToFirst, { kind: "lost", live: first, reason: exited, at: 100 });
    expect(state).toEqual({ kind: "lost", reason: exited, failures: 1, lastFailureAt: 100 });
  });

  it("reconnects from lost, and each failed reconnect counts one more failure", () => {
    const failed = (at: number): McpConnectionEvent<Link>[] => [
      { kind: "connect", attempt },
      { kind: "connect-failed", reason: exited, at },
    ];
    const lost: McpConnectionEvent<Link> = { kind: "lost", live: first, reason: exited, at: 100 };
    expect(run(...connectedToFirst, lost, { kind: "connect", attempt }).kind).toBe("reconnecting");
    const state = run(...connectedToFirst, lost, ...failed(200), ...failed(300));
    expect(state).toMatchObject({ kind: "lost", failures: 3, lastFailureAt: 300 });
  });

  it("keeps the failures across a reconnect that works, until a call succeeds", () => {
    const lost: McpConnectionEvent<Link> = { kind: "lost", live: first, reason: exited, at: 100 };
    const reconnected = run(
      ...connectedToFirst,
      lost,
      { kind: "connect", attempt },
      { kind: "connected", live: second },
    );
    expect(reconnected).toMatchObject({ kind: "connected", live: second, failures: 1 });
    expect(nextMcpConnectionState(reconnected, { kind: "call-succeeded" })).toMatchObject({ failures: 0 });
  });

  it("leaves the state as it is when a call succeeds with nothing to reset (the same object)", () => {
    const state = run(...connectedToFirst);
    expect(nextMcpConnectionState(state, { kind: "call-succeeded" })).toBe(state);
  });

  it("ignores the loss of a connection that is not the current one", () => {
    const state = run(...connectedToFirst);
    expect(nextMcpConnectionState(state, { kind: "lost", live: second, reason: exited, at: 1 })).toBe(state);
  });

  it("stays closed whatever happens after close, a connect that completes included", () => {
    const closed = run({ kind: "connect", attempt }, { kind: "close" });
    expect(closed).toEqual({ kind: "closed" });
    for (const event of [
      { kind: "connected", live: first },
      { kind: "connect-failed", reason: exited, at: 1 },
      { kind: "connect", attempt },
      { kind: "call-succeeded" },
    ] satisfies McpConnectionEvent<Link>[]) {
      expect(nextMcpConnectionState(closed, event)).toBe(closed);
    }
  });
});

describe("reconnectWaitMs", () => {
  const lostAt = (failures: number, lastFailureAt: number): McpConnectionState<Link> => ({
    kind: "lost",
    reason: exited,
    failures,
    lastFailureAt,
  });

  it("waits nothing for a first connect", () => {
    expect(reconnectWaitMs({ kind: "idle" }, 1000)).toBe(0);
  });

  it("waits the backoff delay of the failures, less the time since the latest", () => {
    const backoff = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect(reconnectWaitMs(lostAt(1, 1000), 1000, backoff)).toBe(100);
    expect(reconnectWaitMs(lostAt(1, 1000), 1040, backoff)).toBe(60);
    expect(reconnectWaitMs(lostAt(3, 1000), 1000, backoff)).toBe(400);
    expect(reconnectWaitMs(lostAt(1, 1000), 5000, backoff)).toBe(0);
  });
});
