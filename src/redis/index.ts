// toolwire/redis: state that several toolwire processes share through Redis (createRedisApprovalStore).
// ioredis is an optional peer dependency. A static import of a missing package fails before any code of ours runs;
// so this entry checks it first and only then imports ./api.js.
// `import` loads this file and `require()` loads ./index.cts, which does the same with require(). This file never
// require()s an ES module: under import(), Node 20 and 22 can crash when that meets a module another import() is
// still loading (test/e2e/entry-points.test.ts). The names below are ./api.ts's, one for one (a test keeps them so).
import { assertPackagesInstalled, REDIS_FEATURE, REDIS_PACKAGES } from "../load-optional.js";

export type * from "./api.js";

assertPackagesInstalled(REDIS_FEATURE, REDIS_PACKAGES);
export const { createRedisApprovalStore, createRedisTaskStore } = await import("./api.js");
