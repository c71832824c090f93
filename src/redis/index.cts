// toolwire/redis for require(): the same check as ./index.ts, then ./api.js itself as the module's exports.
import loadOptional = require("../load-optional.js");

loadOptional.assertPackagesInstalled(loadOptional.REDIS_FEATURE, loadOptional.REDIS_PACKAGES);
// Only now: ./api.js imports ioredis.
const api: typeof import("./api.js") = require("./api.js");
export = api;
