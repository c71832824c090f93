// `toolwire serve`: an MCP gateway over the built-ins, the plugins and the upstream MCP servers of the config.
import type { Output } from "../output.js";
import type { Runtime } from "../runtime.js";

/** Serves the runtime's session over stdio or Streamable HTTP until SIGINT or SIGTERM, or the client leaves (stdio). */
export async function runServe(
  runtime: Runtime,
  output: Output,
  options: { http?: number; host?: string },
): Promise<number> {
  const { serveMcp } = await import("../../mcp/serve-mcp.js");
  const handle =
    options.http === undefined
      ? await serveMcp(runtime.session, { transport: "stdio" })
      : await serveMcp(runtime.session, { transport: "http", port: options.http, host: options.host });
  // stdout belongs to the protocol on stdio: everything for people goes to stderr.
  const names = runtime.session.activeToolNames;
  output.error(
    `toolwire serve: ${names.length} tools (${names.join(", ")})${handle.url === undefined ? " on stdio" : ` at ${handle.url}`}`,
  );
  for (const problem of runtime.problems)
    output.error(`toolwire serve: ${problem.area} ${problem.subject}: ${problem.message}`);
  const stop = () => void handle.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  await handle.closed;
  return 0;
}
