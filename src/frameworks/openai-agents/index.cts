// toolwire/openai-agents for require(): the same check as ./index.ts, then ./api.js itself as the module's exports.
import loadOptional = require("../../load-optional.js");

loadOptional.assertPackagesInstalled("toolwire/openai-agents", ["@openai/agents-core"]);
// Only now: ./api.js imports @openai/agents-core.
const api: typeof import("./api.js") = require("./api.js");
export = api;
