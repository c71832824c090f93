// Debian's nginx as a round-robin load balancer on loopback, in front of gateway processes, for tests.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findExecutable, isExecutable } from "../../src/sandbox/find-executable.js";
import { freePort } from "./free-port.js";

/** A running nginx balancer. */
export interface NginxBalancer {
  /** The loopback port it listens on. */
  readonly port: number;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** The nginx master's process id (its workers are in its process group). */
  readonly pid: number;
  /** Stops nginx (SIGTERM, then SIGKILL to its process group after 5 s) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** Set to an nginx path to use that one, or to `none` to act as if nginx were missing. */
export const NGINX_VARIABLE = "TOOLWIRE_NGINX";

/**
 * The nginx binary: `$TOOLWIRE_NGINX`, else the first on PATH, else /usr/sbin/nginx (Debian's, often
 * not on a user's PATH); undefined when there is none.
 */
export function nginxAvailable(): string | undefined {
  const chosen = process.env[NGINX_VARIABLE];
  if (chosen === "none") return undefined;
  if (chosen !== undefined && chosen !== "") return isExecutable(chosen) ? chosen : undefined;
  return findExecutable("nginx") ?? ["/usr/sbin/nginx", "/usr/local/sbin/nginx"].find(isExecutable);
}

const START_DEADLINE_MS = 5_000;
const STOP_DEADLINE_MS = 5_000;
const PORT_ATTEMPTS = 5;

/**
 * Balancers not yet stopped, with their folders. While there are any, the test process's exit, and a
 * SIGTERM or SIGINT (how vitest ends a worker), kill them and remove their folders first, so no nginx
 * outlives a test that never called `stop`.
 */
const running = new Map<number, string>();
const ENDING_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

function killRunning(): void {
  for (const [pid, folder] of running) {
    killGroup(pid, "SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  }
  running.clear();
}

function onEndingSignal(signal: NodeJS.Signals): void {
  killRunning();
  // With no one else listening, the signal does what it would have done without us.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function track(pid: number, folder: string): void {
  if (running.size === 0) {
    process.on("exit", killRunning);
    for (const signal of ENDING_SIGNALS) process.once(signal, onEndingSignal);
  }
  running.set(pid, folder);
}

function untrack(pid: number): void {
  if (!running.delete(pid) || running.size > 0) return;
  process.off("exit", killRunning);
  for (const signal of ENDING_SIGNALS) process.off(signal, onEndingSignal);
}

/**
 * Starts nginx on `127.0.0.1:<free port>` passing every request under `proxyPath` (default `/`) to the
 * `upstreams` (ports on 127.0.0.1) in turn, round-robin with no stickiness: nothing (connection, cookie,
 * `Mcp-Session-Id`) ties a client to one upstream. It passes the client's headers through, `Host` as the
 * client sent it, uses HTTP/1.1 to the upstreams and buffers nothing (SSE streams flow as written). nginx
 * runs from a temp folder with its own config, pid file, error log and temp paths. Rejects, with the end
 * of nginx's error log, when nginx is missing or does not accept connections within 5 s.
 */
export async function startNginxBalancer(
  upstreams: readonly number[],
  options: { readonly proxyPath?: string } = {},
): Promise<NginxBalancer> {
  const nginx = nginxAvailable();
  if (nginx === undefined)
    throw new Error(`nginx is not installed (no nginx on PATH or in /usr/sbin, or ${NGINX_VARIABLE} says none)`);
  if (upstreams.length === 0) throw new Error("startNginxBalancer needs at least one upstream port");
  const folder = await mkdtemp(join(tmpdir(), "toolwire-nginx-"));
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      await rm(join(folder, "error.log"), { force: true });
      await writeFile(join(folder, "nginx.conf"), nginxConfig(folder, port, upstreams, options.proxyPath ?? "/"));
      const started = await startNginx(nginx, folder, port);
      if (started.kind === "running") return balancer(started.child, folder, port);
      // Someone took the port between our probe and nginx's bind: try another.
      if (started.kind === "port-taken" && attempt < PORT_ATTEMPTS) continue;
      throw new Error(`nginx did not start: ${started.reason}\n${tail(join(folder, "error.log"))}`);
    }
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}

/** The config: one master and one worker in the foreground, everything it writes inside `folder`. */
function nginxConfig(folder: string, port: number, upstreams: readonly number[], proxyPath: string): string {
  const at = (name: string) => join(folder, name);
  return `# Written by test/support/nginx.ts
daemon off;
master_process on;
worker_processes 1;
${process.getuid?.() === 0 ? "# As root, workers would drop to nobody and lose access to this folder.\nuser root;\n" : ""}pid ${at("nginx.pid")};
error_log ${at("error.log")} info;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${at("client_body")};
  proxy_temp_path ${at("proxy")};
  fastcgi_temp_path ${at("fastcgi")};
  uwsgi_temp_path ${at("uwsgi")};
  scgi_temp_path ${at("scgi")};
  upstream gateway {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location ${proxyPath} {
      proxy_pass http://gateway;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_cache off;
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      client_max_body_size 64m;
    }
  }
}
`;
}

type Started =
  | { readonly kind: "running"; readonly child: ChildProcess }
  | { readonly kind: "port-taken" | "failed"; readonly reason: string };

/** Spawns nginx and waits until its port accepts connections, it exits, or the deadline passes. */
async function startNginx(nginx: string, folder: string, port: number): Promise<Started> {
  const child = spawn(
    nginx,
    ["-p", `${folder}/`, "-c", join(folder, "nginx.conf"), "-e", join(folder, "error.log")],
    // Its own process group, so stop can reach the workers too.
    { detached: true, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<string>((resolve) => {
    child.once("error", (error) => resolve(error.message));
    child.once("exit", (code, signal) => resolve(`nginx exited (${signal ?? `code ${code}`}) ${stderr.trim()}`));
  });
  let gone: string | undefined;
  void exited.then((reason) => {
    gone = reason;
  });
  const deadline = Date.now() + START_DEADLINE_MS;
  while (gone === undefined && Date.now() < deadline) {
    if (await accepts(port)) {
      track(child.pid!, folder);
      return { kind: "running", child };
    }
    await Promise.race([exited, sleep(25)]);
  }
  if (gone === undefined) {
    await stopChild(child);
    return { kind: "failed", reason: `port ${port} accepted no connection within ${START_DEADLINE_MS} ms` };
  }
  const log = existsSync(join(folder, "error.log")) ? readFileSync(join(folder, "error.log"), "utf8") : "";
  return { kind: /Address already in use/.test(log + gone) ? "port-taken" : "failed", reason: gone };
}

function balancer(child: ChildProcess, folder: string, port: number): NginxBalancer {
  let stopping: Promise<void> | undefined;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop() {
      stopping ??= stopChild(child).then(() => rm(folder, { recursive: true, force: true }));
      return stopping;
    },
  };
}

/** SIGTERM (nginx's fast shutdown, which does not wait for open SSE streams) to the master, SIGKILL to its group after the deadline. */
async function stopChild(child: ChildProcess): Promise<void> {
  const pid = child.pid!;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const inTime = await Promise.race([exited.then(() => true), sleep(STOP_DEADLINE_MS).then(() => false)]);
    if (!inTime) {
      killGroup(pid, "SIGKILL");
      await exited;
    }
  }
  // A worker that outlived its master (it should not) goes with the group.
  killGroup(pid, "SIGKILL");
  untrack(pid);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Whether a TCP connection to 127.0.0.1:`port` opens. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The last lines of a log file, or a note that there is none. */
function tail(file: string, lines = 20): string {
  if (!existsSync(file)) return `(no ${file})`;
  return `${file}:\n${readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n")}`;
}
