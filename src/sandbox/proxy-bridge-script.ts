// The few lines of Node that run inside the sandbox's network namespace: 127.0.0.1:<port> to the proxy's Unix socket.

/** The port the bridge listens on inside the sandbox (its own loopback: it collides with nothing outside). */
export const PROXY_BRIDGE_PORT = 3128;

/**
 * Run as `node -e PROXY_BRIDGE_SCRIPT <port> <socket>`: listens on 127.0.0.1:<port>, pipes every
 * connection to the Unix socket, and prints `ready` once listening. HTTP_PROXY needs a host and a port,
 * and socat is not everywhere; node is (it runs toolwire), and the host's files are readable inside.
 */
export const PROXY_BRIDGE_SCRIPT = `const net = require("node:net");
const [port, socket] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socket);
  const end = () => { client.destroy(); upstream.destroy(); };
  client.on("error", end); upstream.on("error", end);
  client.on("close", end); upstream.on("close", end);
  client.pipe(upstream); upstream.pipe(client);
});
server.on("error", (error) => { process.stderr.write("toolwire proxy bridge: " + error.message + "\\n"); process.exit(1); });
server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\\n"));
`;
