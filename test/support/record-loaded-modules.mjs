// `node --import ./record-loaded-modules.mjs` with TOOLWIRE_MODULE_LOG naming a file: every module the process loads is
// written there, one URL a line: ES modules as they load (a loader hook), CommonJS ones from Node's require cache (which
// the hooks do not see on Node 20) as the process exits. `globalThis.loadedModules()` lists them at any moment.
import { appendFileSync, readFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const log = process.env.TOOLWIRE_MODULE_LOG;
if (log === undefined) throw new Error("record-loaded-modules needs TOOLWIRE_MODULE_LOG");
appendFileSync(log, "");
const hook = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

const cache = createRequire(import.meta.url).cache;
const commonJs = () => Object.keys(cache).map((file) => pathToFileURL(file).href);
globalThis.loadedModules = () => [
  ...new Set([
    ...readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line !== ""),
    ...commonJs(),
  ]),
];
process.on("exit", () => appendFileSync(log, commonJs().join("\n")));
