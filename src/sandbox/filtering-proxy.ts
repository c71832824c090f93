// The filtering HTTP(S) proxy for `network: { allowHosts }`: on a Unix socket bound into the sandbox, it tunnels
// CONNECT and forwards plain HTTP to allowed hosts only, and refuses the rest with a 403 that says why.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Duplex } from "node:stream";
import { PROXY_SOCKET_NAME } from "./bwrap-arguments.js";
import { isHostAllowed } from "./host-allowed.js";

/** A running proxy: `dir` holds its socket (`proxy.sock`); `close()` stops it and removes the folder. */
export interface FilteringProxy {
  readonly dir: string;
  readonly socketPath: string;
  close(): Promise<void>;
}

/** The text of a refusal: which host, and what to change. */
export function refusalMessage(host: string, allowHosts: readonly string[]): string {
  const list = allowHosts.length === 0 ? "none" : allowHosts.join(", ");
  return `toolwire sandbox: ${host} is not in network.allowHosts (${list}); the connection was refused. Add the host to the sandbox's allowHosts to reach it.\n`;
}

/**
 * Starts a proxy on a Unix socket in a new private folder. HTTP `CONNECT host:port` to an allowed host
 * opens a tunnel; a plain request with an absolute `http://` URL is forwarded; anything else gets
 * `403 Forbidden` (a host not allowed) or `400` (not a proxy request) with a one-line explanation.
 */
export async function startFilteringProxy(options: {
  readonly allowHosts: readonly string[];
}): Promise<FilteringProxy> {
  const { allowHosts } = options;
  const dir = await mkdtemp(join(tmpdir(), "toolwire-proxy-"));
  const socketPath = join(dir, PROXY_SOCKET_NAME);
  const open = new Set<Duplex>();
  const track = (socket: Duplex) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };
  const server = createServer((req, res) => forward(req, res, allowHosts, track));
  server.on("connection", track);
  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) =>
    tunnel(req, client, head, allowHosts, track),
  );
  server.on("clientError", (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    dir,
    socketPath,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function tunnel(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  allowHosts: readonly string[],
  track: (socket: Duplex) => void,
): void {
  client.on("error", () => client.destroy());
  const target = parseAuthority(req.url ?? "");
  if (target === undefined)
    return void refuse(client, 400, `toolwire sandbox: not a host:port to CONNECT to: ${req.url}\n`);
  if (!isHostAllowed(target.host, allowHosts)) return void refuse(client, 403, refusalMessage(target.host, allowHosts));
  const upstream: Socket = connect(target.port, target.host);
  track(upstream);
  upstream.once("connect", () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.once("error", (error) => {
    if (client.writable && upstream.bytesRead === 0)
      refuse(client, 502, `toolwire sandbox: could not reach ${target.host}:${target.port}: ${error.message}\n`);
    else client.destroy();
  });
  client.once("close", () => upstream.destroy());
  upstream.once("close", () => client.destroy());
}

function forward(
  req: IncomingMessage,
  res: ServerResponse,
  allowHosts: readonly string[],
  track: (socket: Duplex) => void,
): void {
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    return void reply(
      res,
      400,
      "toolwire sandbox: this is a proxy; send an absolute http:// URL, or CONNECT for https\n",
    );
  }
  if (url.protocol !== "http:")
    return void reply(res, 400, `toolwire sandbox: only http:// URLs are forwarded, not ${url.protocol}\n`);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!isHostAllowed(host, allowHosts)) return void reply(res, 403, refusalMessage(host, allowHosts));
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  const upstream = request(
    {
      host,
      port: url.port === "" ? 80 : Number(url.port),
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("socket", track);
  upstream.on("error", (error) => {
    if (!res.headersSent) reply(res, 502, `toolwire sandbox: could not reach ${url.host}: ${error.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
}

function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (match[1] as string).replace(/^\[(.*)\]$/, "$1"), port };
}

function refuse(client: Duplex, status: 400 | 403 | 502, text: string): void {
  const reason = status === 403 ? "Forbidden" : status === 400 ? "Bad Request" : "Bad Gateway";
  const body = Buffer.from(text);
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", Connection: "close" });
  res.end(text);
}
