// An MCP stdio client transport over a child process that knows why it closed (exit code, signal, garbage on stdout).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { detectSandbox } from "../../sandbox/detect-sandbox.js";
import { prepareSandboxLaunch, sandboxedCommandLine } from "../../sandbox/prepare-sandbox-launch.js";
import type { ResolvedSandbox } from "../../sandbox/sandbox-options.js";
import { McpConnectionError } from "./errors.js";

/** How to start a stdio MCP server. */
interface ChildProcessTransportOptions {
  readonly serverId: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Merged over the minimal environment (see `minimalEnvironment`); the parent's environment is never passed whole. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /**
   * Start the server in this sandbox (see `serverSandbox`); in mode `auto` unsandboxed where bubblewrap is not usable.
   */
  readonly sandbox?: ResolvedSandbox;
  /** Receives the server's stderr as text. By default it is only kept (the last 4 KB) for error messages. */
  readonly onStderr?: (text: string) => void;
}

const INHERITED_ENV_VARS =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
      ].concat(["TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"])
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** The few variables of the parent's environment a server gets by default (those `sudo` keeps): PATH, HOME, USER... */
export function minimalEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV_VARS) {
    const value = process.env[name];
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return env;
}

const MAX_LINE_BYTES = 10 * 1024 * 1024;
const STDERR_TAIL_CHARS = 4096;
const CLOSE_GRACE_MS = 1000;

