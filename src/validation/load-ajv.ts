// ajv, loaded at the first schema compiled rather than when toolwire is imported (it is about 90 modules, most of
// what an import of the root once cost); ajv is CommonJS, so loading it here stays synchronous.
import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);

/** ajv's draft-07 class. Loads ajv at the first call; later calls take it from Node's module cache. */
export function loadAjv(): typeof Ajv {
  return (require("ajv") as typeof import("ajv")).Ajv;
}

/** ajv's draft 2020-12 class. Loads it at the first call. */
export function loadAjv2020(): typeof Ajv2020 {
  return (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020;
}

/** ajv-formats' plugin (`format` keywords: date-time, email, uri, …). Loads it at the first call. */
export function loadAddFormats(): (ajv: Ajv | Ajv2020) => void {
  return require("ajv-formats") as (ajv: Ajv | Ajv2020) => void;
}
