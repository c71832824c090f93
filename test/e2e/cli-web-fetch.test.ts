// toolwire run as a user runs it: builtins.web in the config adds web_fetch, which reads an allowed loopback page and
// refuses a host the config does not list; without builtins.web there is no web_fetch.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html" }).end("<h1>Release notes</h1><p>Version <em>2</em> is out.</p>"),
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A scripted model that fetches the loopback page and a refused host, and checks both results. */
function script(expectations: { page: string; pageIsError: boolean; refused: string }) {
  return JSON.stringify({
    turns: [
      {
        toolCalls: [
          { id: "c1", name: "web_fetch", input: { url: `${base}/notes` } },
          { id: "c2", name: "web_fetch", input: { url: "http://docs.example.com/" } },
        ],
      },
      {
        text: "done",
        expect: {
          toolResults: [
            { id: "c1", isError: expectations.pageIsError, contains: expectations.page },
            { id: "c2", isError: true, contains: expectations.refused },
          ],
        },
      },
    ],
  });
}

describe("toolwire run: builtins.web", { timeout: 60_000 }, () => {
  it("adds web_fetch for the hosts the config allows: the page comes back as Markdown, other hosts are refused", async () => {
    const project = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ builtins: { web: { allowHosts: ["127.0.0.1"], maxBytes: 4096 } } }),
      "web.json": script({
        page: "# Release notes",
        pageIsError: false,
        refused: "the host docs.example.com is not in web_fetch's allowHosts (127.0.0.1)",
      }),
    });
    try {
      const { code, stdout } = await runCli(["run", "--json", "--model", "scripted:web.json", "read the notes"], {
        cwd: project.path,
        env: cliEnv(),
      });
      expect(stdout).toContain("Version _2_ is out.");
      expect(code).toBe(0);
    } finally {
      await project.remove();
    }
  });

  it("gives no web_fetch without builtins.web", async () => {
    const project = await tempWorkspace({
      "web.json": script({ page: "web_fetch", pageIsError: true, refused: "web_fetch" }),
    });
    try {
      const { code, stdout } = await runCli(["run", "--json", "--model", "scripted:web.json", "read the notes"], {
        cwd: project.path,
        env: cliEnv(),
      });
      expect(stdout).toContain("tool-not-found");
      expect(code).toBe(0);
    } finally {
      await project.remove();
    }
  });
});