/**
 * Spawns the server, reads newline-delimited JSON-RPC from its stdout and writes to its stdin.
 * Anything on stdout that is not a JSON-RPC message is a protocol fault: the transport stops the
 * process and closes. `closeReason` says why it closed, for the error results of calls in flight.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the transport closed; set before `onclose` runs. */
  closeReason: McpConnectionError | undefined;
  private child: ChildProcessWithoutNullStreams | undefined;
  private pending = "";
  private stderrTail = "";
  private finished = false;
  private readonly exited: Promise<void>;
  private markExited: () => void = () => {};
  private starting = false;
  /** Stops the sandbox's proxy and removes its cgroup once the server exited. */
  private releaseSandbox: (() => Promise<void>) | undefined;

  constructor(private readonly options: ChildProcessTransportOptions) {
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * The server's stderr stream, once started (read it through `onStderr`). Having it (with `pid`) is also
   * how the SDK knows this is a stdio transport: a server silent to the era probe is then a 2025 one.
   */
  get stderr(): NodeJS.ReadableStream | null {
    return this.child?.stderr ?? null;
  }

  start(): Promise<void> {
    if (this.child !== undefined || this.starting) {
      return Promise.reject(new Error("ChildProcessTransport already started"));
    }
    this.starting = true;
    const { command } = this.options;
    const env = { ...minimalEnvironment(), ...this.options.env };
    const sandbox = this.options.sandbox;
    if (sandbox === undefined) return this.spawnServer(command, [...(this.options.args ?? [])], env);
    return this.startSandboxed(sandbox, env);
  }

  private async startSandboxed(sandbox: ResolvedSandbox, env: Record<string, string>): Promise<void> {
    const { serverId, command } = this.options;
    const args = [...(this.options.args ?? [])];
    const support = await detectSandbox();
    if (!support.usable) {
      if (sandbox.mode === "required") {
        throw new McpConnectionError(
          "mcp-connect-failed",
          serverId,
          `MCP server ${serverId} was not started: its sandbox is required (mode "required") but bubblewrap is not usable here (sandbox-unavailable): ${support.reason}`,
        );
      }
      return this.spawnServer(command, args, env);
    }
    let launch: Awaited<ReturnType<typeof prepareSandboxLaunch>>;
    try {
      // bwrap's own init is PID 1: it reaps the server's children, and the namespace ends with the server.
      launch = await prepareSandboxLaunch(sandbox, support, { asPid1: false });
    } catch (error) {
      throw new McpConnectionError(
        "mcp-connect-failed",
        serverId,
        `MCP server ${serverId} was not started: its sandbox could not be set up (sandbox-failed): ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.releaseSandbox = launch.release;
    const line = sandboxedCommandLine(launch, command, args);
    try {
      await this.spawnServer(line.file, line.args, { ...env, ...launch.env });
    } catch (error) {
      await this.release();
      throw error;
    }
  }

  private async release(): Promise<void> {
    const release = this.releaseSandbox;
    this.releaseSandbox = undefined;
    await release?.();
  }

  private spawnServer(file: string, args: readonly string[], env: Record<string, string>): Promise<void> {
    const { serverId, command } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(file, [...args], {
        env,
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      let spawned = false;
      child.once("spawn", () => {
        spawned = true;
        resolve();
      });
      child.once("error", (error) => {
        const reason = new McpConnectionError(
          spawned ? "mcp-server-exited" : "mcp-connect-failed",
          serverId,
          `MCP server ${serverId} could not be started (${command}): ${error.message}`,
          { cause: error },
        );
        if (!spawned) reject(reason);
        this.finish(reason);
      });
      child.once("exit", (code, signal) => {
        this.markExited();
        void this.release();
        // 'close' waits for stdout to drain; a grandchild holding the pipe could delay it forever.
        setTimeout(() => this.finish(this.exitReason(code, signal)), 200).unref();
      });
      child.once("close", (code, signal) => this.finish(this.exitReason(code, signal)));
      child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
        this.options.onStderr?.(text);
      });
      child.stdin.on("error", (error) => this.onerror?.(error));
      child.stdout.on("error", (error) => this.onerror?.(error));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (child === undefined || this.finished || !child.stdin.writable) {
      return Promise.reject(
        this.closeReason ?? new McpConnectionError("mcp-server-exited", this.options.serverId, "Not connected"),
      );
    }
    return new Promise((resolve) => {
      if (child.stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else child.stdin.once("drain", resolve);
    });
  }

  /** Ends stdin, then SIGTERM, then SIGKILL, a second apart, until the process exits. */
  async close(): Promise<void> {
    const child = this.child;
    this.closeReason ??= new McpConnectionError(
      "mcp-closed",
      this.options.serverId,
      `MCP server ${this.options.serverId} connection was closed`,
    );
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      child.stdin.end();
      if (!(await this.waitForExit(CLOSE_GRACE_MS))) {
        child.kill("SIGTERM");
        if (!(await this.waitForExit(CLOSE_GRACE_MS))) {
          child.kill("SIGKILL");
          await this.waitForExit(CLOSE_GRACE_MS);
        }
      }
    }
    this.finish(this.closeReason);
  }

  private waitForExit(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private read(chunk: Buffer) {
    this.pending += chunk.toString("utf8");
    let index = this.pending.indexOf("\n");
    while (index !== -1 && !this.finished) {
      const line = this.pending.slice(0, index).replace(/\r$/, "");
      this.pending = this.pending.slice(index + 1);
      if (line.trim() !== "") this.readLine(line);
      index = this.pending.indexOf("\n");
    }
    if (this.pending.length > MAX_LINE_BYTES) {
      this.protocolFault(`a line of more than ${MAX_LINE_BYTES} bytes on stdout`);
    }
  }

  private readLine(line: string) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      this.protocolFault(`something that is not JSON-RPC on stdout: ${preview(line)}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(json);
    } catch {
      this.protocolFault(`a malformed JSON-RPC message on stdout: ${preview(line)}`);
      return;
    }
    this.onmessage?.(message);
  }

  private protocolFault(what: string) {
    const reason = new McpConnectionError(
      "mcp-protocol-error",
      this.options.serverId,
      `MCP server ${this.options.serverId} broke the protocol: it wrote ${what}`,
    );
    this.closeReason ??= reason;
    this.onerror?.(reason);
    this.child?.kill("SIGKILL");
    this.finish(reason);
  }

  private exitReason(code: number | null, signal: NodeJS.Signals | null): McpConnectionError {
    const { serverId } = this.options;
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? "unknown"}`;
    const stderr = this.stderrTail.trim();
    const tail = stderr === "" ? "" : `; its stderr ended with: ${preview(stderr.slice(-500))}`;
    return new McpConnectionError("mcp-server-exited", serverId, `MCP server ${serverId} ${how}${tail}`);
  }

  private finish(reason: McpConnectionError) {
    if (this.finished) return;
    this.finished = true;
    this.closeReason ??= reason;
    this.onclose?.();
  }
}

function preview(text: string): string {
  const oneLine = JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}...` : text);
  return oneLine;
}
