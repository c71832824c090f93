// toolwire serve takes serve.listTtlMs from the config: its 2026-07-28 listings say so, over stdio and over HTTP.
import { spawn } from "node:child_process";
import { Client, type StandardSchemaV1 } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cliEnv, tempWorkspace, writeFiles } from "./helpers/cli.js";
import { modernMeta } from "./helpers/modern-meta.js";
import { serveStdio } from "./helpers/serve-stdio.js";

let project: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  project = await tempWorkspace({});
  await writeFiles(project.path, {
    "toolwire.config.json": JSON.stringify({ allowedTools: ["read"], serve: { listTtlMs: 4321 } }),
  });
});
afterAll(() => project.remove());

/** Any object, as sent: the listing's own fields are what is looked at. */
const AS_SENT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": { version: 1, vendor: "test", validate: (value) => ({ value: value as Record<string, unknown> }) },
};

const LIST = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/list",
  params: {
    _meta: modernMeta(),
  },
};

describe("serve.listTtlMs", { timeout: 60_000 }, () => {
  it("is the ttlMs of the listings over stdio", async () => {
    const client = new Client(
      { name: "ttl-test", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StdioClientTransport(serveStdio(project.path, "pipe")));
    try {
      const listing = await client.request({ method: "tools/list", params: {} }, AS_SENT);
      expect(listing).toMatchObject({ ttlMs: 4321, cacheScope: "private" });
    } finally {
      await client.close();
    }
  });

  it("is the ttlMs of the listings over HTTP, private to each principal", async () => {
    const server = spawn(process.execPath, [CLI, "serve", "--http", "0"], {
      cwd: project.path,
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stderr = "";
      const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
        server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          stderr += chunk;
          const url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr)?.[1];
          const token = /token \(shown once\): (\S+)\n/.exec(stderr)?.[1];
          if (url !== undefined && token !== undefined) resolve({ url, token });
        });
        server.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
        },
        body: JSON.stringify(LIST),
      });
      expect(response.status).toBe(200);
      const { result } = (await response.json()) as { result: Record<string, unknown> };
      expect(result).toMatchObject({ ttlMs: 4321, cacheScope: "private" });
    } finally {
      server.kill("SIGTERM");
    }
  });
});
