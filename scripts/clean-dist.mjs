// Run by `npm run build` before tsc: dist/ then holds exactly what the sources compile to, nothing left from an
// older build (a module whose source was removed, the source maps earlier builds emitted) that `npm pack` would ship.
import { rmSync } from "node:fs";

rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
