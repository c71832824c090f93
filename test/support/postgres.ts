// Debian's PostgreSQL in a temp folder on a free loopback port, for tests: trust auth, no fsync, stopped by PID.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { isExecutable } from "../../src/sandbox/find-executable.js";
import { freePort } from "./free-port.js";

/** Set to a folder holding initdb and postgres to use those, or to `none` to act as if they were missing. */
export const POSTGRES_VARIABLE = "TOOLWIRE_POSTGRES_BIN";

/** The folder holding `initdb` and `postgres` (`$TOOLWIRE_POSTGRES_BIN`, else Debian's newest), or undefined. */
export function postgresAvailable(): string | undefined {
  const chosen = process.env[POSTGRES_VARIABLE];
  if (chosen === "none") return undefined;
  const candidates =
    chosen !== undefined && chosen !== ""
      ? [chosen]
      : [...debianVersions().map((version) => `/usr/lib/postgresql/${version}/bin`), "/usr/local/bin", "/usr/bin"];
  return candidates.find((folder) => isExecutable(join(folder, "initdb")) && isExecutable(join(folder, "postgres")));
}

/** Whether a PostgreSQL test must run: the binaries are here, or CI says everything must run. */
export const POSTGRES_RUNS = postgresAvailable() !== undefined || process.env.CI === "true";

/** A running PostgreSQL. */
export interface PostgresServer {
  readonly port: number;
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust auth: no password). */
  readonly connectionString: string;
  readonly pid: number;
  /** Stops it (SIGINT: fast shutdown; SIGKILL after 5 s) and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

// initdb and postgres refuse to run as root: as root, they run as `nobody` over a folder `nobody` owns.
const NOBODY = 65_534;
const running = new Set<ChildProcess>();
const folders = new Set<string>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * Makes a cluster in a temp folder (initdb, trust auth, user `postgres`) and starts it on `port` (default: a free
 * one) of 127.0.0.1 with its unix socket in that folder; resolves once it accepts connections. Rejects when the
 * binaries are missing, initdb fails, or the server exits or is not ready within 20 s (the folder is removed then).
 */
export async function startPostgres(options: { readonly port?: number } = {}): Promise<PostgresServer> {
  const bin = postgresAvailable();
  if (bin === undefined) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  const asRoot = process.getuid?.() === 0;
  const folder = mkdtempSync(join(asRoot ? tempFolderForNobody() : tmpdir(), "toolwire-pg-"));
  folders.add(folder);
  if (asRoot) chownSync(folder, NOBODY, NOBODY);
  const command = (binary: string, args: string[]): [string, string[]] =>
    asRoot
      ? ["setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", join(bin, binary), ...args]]
      : [join(bin, binary), args];
  const data = join(folder, "data");
  try {
    const [initdb, initArgs] = command("initdb", [
      "-D",
      data,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-sync",
      "--no-instructions",
    ]);
    await promisify(execFile)(initdb, initArgs, { cwd: folder, timeout: 60_000 });
  } catch (error) {
    removeFolder(folder);
    throw new Error(`initdb failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
  const port = options.port ?? (await freePort());
  const [postgres, args] = command("postgres", [
    "-D",
    data,
    "-k",
    folder,
    "-h",
    "127.0.0.1",
    "-p",
    String(port),
    "-F",
    "-c",
    "fsync=off",
    "-c",
    "max_connections=50",
  ]);
  // setpriv execs postgres: the child's PID is the server's.
  const child = spawn(postgres, args, { cwd: folder, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`postgres was not ready within 20 s:\n${output}`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      running.delete(child);
      removeFolder(folder);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("database system is ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", fail);
    child.once("exit", (code, signal) => fail(new Error(`postgres exited (${signal ?? code}):\n${output}`)));
  });
  child.removeAllListeners("exit");
  child.stdout?.removeAllListeners("data").resume();
  child.stderr?.removeAllListeners("data").resume();
  let stopping: Promise<void> | undefined;
  return {
    port,
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: child.pid as number,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        const done = () => {
          running.delete(child);
          removeFolder(folder);
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) {
          done();
          return;
        }
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(timer);
          done();
        });
        child.kill("SIGINT");
      });
      return stopping;
    },
  };
}

function removeFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  folders.delete(folder);
}

/** A temp folder whose every parent others may pass through (a test runner's own temp folder may be 0700). */
function tempFolderForNobody(): string {
  const passable = (folder: string): boolean => {
    try {
      if ((statSync(folder).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    return dirname(folder) === folder || passable(dirname(folder));
  };
  const found = [tmpdir(), "/tmp", "/var/tmp"].find(passable);
  if (found === undefined) throw new Error("no temp folder that the user nobody can reach, for PostgreSQL");
  return found;
}

/** Debian's installed major versions, newest first. */
function debianVersions(): string[] {
  if (!existsSync("/usr/lib/postgresql")) return [];
  return readdirSync("/usr/lib/postgresql")
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
}
