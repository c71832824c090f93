// toolwire/workers: remote executors on BullMQ (docs/workers.md), the session's side (createBullmqExecutor) and the
// worker's. BullMQ and ioredis are optional peer dependencies. A static import of a missing package fails before any
// code of ours runs; so this entry checks them first and only then imports ./api.js.
// `import` loads this file and `require()` loads ./index.cts, which does the same with require(). This file never
// require()s an ES module: under import(), Node 20 and 22 can crash when that meets a module another import() is
// still loading (test/e2e/entry-points.test.ts). The names below are ./api.ts's, one for one (a test keeps them so).
import { assertPackagesInstalled, BULLMQ_FEATURE, BULLMQ_PACKAGES } from "../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled(BULLMQ_FEATURE, BULLMQ_PACKAGES);
export const { createBullmqExecutor, ExecutorError, startBullmqWorker } = await import("./api.js");

// A class is a value and a type: the destructured constant above carries the value, this the instance type.
export type ExecutorError = Api.ExecutorError;
