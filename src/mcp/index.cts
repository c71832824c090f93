// toolwire/mcp for require(): the same check as ./index.ts, then ./api.js itself as the module's exports.
import loadOptional = require("../load-optional.js");

loadOptional.assertPackagesInstalled(loadOptional.MCP_FEATURE, loadOptional.MCP_SDK_PACKAGES);
// Only now: ./api.js imports the MCP SDK.
const api: typeof import("./api.js") = require("./api.js");
export = api;
