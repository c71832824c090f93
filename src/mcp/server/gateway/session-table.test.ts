import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { McpServeError } from "../errors.js";
import { createSessionTable, type SessionTable, type SessionTableOptions } from "./session-table.js";

type Reason = "idle" | "deleted" | "closed";

/** A table on a fake clock, with every disposal recorded. */
function tableWith(options: Partial<SessionTableOptions<string>> = {}) {
  const clock = { now: 0 };
  const disposed: [string, string, Reason][] = [];
  const table = createSessionTable<string>({
    idleTimeoutMs: 60_000,
    now: () => clock.now,
    dispose: (value, id, reason) => void disposed.push([value, id, reason]),
    ...options,
  });
  tables.push(table);
  return { table, clock, disposed };
}

const tables: SessionTable<unknown>[] = [];
afterEach(async () => {
  await Promise.all(tables.splice(0).map((table) => table.close()));
});

function open(table: SessionTable<string>, principal: string, id: string) {
  expect(table.reserve(principal)).toEqual({ ok: true });
  table.add(principal, id, `value of ${id}`);
}

describe("createSessionTable", () => {
  it("finds a session for its owner, says forbidden to another principal, and not-found for an unknown id", () => {
    const { table } = tableWith();
    open(table, "alice", "s1");
    expect(table.get("s1", "alice")).toEqual({ kind: "found", value: "value of s1" });
    expect(table.get("s1", "bob")).toEqual({ kind: "forbidden" });
    expect(table.get("s2", "alice")).toEqual({ kind: "not-found" });
    expect(table.size).toBe(1);
    expect(table.countFor("alice")).toBe(1);
    expect(table.countFor("bob")).toBe(0);
  });

  it("expires a session no get has touched for idleTimeoutMs, and a get by its owner starts the time over", () => {
    const { table, clock, disposed } = tableWith();
    open(table, "alice", "used");
    open(table, "alice", "abandoned");
    clock.now = 59_999;
    expect(table.get("used", "alice").kind).toBe("found");
    table.sweep();
    expect(disposed).toEqual([]);
    clock.now = 60_000;
    table.sweep();
    expect(disposed).toEqual([["value of abandoned", "abandoned", "idle"]]);
    expect(table.get("used", "alice").kind).toBe("found");
    expect(table.size).toBe(1);
  });

  it("a get by another principal does not keep a session alive", () => {
    const { table, clock, disposed } = tableWith();
    open(table, "alice", "s1");
    clock.now = 30_000;
    expect(table.get("s1", "bob").kind).toBe("forbidden");
    clock.now = 60_000;
    table.sweep();
    expect(disposed.map(([, id, reason]) => [id, reason])).toEqual([["s1", "idle"]]);
  });

  it("answers not-found for an idle session before any sweep, and disposes it then", () => {
    const { table, clock, disposed } = tableWith();
    open(table, "alice", "s1");
    clock.now = 60_000;
    expect(table.get("s1", "alice")).toEqual({ kind: "not-found" });
    expect(disposed).toEqual([["value of s1", "s1", "idle"]]);
    expect(table.size).toBe(0);
  });

  it("refuses a principal at maxPerPrincipal, counting reservations, with the seconds until its soonest expiry", () => {
    const { table, clock } = tableWith({ maxPerPrincipal: 2 });
    open(table, "alice", "s1");
    clock.now = 10_000;
    expect(table.reserve("alice")).toEqual({ ok: true });
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "principal", retryAfterSeconds: 50 });
    expect(table.reserve("bob")).toEqual({ ok: true });
    table.add("alice", "s2", "value of s2");
    clock.now = 20_500;
    // s1 was last used at 0: it expires at 60 s, 39.5 s from now.
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "principal", retryAfterSeconds: 40 });
    clock.now = 25_000;
    expect(table.get("s1", "alice").kind).toBe("found");
    // Now s2 (used at 10 s) is the first to expire.
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "principal", retryAfterSeconds: 45 });
  });

  it("refuses everyone at max with limit all and the seconds until the soonest expiry of all", () => {
    const { table, clock } = tableWith({ max: 2 });
    open(table, "alice", "s1");
    clock.now = 5_000;
    open(table, "bob", "s2");
    expect(table.reserve("carol")).toEqual({ ok: false, limit: "all", retryAfterSeconds: 55 });
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "all", retryAfterSeconds: 55 });
  });

  it("says retry after 1 second when the cap is held by reservations only, or a session is about to expire", () => {
    const { table, clock } = tableWith({ maxPerPrincipal: 1, max: 2 });
    expect(table.reserve("alice")).toEqual({ ok: true });
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "principal", retryAfterSeconds: 1 });
    table.add("alice", "s1", "v");
    clock.now = 59_999;
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "principal", retryAfterSeconds: 1 });
  });

  it("at a cap, expires idle sessions first and then reserves", () => {
    const { table, clock, disposed } = tableWith({ maxPerPrincipal: 1 });
    open(table, "alice", "s1");
    clock.now = 60_000;
    expect(table.reserve("alice")).toEqual({ ok: true });
    expect(disposed).toEqual([["value of s1", "s1", "idle"]]);
  });

  it("cancel gives a reservation back, and does nothing without one", () => {
    const { table } = tableWith({ maxPerPrincipal: 1 });
    expect(table.reserve("alice").ok).toBe(true);
    table.cancel("alice");
    table.cancel("alice");
    expect(table.reserve("alice").ok).toBe(true);
    expect(table.reserve("alice").ok).toBe(false);
  });

  it("delete disposes with reason deleted and frees the place; a second delete finds nothing", () => {
    const { table, disposed } = tableWith({ maxPerPrincipal: 1 });
    open(table, "alice", "s1");
    expect(table.delete("s1")).toBe(true);
    expect(table.delete("s1")).toBe(false);
    expect(disposed).toEqual([["value of s1", "s1", "deleted"]]);
    expect(table.reserve("alice").ok).toBe(true);
  });

  it("throws on add without a reservation or with an id already taken", () => {
    const { table } = tableWith();
    expect(() => table.add("alice", "s1", "v")).toThrow("without a reserve()");
    open(table, "alice", "s1");
    table.reserve("bob");
    expect(() => table.add("bob", "s1", "v")).toThrow('the session id "s1" is already taken');
    expect(table.get("s1", "alice")).toEqual({ kind: "found", value: "value of s1" });
  });

  it("close disposes every session with reason closed and waits for async disposals", async () => {
    const finished: string[] = [];
    const table = createSessionTable<string>({
      dispose: async (_value, id, reason) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        finished.push(`${id}:${reason}`);
      },
    });
    table.reserve("alice");
    table.add("alice", "s1", "v");
    table.reserve("bob");
    table.add("bob", "s2", "v");
    table.reserve("bob");
    table.add("bob", "s3", "v");
    table.delete("s3");
    await table.close();
    expect(finished.sort()).toEqual(["s1:closed", "s2:closed", "s3:deleted"]);
    expect(table.size).toBe(0);
  });

  it("after close, refuses reservations and disposes a session added from an earlier reservation at once", async () => {
    const { table, disposed } = tableWith();
    expect(table.reserve("alice").ok).toBe(true);
    await table.close();
    table.add("alice", "late", "value of late");
    expect(disposed).toEqual([["value of late", "late", "closed"]]);
    expect(table.size).toBe(0);
    expect(table.reserve("alice")).toEqual({ ok: false, limit: "all", retryAfterSeconds: 1 });
  });

  it("swallows a dispose that throws or rejects, and still disposes the others", async () => {
    const seen: string[] = [];
    const table = createSessionTable<string>({
      dispose: (_value, id) => {
        seen.push(id);
        if (id === "throws") throw new Error("dispose threw");
        if (id === "rejects") return Promise.reject(new Error("dispose rejected"));
      },
    });
    for (const id of ["throws", "rejects", "fine"]) {
      table.reserve("alice");
      table.add("alice", id, "v");
    }
    expect(table.delete("throws")).toBe(true);
    await table.close();
    expect(seen).toEqual(["throws", "rejects", "fine"]);
  });

  it("its sweep timer never keeps the process up", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
    const before = timers();
    const { table } = tableWith();
    open(table, "alice", "s1");
    expect(timers()).toBe(before);
    table.delete("s1");
    await table.close();
  });

  it("expires an idle session on its own, by the real clock and timer", async () => {
    let expire!: (disposal: [string, Reason]) => void;
    const expired = new Promise<[string, Reason]>((resolve) => {
      expire = resolve;
    });
    const table = createSessionTable<string>({
      idleTimeoutMs: 80,
      dispose: (_value, id, reason) => expire([id, reason]),
    });
    tables.push(table);
    table.reserve("alice");
    table.add("alice", "s1", "v");
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve("no expiry within 2 s"), 2_000);
    });
    expect(await Promise.race([expired, timeout])).toEqual(["s1", "idle"]);
    clearTimeout(timer);
    expect(performance.now() - started).toBeGreaterThanOrEqual(79);
    expect(table.size).toBe(0);
  });

  it("lets go of 2,000 abandoned sessions of about 45 KB each once they expire", async () => {
    const gc = exposeGc();
    let disposedCount = 0;
    const clock = { now: 0 };
    const table = createSessionTable<{ readonly payload: string }>({
      now: () => clock.now,
      dispose: () => {
        disposedCount++;
      },
    });
    tables.push(table as SessionTable<unknown>);
    const refs = abandonSessions(table, 2_000);
    expect(table.size).toBe(2_000);
    // Let the turn that made the WeakRefs end: until then they hold their targets.
    await new Promise((resolve) => setImmediate(resolve));
    const heapBefore = process.memoryUsage().heapUsed;
    clock.now = 1_800_000;
    table.sweep();
    expect(table.size).toBe(0);
    expect(disposedCount).toBe(2_000);
    for (let i = 0; i < 2_000; i++) expect(table.countFor(`principal-${i % 50}`)).toBe(0);
    if (gc !== undefined) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(refs.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
      // 2,000 x 45 KB is about 90 MB; nearly all of it is back.
      expect(heapBefore - process.memoryUsage().heapUsed).toBeGreaterThan(80_000_000);
    }
  });

  it.each([
    [{ idleTimeoutMs: 0 }, "sessions.idleTimeoutMs"],
    [{ idleTimeoutMs: Number.POSITIVE_INFINITY }, "sessions.idleTimeoutMs"],
    [{ maxPerPrincipal: 0 }, "sessions.maxPerPrincipal"],
    [{ max: 1.5 }, "sessions.max"],
  ])("refuses %o with invalid-serve-options", (options, named) => {
    let thrown: unknown;
    try {
      createSessionTable({ dispose: () => undefined, ...options });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpServeError);
    expect((thrown as McpServeError).code).toBe("invalid-serve-options");
    expect((thrown as McpServeError).message).toContain(named);
  });
});

/** Opens `count` sessions whose values hold about 45 KB each, keeping only WeakRefs to the values. */
function abandonSessions(table: SessionTable<{ readonly payload: string }>, count: number): WeakRef<object>[] {
  const refs: WeakRef<object>[] = [];
  for (let i = 0; i < count; i++) {
    // A flat string of 45,000 one-byte characters (a padded or repeated string would share its filler).
    const value = { payload: randomBytes(22_500).toString("hex") };
    refs.push(new WeakRef(value));
    const principal = `principal-${i % 50}`;
    expect(table.reserve(principal).ok).toBe(true);
    table.add(principal, `session-${i}`, value);
  }
  return refs;
}

/** The V8 garbage collector as a function, turned on for this process (as `--expose-gc` would). */
function exposeGc(): (() => void) | undefined {
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    return undefined;
  }
}
