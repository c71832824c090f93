// toolwire/redis: state that several toolwire processes share through Redis (createRedisApprovalStore).
// ioredis is an optional peer dependency. A static import of a missing package fails before any code of ours runs;
// so this entry checks it first and only then loads ./api.js, synchronously (require of an ES module,
// Node >= 20.19). The names below are ./api.ts's, one for one.
import { createRequire } from "node:module";
import { assertPackagesInstalled, REDIS_FEATURE, REDIS_PACKAGES } from "../load-optional.js";
import type * as Api from "./api.js";

export type * from "./api.js";

assertPackagesInstalled(REDIS_FEATURE, REDIS_PACKAGES);
const api = createRequire(import.meta.url)("./api.js") as typeof Api;

export const { createRedisApprovalStore } = api;
