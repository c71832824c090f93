// A real MCP Server on the far side of the SDK's in-memory transport pair, one per connect, steered by the test.
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { type CallToolResult, Server, type Tool } from "@modelcontextprotocol/server";
import type { McpEndpoint } from "../../src/mcp/client/open-mcp-client.js";

/**
 * What the server does with a `tools/call`: its result, or a promise of it (a hung call never settles).
 * `signal` is the request's: the client's `notifications/cancelled` aborts it.
 */
export type MemoryCallHandler = (
  name: string,
  input: Record<string, unknown>,
  server: MemoryServerHandle,
  signal: AbortSignal,
) => CallToolResult | Promise<CallToolResult>;

/** One server process stand-in: the `Server` behind one connect. */
export interface MemoryServerHandle {
  readonly server: Server;
  /** Whether its side of the pair closed (the bridge closed the connection, or the server went away). */
  readonly closed: boolean;
  /** The server goes away: its side of the pair closes, which closes the bridge's side. */
  goAway(): Promise<void>;
}

/** A `tools/list` request the test answers: `release()` lets it answer with the tools of that moment. */
export interface HeldListing {
  release(): void;
}

export interface MemoryMcpServer {
  /** For `connectMcpEndpoint`: every connect makes a new pair and a new `Server`. */
  readonly endpoint: McpEndpoint;
  /** The servers made so far, one per connect, latest last. */
  readonly servers: readonly MemoryServerHandle[];
  /** When each connect started (`performance.now()`), refused ones included. */
  readonly connectTimes: readonly number[];
  /** How many `tools/list` requests the servers got. */
  readonly listings: number;
  /** The server made by the latest connect. */
  latest(): MemoryServerHandle;
  /** The tools listed from now on. */
  setTools(names: readonly string[]): void;
  /** While set, each connect is refused: the server side closes before the handshake. */
  refuseConnects(refuse: boolean): void;
  /** While set, every `tools/list` waits for the test: the returned queue fills with one entry per request. */
  holdListings(hold: boolean): HeldListing[];
}

/** A tool with an object input schema that accepts anything. */
export function memoryTool(name: string): Tool {
  return { name, description: `Tool ${name}`, inputSchema: { type: "object" } };
}

/**
 * An MCP server reached over `InMemoryTransport.createLinkedPair()`, speaking the 2025 protocol with
 * `tools.listChanged`, listing `tools` (default `echo`) and answering calls with `onCall` (default:
 * the input back as JSON text).
 */
export function memoryMcpServer(
  options: { readonly id?: string; readonly tools?: readonly string[]; readonly onCall?: MemoryCallHandler } = {},
): MemoryMcpServer {
  const servers: MemoryServerHandle[] = [];
  const connectTimes: number[] = [];
  let tools = (options.tools ?? ["echo"]).map(memoryTool);
  let refusing = false;
  let held: HeldListing[] | undefined;
  let listings = 0;
  const onCall: MemoryCallHandler =
    options.onCall ?? ((_name, input) => ({ content: [{ type: "text", text: JSON.stringify(input) }] }));

  function createTransport(): InMemoryTransport {
    connectTimes.push(performance.now());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    if (refusing) {
      void serverSide.close();
      return clientSide;
    }
    const server = new Server({ name: "memory", version: "1.2.3" }, { capabilities: { tools: { listChanged: true } } });
    let closed = false;
    const handle: MemoryServerHandle = {
      server,
      get closed() {
        return closed;
      },
      goAway: () => serverSide.close(),
    };
    server.onclose = () => {
      closed = true;
    };
    server.setRequestHandler("tools/list", async () => {
      listings++;
      if (held !== undefined) {
        const queue = held;
        await new Promise<void>((release) => queue.push({ release }));
      }
      return { tools };
    });
    server.setRequestHandler("tools/call", (request, ctx) =>
      onCall(request.params.name, request.params.arguments ?? {}, handle, ctx.mcpReq.signal),
    );
    servers.push(handle);
    void server.connect(serverSide);
    return clientSide;
  }

  return {
    endpoint: { id: options.id ?? "mem", transport: createTransport },
    servers,
    connectTimes,
    get listings() {
      return listings;
    },
    latest() {
      const last = servers.at(-1);
      if (last === undefined) throw new Error("no connect yet");
      return last;
    },
    setTools(names) {
      tools = names.map(memoryTool);
    },
    refuseConnects(refuse) {
      refusing = refuse;
    },
    holdListings(hold) {
      held = hold ? [] : undefined;
      return held ?? [];
    },
  };
}
