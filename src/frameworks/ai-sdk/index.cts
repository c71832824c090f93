// toolwire/ai-sdk for require(): the same check as ./index.ts, then ./api.js itself as the module's exports.
import loadOptional = require("../../load-optional.js");

loadOptional.assertPackagesInstalled("toolwire/ai-sdk", ["ai"]);
// Only now: ./api.js imports `ai`.
const api: typeof import("./api.js") = require("./api.js");
export = api;
