import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIFO_RUNS, makeFifo, readFifo } from "../../../../test/support/fifo.js";
import { inputDigest } from "../../../core/approve/input-digest.js";
import { McpServeError } from "../errors.js";
import type { AuditRecord } from "./audit-line.js";
import { openAuditLog } from "./audit-log.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-audit-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (n: number, input: unknown = { path: `file-${n}.txt` }): AuditRecord => ({
  time: "2026-08-01T12:00:00.000Z",
  principal: "alice",
  tool: "read",
  toolCallId: `call-${n}`,
  outcome: "ok",
  durationMs: 3,
  input,
});

const linesOf = async (file: string) =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function openFailure(file: string): Promise<McpServeError> {
  try {
    await openAuditLog({ file });
  } catch (error) {
    return error as McpServeError;
  }
  throw new Error(`openAuditLog(${file}) opened`);
}

describe("openAuditLog", () => {
  it("writes one JSON line per call with the documented fields in order, the input only as its digest", async () => {
    const file = join(dir, "audit.jsonl");
    const log = await openAuditLog({ file });
    log.record(call(1, { path: "a.txt", limit: 10 }));
    log.record({ ...call(2), outcome: "tool-not-found", durationMs: 0.4 });
    await log.close();
    const text = await readFile(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    const [first, second] = await linesOf(file);
    expect(Object.keys(first!)).toEqual([
      "time",
      "principal",
      "tool",
      "toolCallId",
      "inputDigest",
      "outcome",
      "durationMs",
    ]);
    expect(first).toEqual({
      time: "2026-08-01T12:00:00.000Z",
      principal: "alice",
      tool: "read",
      toolCallId: "call-1",
      inputDigest: inputDigest({ limit: 10, path: "a.txt" }),
      outcome: "ok",
      durationMs: 3,
    });
    expect(second).toMatchObject({ toolCallId: "call-2", outcome: "tool-not-found", durationMs: 0.4 });
    expect(log.written).toBe(2);
  });

  it("with inputs: true, writes the input beside its digest", async () => {
    const file = join(dir, "audit.jsonl");
    const log = await openAuditLog({ file, inputs: true });
    log.record(call(1, { command: "ls -la", env: { A: "1" } }));
    await log.close();
    const [line] = await linesOf(file);
    expect(line!.input).toEqual({ command: "ls -la", env: { A: "1" } });
    expect(line!.inputDigest).toBe(inputDigest({ command: "ls -la", env: { A: "1" } }));
  });

  it("writes only the entry's own fields, so a credential carried along on the object never reaches the file", async () => {
    const file = join(dir, "audit.jsonl");
    const log = await openAuditLog({ file, inputs: true });
    const entry = { ...call(1), authorization: "Bearer secret-token", token: "secret-token" };
    log.record(entry);
    await log.close();
    expect(await readFile(file, "utf8")).not.toContain("secret-token");
  });

  it("returns from record before anything is written, and writes a burst in one batch", async () => {
    const file = join(dir, "audit.jsonl");
    const log = await openAuditLog({ file });
    for (let n = 0; n < 100; n++) log.record(call(n));
    expect(log.written).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("");
    await log.flush();
    expect(log.written).toBe(100);
    await log.close();
  });

  it("writes every one of 10,000 entries recorded before close, each a whole line in order", async () => {
    const file = join(dir, "audit.jsonl");
    const log = await openAuditLog({ file, inputs: true });
    for (let n = 0; n < 10_000; n++) log.record(call(n, { n, text: "é ✓ 𝄞\nline two\u2028" }));
    await log.close();
    const text = await readFile(file, "utf8");
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(10_000);
    const entries = lines.map((line) => JSON.parse(line) as { toolCallId: string; input: { n: number } });
    expect(entries.map((entry) => entry.toolCallId)).toEqual(Array.from({ length: 10_000 }, (_, n) => `call-${n}`));
    expect(
      entries.every(
        ({ input }) => JSON.stringify(input) === JSON.stringify({ n: input.n, text: "é ✓ 𝄞\nline two\u2028" }),
      ),
    ).toBe(true);
    expect(log.written).toBe(10_000);
  });

  it("never interleaves lines with another writer of the same file, even for a line bigger than a batch", async () => {
    const file = join(dir, "audit.jsonl");
    const [a, b] = await Promise.all([openAuditLog({ file, inputs: true }), openAuditLog({ file, inputs: true })]);
    const big = "x".repeat(300 * 1024);
    for (let n = 0; n < 2_000; n++) {
      a.record({ ...call(n, { text: "a".repeat(1_000) }), principal: "a" });
      b.record({ ...call(n, { text: "b".repeat(1_000) }), principal: "b" });
      if (n % 500 === 0) a.record({ ...call(n, { text: big }), principal: "a", toolCallId: `big-${n}` });
    }
    await Promise.all([a.close(), b.close()]);
    const entries = await linesOf(file);
    expect(entries).toHaveLength(4_004);
    for (const entry of entries) {
      const text = (entry.input as { text: string }).text;
      if (String(entry.toolCallId).startsWith("big-")) expect(text).toBe(big);
      else expect(text).toBe(String(entry.principal).repeat(1_000));
    }
    expect(entries.filter((entry) => entry.principal === "b").map((entry) => entry.toolCallId)).toEqual(
      Array.from({ length: 2_000 }, (_, n) => `call-${n}`),
    );
  });

  it("appends to an existing file, and creates a missing one readable by its owner only", async () => {
    const existing = join(dir, "existing.jsonl");
    await writeFile(existing, '{"earlier":true}\n');
    const log = await openAuditLog({ file: existing });
    log.record(call(1));
    await log.close();
    expect((await linesOf(existing)).map((line) => line.earlier ?? line.toolCallId)).toEqual([true, "call-1"]);

    const created = join(dir, "created.jsonl");
    await (await openAuditLog({ file: created })).close();
    expect((await stat(created)).mode & 0o777).toBe(0o600);
  });

  it("refuses a file in a missing directory with serve-failed naming the file, and creates no directory", async () => {
    const file = join(dir, "missing", "audit.jsonl");
    const error = await openFailure(file);
    expect(error).toBeInstanceOf(McpServeError);
    expect(error.code).toBe("serve-failed");
    expect(error.message).toContain(`cannot open the audit log ${file}`);
    expect(error.message).toContain("ENOENT");
    expect(existsSync(join(dir, "missing"))).toBe(false);
  });

  it("refuses a path that is a directory with serve-failed naming it", async () => {
    const error = await openFailure(dir);
    expect(error.code).toBe("serve-failed");
    expect(error.message).toContain(`cannot open the audit log ${dir}`);
    expect(error.message).toContain("EISDIR");
  });

  it.skipIf(!existsSync("/dev/full"))(
    "reports a write error once through onError, drops what follows, counts it at close, and never rejects",
    async () => {
      const errors: Error[] = [];
      const log = await openAuditLog({ file: "/dev/full", onError: (error) => errors.push(error) });
      log.record(call(1));
      await log.flush();
      for (let n = 2; n < 50; n++) log.record(call(n));
      await log.flush();
      expect(errors).toHaveLength(1);
      await log.close();
      expect(errors).toHaveLength(2);
      expect(errors[0]).toBeInstanceOf(McpServeError);
      expect(errors[0]!.message).toContain("the audit log /dev/full could not be written");
      expect(errors[0]!.message).toContain("ENOSPC");
      expect(errors[1]!.message).toBe("the audit log /dev/full lost 49 entries after a write failed");
      expect(log.written).toBe(0);
      expect(log.lost).toBe(49);
    },
  );

  it("keeps writing to the open file when its directory is removed (the file lives on until closed)", async () => {
    const sub = join(dir, "sub");
    await mkdir(sub);
    const errors: Error[] = [];
    const log = await openAuditLog({ file: join(sub, "audit.jsonl"), onError: (error) => errors.push(error) });
    await rm(sub, { recursive: true });
    log.record(call(1));
    await log.close();
    expect(errors).toEqual([]);
    expect(log.written).toBe(1);
  });

  it("ignores entries recorded after close and reports that once", async () => {
    const file = join(dir, "audit.jsonl");
    const errors: Error[] = [];
    const log = await openAuditLog({ file, onError: (error) => errors.push(error) });
    log.record(call(1));
    const closed = log.close();
    log.record(call(2));
    await closed;
    log.record(call(3));
    await log.close();
    expect((await linesOf(file)).map((line) => line.toolCallId)).toEqual(["call-1"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain("is closed; the entry of tool call call-2 was dropped");
  });

  it('logs a call whose input is not JSON data with inputDigest "unavailable", reports it, and carries on', async () => {
    const file = join(dir, "audit.jsonl");
    const errors: Error[] = [];
    const log = await openAuditLog({ file, inputs: true, onError: (error) => errors.push(error) });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    log.record(call(1, cyclic));
    log.record(call(2, { big: 1n }));
    log.record(call(3));
    await log.close();
    const lines = await linesOf(file);
    expect(lines.map((line) => [line.toolCallId, line.inputDigest])).toEqual([
      ["call-1", "unavailable"],
      ["call-2", "unavailable"],
      ["call-3", inputDigest({ path: "file-3.txt" })],
    ]);
    expect(lines[0]).not.toHaveProperty("input");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain("the input of tool call call-1 is not JSON data");
  });

  it("survives an onError that throws", async () => {
    const log = await openAuditLog({
      file: join(dir, "audit.jsonl"),
      onError: () => {
        throw new Error("listener broke");
      },
    });
    await log.close();
    expect(() => log.record(call(1))).not.toThrow();
  });

  it("flush resolves at once when nothing is pending, and close twice closes once", async () => {
    const log = await openAuditLog({ file: join(dir, "audit.jsonl") });
    await log.flush();
    log.record(call(1));
    const first = log.close();
    expect(log.close()).toBe(first);
    await first;
    expect(log.written).toBe(1);
  });
});

if (!FIFO_RUNS) console.warn("skipping the audit log FIFO tests: mkfifo is not installed");
describe.runIf(FIFO_RUNS)("openAuditLog on a FIFO", () => {
  const readers: { stop(): void }[] = [];
  afterEach(() => {
    for (const reader of readers.splice(0)) reader.stop();
  });
  const reader = (fifo: string, out: string, options: { chunk?: number; pauseMs?: number } = {}) => {
    const started = readFifo(fifo, out, options);
    readers.push(started);
    return started;
  };
  const settled = (promise: Promise<unknown>) => {
    let done = false;
    void promise.then(() => {
      done = true;
    });
    return () => done;
  };

  it("opens a FIFO nobody reads without waiting for a reader, and writes to it once one comes", async () => {
    const fifo = makeFifo(join(dir, "audit.fifo"));
    const log = await openAuditLog({ file: fifo });
    log.record(call(1));
    log.record(call(2));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log.written).toBe(0);
    expect(log.queued.entries).toBe(2);
    const out = join(dir, "out.jsonl");
    const read = reader(fifo, out);
    await log.close();
    expect(await read.exited).toBe(0);
    expect((await linesOf(out)).map((line) => line.toolCallId)).toEqual(["call-1", "call-2"]);
    expect(log.lost).toBe(0);
  });

  it("with whenFull drop and nobody reading, holds at most maxQueueBytes of 1,500 calls of 40 KB and counts the rest", async () => {
    const fifo = makeFifo(join(dir, "audit.fifo"));
    const errors: Error[] = [];
    const log = await openAuditLog({
      file: fifo,
      inputs: true,
      whenFull: "drop",
      maxQueueBytes: 200_000,
      onError: (error) => errors.push(error),
    });
    let most = 0;
    for (let n = 0; n < 1_500; n++) {
      await log.record(call(n, { text: "x".repeat(40_000) }));
      most = Math.max(most, log.queued.bytes);
    }
    expect(most).toBeLessThanOrEqual(200_000);
    expect(log.queued.entries).toBe(4);
    expect(log.lost).toBe(1_496);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringMatching(
        /^the audit log .*audit\.fifo is full \(4 entries, \d+ bytes not yet written\): entries are dropped/,
      ),
    ]);
    const closed = log.close({ now: true });
    await closed;
    expect(errors.at(-1)!.message).toMatch(/lost 4 entries: not written when told to stop at once/);
    expect(log.lost).toBe(1_500);
  });

  it("with whenFull drop, writes a line counting the dropped entries before the next ones, once the queue has room", async () => {
    const fifo = makeFifo(join(dir, "audit.fifo"));
    const errors: Error[] = [];
    const log = await openAuditLog({
      file: fifo,
      whenFull: "drop",
      maxQueueEntries: 100,
      onError: (error) => errors.push(error),
    });
    for (let n = 0; n < 1_000; n++) log.record(call(n));
    expect(log.queued.entries).toBe(100);
    expect(log.lost).toBe(900);
    const out = join(dir, "out.jsonl");
    const read = reader(fifo, out);
    await log.flush();
    for (let n = 1_000; n < 1_010; n++) log.record(call(n));
    await log.close();
    expect(await read.exited).toBe(0);
    const lines = await linesOf(out);
    expect(lines).toHaveLength(111);
    expect(lines.slice(0, 100).map((line) => line.toolCallId)).toEqual(
      Array.from({ length: 100 }, (_, n) => `call-${n}`),
    );
    expect(lines[100]).toEqual({ time: expect.any(String), dropped: 900, since: expect.any(String) });
    expect(Date.parse(String(lines[100]!.since))).toBeLessThanOrEqual(Date.parse(String(lines[100]!.time)));
    expect(lines.slice(101).map((line) => line.toolCallId)).toEqual(
      Array.from({ length: 10 }, (_, n) => `call-${1_000 + n}`),
    );
    expect(errors.map((error) => error.message)).toContain(
      `the audit log ${fifo} dropped 900 entries while its queue was full`,
    );
    expect(log.written).toBe(110);
  });

  it("with whenFull wait and nobody reading, holds calls up, and closes on its deadline counting what was lost", async () => {
    const fifo = makeFifo(join(dir, "audit.fifo"));
    const errors: Error[] = [];
    const log = await openAuditLog({
      file: fifo,
      maxQueueEntries: 10,
      closeTimeoutMs: 300,
      onError: (error) => errors.push(error),
    });
    const records = Array.from({ length: 50 }, (_, n) => log.record(call(n)));
    const allQueued = settled(Promise.all(records));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(allQueued()).toBe(false);
    expect(log.queued.entries).toBe(10);
    expect(log.waiting).toBe(40);
    const started = performance.now();
    await log.close();
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(5_000);
    await Promise.all(records);
    expect(log.lost).toBe(50);
    expect(log.waiting).toBe(0);
    expect(errors.at(-1)!.message).toBe(
      `the audit log ${fifo} lost 50 entries: not written within 300 ms of closing (the file took no more data)`,
    );
  });

  it("stops a close that is waiting for the file at once when told to close now", async () => {
    const fifo = makeFifo(join(dir, "audit.fifo"));
    const errors: Error[] = [];
    const log = await openAuditLog({ file: fifo, onError: (error) => errors.push(error) });
    for (let n = 0; n < 3; n++) log.record(call(n));
    const closing = log.close();
    const closed = settled(closing);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed()).toBe(false);
    expect(log.close({ now: true })).toBe(closing);
    await closing;
    expect(errors.map((error) => error.message)).toEqual([
      `the audit log ${fifo} lost 3 entries: not written when told to stop at once (the file took no more data)`,
    ]);
  });

  it("with whenFull wait and a slow reader, loses nothing and never holds more than maxQueueBytes", async () => {
    const fifo = makeFifo(join(dir, "audit.fifo"));
    const out = join(dir, "out.jsonl");
    const read = reader(fifo, out, { chunk: 4_096, pauseMs: 5 });
    const errors: Error[] = [];
    const log = await openAuditLog({
      file: fifo,
      inputs: true,
      maxQueueBytes: 16 * 1024,
      onError: (error) => errors.push(error),
    });
    let most = 0;
    let waited = 0;
    const records: Promise<void>[] = [];
    for (let n = 0; n < 400; n++) {
      records.push(log.record(call(n, { text: "y".repeat(1_000) })));
      most = Math.max(most, log.queued.bytes);
      waited = Math.max(waited, log.waiting);
      if (n % 50 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const sampler = setInterval(() => {
      most = Math.max(most, log.queued.bytes);
    }, 2);
    await Promise.all(records);
    await log.close();
    clearInterval(sampler);
    expect(await read.exited).toBe(0);
    expect(waited).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(16 * 1024);
    expect(log.lost).toBe(0);
    expect(errors[0]!.message).toMatch(
      /is full \(\d+ entries, \d+ bytes not yet written\): calls wait for their entries to fit$/,
    );
    const lines = await linesOf(out);
    expect(lines.map((line) => line.toolCallId)).toEqual(Array.from({ length: 400 }, (_, n) => `call-${n}`));
  }, 30_000);
});

describe("openAuditLog's limits", () => {
  it.each([
    [{ whenFull: "block" }, 'audit.whenFull must be "wait" or "drop", not "block"'],
    [{ maxQueueEntries: 0 }, "audit.maxQueueEntries must be a whole number from 1 to 2147483647, not 0"],
    [{ maxQueueBytes: 1.5 }, "audit.maxQueueBytes must be a whole number from 1 to 2147483647, not 1.5"],
    [{ closeTimeoutMs: -1 }, "audit.closeTimeoutMs must be a whole number from 1 to 2147483647, not -1"],
  ])("refuses %o with invalid-serve-options before opening the file", async (limits, message) => {
    const file = join(dir, "audit.jsonl");
    const error = await openAuditLog({ file, ...(limits as object) }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpServeError);
    expect((error as McpServeError).code).toBe("invalid-serve-options");
    expect((error as McpServeError).message).toBe(message);
    expect(existsSync(file)).toBe(false);
  });
});
