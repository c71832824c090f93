import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inputDigest } from "../core/approve/input-digest.js";
import { McpServeError } from "../mcp/errors.js";
import { type AuditRecord, openAuditLog } from "./audit-log.js";

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
  it("writes one JSON line per call with the SPEC 16 fields in order, the input only as its digest", async () => {
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
    "reports a write error once through onError, drops what follows, and never rejects",
    async () => {
      const errors: Error[] = [];
      const log = await openAuditLog({ file: "/dev/full", onError: (error) => errors.push(error) });
      log.record(call(1));
      await log.flush();
      for (let n = 2; n < 50; n++) log.record(call(n));
      await log.flush();
      await log.close();
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(McpServeError);
      expect(errors[0]!.message).toContain("the audit log /dev/full could not be written");
      expect(errors[0]!.message).toContain("ENOSPC");
      expect(log.written).toBe(0);
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
