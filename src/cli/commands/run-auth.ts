// `toolwire auth <server-id>`: log in to an MCP server of the config ahead of time, or forget its tokens.

import { loadMcpModule } from "../../load-optional.js";
import { CliError, EXIT_FAILED, EXIT_OK, EXIT_USAGE } from "../exit-codes.js";
import type { Output } from "../output.js";
import type { Runtime } from "../runtime.js";

/** What `runAuth` takes. `show` displays the login URL (the CLI's way: stderr, and a browser on a terminal). */
interface RunAuthOptions {
  readonly serverId: string;
  readonly logout: boolean;
  readonly show: (serverId: string, url: URL) => void | Promise<void>;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Connects to the server named `serverId` (an HTTP server of the config with an `auth`), logging in when it needs
 * it, and reports where the tokens are; with `logout`, deletes the stored tokens and registration instead. Throws
 * `CliError` (usage) for an unknown server or one without OAuth; returns 1 when the login or the connection fails.
 */
export async function runAuth(runtime: Runtime, output: Output, options: RunAuthOptions): Promise<number> {
  const plan = runtime.built.mcpServers.find((candidate) => candidate.server.id === options.serverId);
  const ids = runtime.built.mcpServers.map((candidate) => candidate.server.id);
  if (plan === undefined) {
    throw new CliError(
      EXIT_USAGE,
      `no enabled MCP server ${options.serverId} in the config${ids.length === 0 ? "" : `; there are: ${ids.join(", ")}`}`,
    );
  }
  const server = plan.server;
  if (!("url" in server) || server.auth === undefined) {
    throw new CliError(
      EXIT_USAGE,
      `MCP server ${server.id} has no "auth" in the config: there is nothing to log in to`,
    );
  }
  const { createMcpAuthProvider } = await loadMcpModule(() => import("../../mcp/client/oauth/mcp-auth-config.js"));
  const { isMcpOAuthProvider } = await loadMcpModule(
    () => import("../../mcp/client/oauth/authorizing-http-transport.js"),
  );
  const provider = createMcpAuthProvider(
    { id: server.id, url: server.url, auth: server.auth },
    {
      onAuthorizationUrl: (url) => options.show(server.id, url),
      ...(options.env === undefined ? {} : { env: options.env }),
    },
  );
  if (options.logout) {
    if (!isMcpOAuthProvider(provider)) {
      output.line(`MCP server ${server.id}: ${server.auth.type} keeps no tokens; nothing to forget`);
      return EXIT_OK;
    }
    await provider.logout();
    output.line(`MCP server ${server.id}: forgot the tokens in ${provider.storeLocation}`);
    return EXIT_OK;
  }
  const { connectMcpServer } = await loadMcpModule(() => import("../../mcp/client/connect-mcp-server.js"));
  try {
    const connection = await connectMcpServer(server, { ...plan.options, authProvider: provider });
    await connection.close();
    const where = isMcpOAuthProvider(provider) ? `; tokens in ${provider.storeLocation}` : "";
    output.line(`MCP server ${server.id}: authorized, ${connection.tools.length} tools${where}`);
    return EXIT_OK;
  } catch (error) {
    output.error(`toolwire auth: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
}
