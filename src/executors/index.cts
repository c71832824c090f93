// toolwire/workers for require(): the same check as ./index.ts, then ./api.js itself as the module's exports.
import loadOptional = require("../load-optional.js");

loadOptional.assertPackagesInstalled(loadOptional.BULLMQ_FEATURE, loadOptional.BULLMQ_PACKAGES);
// Only now: ./api.js imports BullMQ and ioredis.
const api: typeof import("./api.js") = require("./api.js");
export = api;
