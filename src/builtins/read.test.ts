import { execFileSync } from "node:child_process";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace, type TestWorkspace, textOf } from "../../test/support/builtins.js";

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

let ws: TestWorkspace;
afterEach(async () => {
  await ws.cleanup();
});

const numbered = (n: number, text: string) => `${String(n).padStart(6)}\t${text}`;

describe("read", () => {
  it("returns a text file with line numbers", async () => {
    ws = await makeWorkspace({ "a.txt": "alpha\nbeta\n" });
    const result = await ws.ok("read", { path: "a.txt" });
    expect(textOf(result)).toBe(`${numbered(1, "alpha")}\n${numbered(2, "beta")}`);
    expect(result.details).toMatchObject({
      path: "a.txt",
      kind: "text",
      totalLines: 2,
      startLine: 1,
      endLine: 2,
      truncated: false,
    });
  });

  it("counts a last line without a final newline", async () => {
    ws = await makeWorkspace({ "a.txt": "one\ntwo" });
    const result = await ws.ok("read", { path: "a.txt" });
    expect(textOf(result)).toBe(`${numbered(1, "one")}\n${numbered(2, "two")}`);
    expect(result.details).toMatchObject({ totalLines: 2 });
  });

  it("reads a window with offset and limit, and says where to continue", async () => {
    const lines = Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join("\n");
    ws = await makeWorkspace({ "ten.txt": `${lines}\n` });
    const text = textOf(await ws.ok("read", { path: "ten.txt", offset: 3, limit: 4 }));
    expect(text.split("\n").slice(0, 4)).toEqual([3, 4, 5, 6].map((n) => numbered(n, `line ${n}`)));
    expect(text).toContain("[Showing lines 3-6 of 10. Use offset=7 to continue.]");
    const last = textOf(await ws.ok("read", { path: "ten.txt", offset: 7, limit: 4 }));
    expect(last).toBe([7, 8, 9, 10].map((n) => numbered(n, `line ${n}`)).join("\n"));
  });

  it("cuts a long file at 2000 lines with the offset to continue from", async () => {
    const lines = Array.from({ length: 3000 }, (_, index) => `${index + 1}`).join("\n");
    ws = await makeWorkspace({ "long.txt": lines });
    const result = await ws.ok("read", { path: "long.txt" });
    const text = textOf(result);
    expect(text).toContain(numbered(2000, "2000"));
    expect(text).not.toContain(numbered(2001, "2001"));
    expect(text).toContain("[Showing lines 1-2000 of 3000 (2000-line limit). Use offset=2001 to continue.]");
    expect(result.details).toMatchObject({ totalLines: 3000, endLine: 2000, truncated: true });
  });

  it("cuts a wide file at 50 KB with the offset to continue from", async () => {
    const line = "x".repeat(200);
    ws = await makeWorkspace({ "wide.txt": Array.from({ length: 1000 }, () => line).join("\n") });
    const result = await ws.ok("read", { path: "wide.txt" });
    const text = textOf(result);
    const end = (result.details as { endLine: number }).endLine;
    expect(end).toBeGreaterThan(200);
    expect(end).toBeLessThan(260);
    expect(Buffer.byteLength(text.slice(0, text.indexOf("\n\n[")))).toBeLessThanOrEqual(50 * 1024);
    expect(text).toContain(`[Showing lines 1-${end} of 1000 (50 KB limit). Use offset=${end + 1} to continue.]`);
  });

  it("cuts a single line over 50 KB and says how to see the rest", async () => {
    ws = await makeWorkspace({ "min.js": `${"y".repeat(200_000)}\nsecond\n` });
    const text = textOf(await ws.ok("read", { path: "min.js" }));
    expect(text).toContain("[Line 1 is longer than 50 KB and was cut.");
    expect(text).toContain("Use offset=2 to continue.");
    expect(Buffer.byteLength(text)).toBeLessThan(51 * 1024);
  });

  it("reads a huge file without loading it whole, counting all its lines", async () => {
    ws = await makeWorkspace();
    const chunk = `${"z".repeat(99)}\n`.repeat(10_000); // 1 MB
    await writeFile(join(ws.root, "huge.log"), chunk.repeat(20));
    const result = await ws.ok("read", { path: "huge.log", offset: 150_000, limit: 2 });
    expect(result.details).toMatchObject({ totalLines: 200_000, startLine: 150_000, endLine: 150_001 });
    expect(textOf(result)).toContain("Use offset=150002 to continue.");
  });

  it("refuses an offset past the end, naming the line count", async () => {
    ws = await makeWorkspace({ "a.txt": "1\n2\n3\n" });
    const error = await ws.fail("read", { path: "a.txt", offset: 9 });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toBe("offset 9 is past the end of a.txt, which has 3 lines. Use an offset from 1 to 3.");
  });

  it("says so when a file is empty", async () => {
    ws = await makeWorkspace({ "empty.txt": "" });
    expect(textOf(await ws.ok("read", { path: "empty.txt" }))).toBe("empty.txt is empty.");
  });

  it("shows CRLF lines without the carriage return, and drops a BOM", async () => {
    ws = await makeWorkspace({ "win.txt": "\uFEFFa\r\nb\r\n" });
    expect(textOf(await ws.ok("read", { path: "win.txt" }))).toBe(`${numbered(1, "a")}\n${numbered(2, "b")}`);
  });

  it("returns an image as an image block", async () => {
    ws = await makeWorkspace({ "dot.png": Buffer.from(PNG_1X1, "base64") });
    const result = await ws.ok("read", { path: "dot.png" });
    expect(result.content[1]).toEqual({ type: "image", data: PNG_1X1, mimeType: "image/png" });
    expect(textOf(result)).toContain("Image dot.png (image/png");
  });

  it("refuses a binary file with a clear message and none of its bytes", async () => {
    ws = await makeWorkspace({ "blob.bin": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01, 0x41, 0x42]) });
    const error = await ws.fail("read", { path: "blob.bin" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toContain("blob.bin is a binary file (8 B), not UTF-8 text");
    expect(error.message).toContain("xxd blob.bin");
    expect(error.message).not.toContain("ELF");
  });

  it("refuses invalid UTF-8 as binary", async () => {
    ws = await makeWorkspace({ "latin1.txt": Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    expect((await ws.fail("read", { path: "latin1.txt" })).message).toContain("binary file");
  });

  it("says a missing file is not found and how to look", async () => {
    ws = await makeWorkspace();
    const error = await ws.fail("read", { path: "nope.txt" });
    expect(error.code).toBe("execution-failed");
    expect(error.message).toBe("File not found: nope.txt. Use ls or find to see which files exist.");
  });

  it("refuses a folder, pointing to ls", async () => {
    ws = await makeWorkspace({ "src/a.ts": "" });
    const error = await ws.fail("read", { path: "src" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toBe("src is a folder, not a file. Use ls to list it, or find to search in it.");
  });

  it("refuses a named pipe instead of blocking on it", async () => {
    ws = await makeWorkspace();
    execFileSync("mkfifo", [join(ws.root, "pipe")]);
    const error = await ws.fail("read", { path: "pipe" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).toContain("pipe is a named pipe (FIFO), not a regular file");
  });

  it("refuses a link to a file outside the workspace without reading it", async () => {
    ws = await makeWorkspace();
    await writeFile(join(ws.outside, "secret.txt"), "TOP-SECRET");
    await symlink(join(ws.outside, "secret.txt"), join(ws.root, "leak.txt"));
    await symlink("/etc", join(ws.root, "outside"));
    const error = await ws.fail("read", { path: "leak.txt" });
    expect(error.code).toBe("invalid-input");
    expect(error.message).not.toContain("TOP-SECRET");
    expect((await ws.fail("read", { path: "outside/passwd" })).message).toContain("outside the workspace");
    expect((await ws.fail("read", { path: "../../etc/passwd" })).message).toContain("outside the workspace");
  });

  it("refuses an image over 5 MB, suggesting a smaller copy", async () => {
    const header = Buffer.from(PNG_1X1, "base64").subarray(0, 16);
    ws = await makeWorkspace({ "huge.png": Buffer.concat([header, Buffer.alloc(6 * 1024 * 1024)]) });
    const error = await ws.fail("read", { path: "huge.png" });
    expect(error.message).toContain("huge.png is an image of 6.0 MB, over the 5.0 MB limit for images.");
  });
});
