// toolwire/workers: remote executors on BullMQ (SPEC 18), the session's side (createBullmqExecutor) and the worker's.
// BullMQ and ioredis are optional peer dependencies. A static import of a missing package fails before any code of
// ours runs; so this entry checks them first and only then loads ./api.js, synchronously (require of an ES module,
// Node >= 20.19). The names below are ./api.ts's, one for one.
import { createRequire } from "node:module";
import { assertPackagesInstalled, BULLMQ_FEATURE, BULLMQ_PACKAGES } from "../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled(BULLMQ_FEATURE, BULLMQ_PACKAGES);
const api = createRequire(import.meta.url)("./api.js") as typeof Api;

export const { createBullmqExecutor, ExecutorError, startBullmqWorker } = api;

// A class is a value and a type: the destructured constant above carries the value, this the instance type.
export type ExecutorError = Api.ExecutorError;
