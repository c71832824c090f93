// The public API of toolwire/workers, loaded by ./index.ts once BullMQ and ioredis are known to be installed.

// The session side: an executor for the registry's `executors`.
export {
  type BullmqExecutor,
  type BullmqExecutorOptions,
  createBullmqExecutor,
} from "./bullmq/create-bullmq-executor.js";
// The worker side: runs the calls.
export { type BullmqWorker, type BullmqWorkerOptions, startBullmqWorker } from "./bullmq/start-bullmq-worker.js";
// Errors.
export { ExecutorError, type ExecutorErrorCode } from "./executor-error.js";
