// freePort: a loopback port nothing listens on right now (bound to port 0, then closed), for servers a test starts.
import { createServer } from "node:net";

/** A free port on 127.0.0.1; another process may take it before the caller binds, so callers that can, retry. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
