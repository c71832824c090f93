// The engine's worker threads: one kept warm between programs, more (up to four) only while programs overlap.
import { Worker } from "node:worker_threads";
import type { HostMessage, WorkerMessage, WorkerSetup } from "./protocol.js";

/** The worker script: plain JavaScript, so the same file runs from src/ (tests) and from dist/. */
const WORKER_URL = new URL("./program-worker.js", import.meta.url);
/** Workers at once in one process: one per running program. */
const MOST_WORKERS = 4;
/** Idle workers kept for the next program. */
const KEPT_IDLE = 1;

/** A worker lent to one program. */
export interface EngineWorker {
  /** The memory limit its engine was started with. */
  readonly memoryBytes: number;
  post(message: HostMessage): void;
  /** Raises the stop flag QuickJS's interrupt handler reads: spinning program code ends within milliseconds. */
  stop(): void;
  /** Lowers the stop flag: called before each program is sent, never by the worker. */
  clearStop(): void;
  /** Messages from the worker, and its failure (an error, an exit), for the program that holds it. */
  listen(onMessage: (message: WorkerMessage) => void, onFailure: (error: Error) => void): void;
}

interface PooledWorker extends EngineWorker {
  readonly thread: Worker;
  onMessage: ((message: WorkerMessage) => void) | undefined;
  onFailure: ((error: Error) => void) | undefined;
  gone: boolean;
}

interface Waiter {
  readonly memoryBytes: number;
  resolve(worker: EngineWorker): void;
  reject(error: unknown): void;
}

const workers = new Set<PooledWorker>();
const idle: PooledWorker[] = [];
const waiting: Waiter[] = [];
/** Workers starting ahead of a program (`warmEngineWorker`), by memory limit: a program waits for one, not a second. */
const warming = new Map<number, Promise<void>>();

/** A worker for a program with this memory limit: an idle one, a new one, or the next one freed. */
export function acquireEngineWorker(memoryBytes: number): Promise<EngineWorker> {
  const warm = warming.get(memoryBytes);
  if (warm !== undefined) return warm.then(() => acquireEngineWorker(memoryBytes));
  const index = idle.findIndex((worker) => worker.memoryBytes === memoryBytes);
  if (index !== -1) {
    const [worker] = idle.splice(index, 1);
    worker!.thread.ref();
    return Promise.resolve(worker!);
  }
  if (workers.size >= MOST_WORKERS && idle.length > 0) discardEngineWorker(idle.shift()!);
  if (workers.size < MOST_WORKERS) return spawnWorker(memoryBytes);
  return new Promise((resolve, reject) => waiting.push({ memoryBytes, resolve, reject }));
}

/** Gives a worker back after its program: kept warm (unref'd, so it never keeps the process alive) or ended. */
export function releaseEngineWorker(worker: EngineWorker): void {
  const pooled = worker as PooledWorker;
  pooled.onMessage = undefined;
  pooled.onFailure = undefined;
  const waiter = waiting.findIndex((entry) => entry.memoryBytes === pooled.memoryBytes);
  if (pooled.gone) {
    serveWaiting();
  } else if (waiter !== -1) {
    waiting.splice(waiter, 1)[0]!.resolve(pooled);
  } else if (waiting.length > 0 || idle.length >= KEPT_IDLE) {
    discardEngineWorker(pooled);
  } else {
    pooled.thread.unref();
    idle.push(pooled);
  }
}

/** Ends a worker (it did not answer, or its engine can no longer be trusted) and lets a waiting program start. */
export function discardEngineWorker(worker: EngineWorker): void {
  const pooled = worker as PooledWorker;
  if (!pooled.gone) {
    pooled.gone = true;
    pooled.onMessage = undefined;
    pooled.onFailure = undefined;
    workers.delete(pooled);
    const index = idle.indexOf(pooled);
    if (index !== -1) idle.splice(index, 1);
    pooled.thread.terminate().catch(() => {});
  }
  serveWaiting();
}

/**
 * Starts a worker ahead of the first program and keeps it idle (unless one is idle or starting already). A program
 * that asks for a worker meanwhile waits for this one: two starting at once would share the cores and both be late.
 */
export function warmEngineWorker(memoryBytes: number): Promise<void> {
  const starting = warming.get(memoryBytes);
  if (starting !== undefined) return starting;
  if (idle.some((worker) => worker.memoryBytes === memoryBytes)) return Promise.resolve();
  const warm = acquireEngineWorker(memoryBytes).then(releaseEngineWorker);
  const settled = warm.finally(() => warming.delete(memoryBytes));
  warming.set(
    memoryBytes,
    settled.catch(() => undefined),
  );
  return settled;
}

/** How many engine workers are alive in this process, busy or idle. */
export function countEngineWorkers(): number {
  return workers.size;
}

function serveWaiting(): void {
  while (waiting.length > 0 && workers.size < MOST_WORKERS) {
    const waiter = waiting.shift()!;
    spawnWorker(waiter.memoryBytes).then(waiter.resolve, waiter.reject);
  }
}

function spawnWorker(memoryBytes: number): Promise<EngineWorker> {
  const setup: WorkerSetup = { memoryBytes, stop: new SharedArrayBuffer(4) };
  const flag = new Int32Array(setup.stop);
  let thread: Worker;
  try {
    thread = startThread(setup);
  } catch (error) {
    return Promise.reject(error);
  }
  const worker: PooledWorker = {
    memoryBytes,
    thread,
    onMessage: undefined,
    onFailure: undefined,
    gone: false,
    post: (message) => thread.postMessage(message),
    stop: () => Atomics.store(flag, 0, 1),
    clearStop: () => Atomics.store(flag, 0, 0),
    listen(onMessage, onFailure) {
      worker.onMessage = onMessage;
      worker.onFailure = onFailure;
    },
  };
  workers.add(worker);
  return new Promise((resolve, reject) => {
    let ready = false;
    const fail = (error: Error) => {
      if (worker.gone) return;
      const onFailure = worker.onFailure;
      discardEngineWorker(worker);
      if (!ready) reject(error);
      else onFailure?.(error);
    };
    thread.on("message", (message: WorkerMessage) => {
      if (message.kind !== "ready") return worker.onMessage?.(message);
      ready = true;
      resolve(worker);
    });
    thread.on("error", fail);
    thread.on("exit", (code) => fail(new Error(`the engine's worker exited (code ${code})`)));
  });
}

/** A worker thread on the worker script, with the host's Node options as far as a worker takes them. */
function startThread(workerData: WorkerSetup): Worker {
  const execArgv = workerExecArgv(process.execArgv);
  // Inherited, the host's options are taken as Node takes them (process-wide ones left aside); given, they are checked.
  if (execArgv.length === process.execArgv.length) return new Worker(WORKER_URL, { workerData });
  try {
    return new Worker(WORKER_URL, { workerData, execArgv });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
    return new Worker(WORKER_URL, { workerData, execArgv: [] });
  }
}

/**
 * The host's Node options for a worker, less those that belong to a main script given as text (`-e`, `-p`,
 * `--input-type`): a worker started from a file refuses them.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const option = execArgv[index]!;
    if (["-e", "--eval", "-p", "--print"].includes(option)) index++;
    else if (!/^--(?:input-type|eval|print)=/.test(option)) kept.push(option);
  }
  return kept;
}
