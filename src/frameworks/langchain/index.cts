// toolwire/langchain for require(): the same check as ./index.ts, then ./api.js itself as the module's exports.
import loadOptional = require("../../load-optional.js");

loadOptional.assertPackagesInstalled("toolwire/langchain", ["@langchain/core"]);
// Only now: ./api.js imports @langchain/core.
const api: typeof import("./api.js") = require("./api.js");
export = api;
