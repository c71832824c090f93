// A loopback HTTP proxy in front of an MCP server that records each POST's headers and JSON body, and streams answers
// (SSE included) back as they come: the wire as the server sees it.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the proxy passed on. */
export interface RecordedRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body of a POST, or `undefined`. */
  readonly body: { readonly method?: string; readonly params?: Record<string, unknown> } | undefined;
}

export interface RecordingProxy {
  /** The proxy's URL for `target`'s path. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The recorded JSON-RPC requests of `method`. */
  calls(method: string): RecordedRequest[];
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 (a free port) passing every request on to `target`. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const upstream = new URL(target);
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    let body: RecordedRequest["body"];
    try {
      body = raw.length === 0 ? undefined : JSON.parse(raw.toString("utf8"));
    } catch {
      body = undefined;
    }
    requests.push({ method: request.method ?? "GET", headers: request.headers, body });
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (name === "host" || name === "content-length" || name === "connection" || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const abort = new AbortController();
    response.on("close", () => abort.abort());
    try {
      const answer = await fetch(upstream, {
        method: request.method,
        headers,
        ...(raw.length === 0 ? {} : { body: raw }),
        signal: abort.signal,
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "transfer-encoding" && name !== "connection") out[name] = value;
      });
      response.writeHead(answer.status, out);
      if (answer.body !== null) for await (const chunk of answer.body) response.write(chunk);
      response.end();
    } catch {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests,
    calls: (method) => requests.filter((recorded) => recorded.body?.method === method),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
