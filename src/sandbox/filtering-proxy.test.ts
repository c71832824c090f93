import { existsSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FilteringProxy, refusalMessage, startFilteringProxy } from "./filtering-proxy.js";

/** Sends raw bytes to the proxy's socket and resolves with everything it answers until it closes. */
function raw(proxy: FilteringProxy, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(proxy.socketPath);
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
    socket.write(text);
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe("startFilteringProxy", () => {
  let proxy: FilteringProxy;
  let upstream: Server;
  let port: number;
  beforeAll(async () => {
    upstream = createServer((req, res) => res.end(`upstream saw ${req.method} ${req.url}`));
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    port = (upstream.address() as AddressInfo).port;
    proxy = await startFilteringProxy({ allowHosts: ["127.0.0.1"] });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it("forwards a plain request with an absolute URL to an allowed host", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          socketPath: proxy.socketPath,
          path: `http://127.0.0.1:${port}/x?y=1`,
          headers: { Host: `127.0.0.1:${port}` },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve(`${res.statusCode} ${body}`));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(answer).toBe("200 upstream saw GET /x?y=1");
  });

  it("refuses CONNECT to a host not in allowHosts with a 403 naming it, before connecting anywhere", async () => {
    const answer = await raw(proxy, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer).toContain(refusalMessage("example.com", ["127.0.0.1"]));
    expect(answer).toContain("toolwire sandbox: example.com is not in network.allowHosts (127.0.0.1)");
  });

  it("answers 400 to what is not a proxy request, and 502 when an allowed host does not answer", async () => {
    expect(await raw(proxy, "GET /relative HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await raw(proxy, "CONNECT nonsense HTTP/1.1\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    const closed = await raw(proxy, "CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n");
    expect(closed).toMatch(/^HTTP\/1\.1 502 Bad Gateway/);
    expect(closed).toContain("could not reach 127.0.0.1:1");
  });

  it("removes its socket folder when closed", async () => {
    const other = await startFilteringProxy({ allowHosts: [] });
    expect(existsSync(other.socketPath)).toBe(true);
    await other.close();
    expect(existsSync(other.dir)).toBe(false);
  });
});
