// Debian's redis-server on a free loopback port, for tests: no persistence, stopped by PID.
import { type ChildProcess, spawn } from "node:child_process";
import { isExecutable } from "../../src/sandbox/find-executable.js";
import { freePort } from "./free-port.js";

/** Set to a redis-server path to use that one, or to `none` to act as if it were missing. */
export const REDIS_VARIABLE = "TOOLWIRE_REDIS_SERVER";

/** The redis-server binary (`$TOOLWIRE_REDIS_SERVER`, else Debian's /usr/bin/redis-server), or undefined. */
export function redisServerAvailable(): string | undefined {
  const chosen = process.env[REDIS_VARIABLE];
  if (chosen === "none") return undefined;
  if (chosen !== undefined && chosen !== "") return isExecutable(chosen) ? chosen : undefined;
  return ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find(isExecutable);
}

/** Whether a Redis test must run: redis-server is here, or CI says everything must run. */
export const REDIS_RUNS = redisServerAvailable() !== undefined || process.env.CI === "true";

/** A running redis-server. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly pid: number;
  /** Stops it (SIGTERM, SIGKILL after 3 s). Idempotent. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Starts redis-server on `port` (default: a free one) of 127.0.0.1, with nothing saved to disk, and resolves once
 * it is ready for connections. Rejects when redis-server is missing, exits, or is not ready within 5 s.
 */
export async function startRedis(options: { readonly port?: number } = {}): Promise<RedisServer> {
  const binary = redisServerAvailable();
  if (binary === undefined) throw new Error("redis-server is not installed (apt-get install redis-server)");
  const port = options.port ?? (await freePort());
  const child = spawn(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  running.add(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`redis-server was not ready within 5 s:\n${output}`)), 5_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      running.delete(child);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", fail);
    child.once("exit", (code, signal) => fail(new Error(`redis-server exited (${signal ?? code}):\n${output}`)));
  });
  child.removeAllListeners("exit");
  child.stdout?.removeAllListeners("data").resume();
  child.stderr?.removeAllListeners("data").resume();
  let stopping: Promise<void> | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          running.delete(child);
          resolve();
          return;
        }
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
        child.once("exit", () => {
          clearTimeout(timer);
          running.delete(child);
          resolve();
        });
        child.kill("SIGTERM");
      });
      return stopping;
    },
  };
}
