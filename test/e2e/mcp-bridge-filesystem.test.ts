// The client bridge against the real server-filesystem over stdio, in a temp folder, through a session.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/core/register/registry.js";
import { createAgentSession } from "../../src/create-agent-session.js";
import type { AgentSession, ToolResultBlock } from "../../src/index.js";
import { connectMcpServer, type McpConnection } from "../../src/mcp/api.js";
import { filesystemServer, tempFolder } from "./helpers/mcp-servers.js";

let folder: Awaited<ReturnType<typeof tempFolder>>;
let outside: Awaited<ReturnType<typeof tempFolder>>;
let connection: McpConnection;
let session: AgentSession;

beforeAll(async () => {
  folder = await tempFolder();
  outside = await tempFolder();
  connection = await connectMcpServer(filesystemServer(folder.path));
  session = createAgentSession({
    registry: createToolRegistry({ extensions: [connection], policy: [{ label: "fs", deny: ["fs__move_file"] }] }),
  });
});
afterAll(async () => {
  await connection?.close();
  await folder?.remove();
  await outside?.remove();
});

function text(result: ToolResultBlock): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

describe("connectMcpServer with server-filesystem", () => {
  it("writes a real file through the bridge", async () => {
    const result = await session.dispatch({
      id: "w",
      name: "fs__write_file",
      input: { path: join(folder.path, "note.txt"), content: "hello from toolwire" },
    });
    expect(result.is_error).toBeUndefined();
    expect(await readFile(join(folder.path, "note.txt"), "utf8")).toBe("hello from toolwire");
  });

  it("reads a real file through the bridge, with JSON text input", async () => {
    await writeFile(join(folder.path, "read-me.txt"), "line one\nline two\n");
    const result = await session.dispatch({
      id: "r",
      name: "fs__read_text_file",
      input: JSON.stringify({ path: join(folder.path, "read-me.txt") }),
    });
    expect(text(result)).toBe("line one\nline two\n");
  });

  it("returns the server's refusal of a path outside its root as an error result", async () => {
    await writeFile(join(outside.path, "secret.txt"), "no");
    const result = await session.dispatch({
      id: "o",
      name: "fs__read_text_file",
      input: { path: join(outside.path, "secret.txt") },
    });
    expect(result.is_error).toBe(true);
    expect(text(result)).toMatch(/Access denied|outside allowed directories/);
  });

  it("validates input against the server's schema before calling it", async () => {
    const result = await session.dispatch({ id: "v", name: "fs__read_text_file", input: { path: 42 } });
    expect(result.is_error).toBe(true);
    expect(text(result)).toContain("path");
  });

  it("applies policy to bridged tools by their bridged name", async () => {
    expect(session.activeToolNames).toContain("fs__read_text_file");
    expect(session.activeToolNames).not.toContain("fs__move_file");
    expect(session.registry.lastReport.excluded).toContainEqual({
      name: "fs__move_file",
      source: "extension",
      reason: "policy",
      layer: "fs",
      pattern: "fs__move_file",
    });
  });
});
