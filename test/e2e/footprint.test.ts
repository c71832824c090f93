// What installing toolwire alone costs: npm pack, a fresh consumer project, npm install of the tarball (its
// dependencies from the registry), then the packages and bytes of its node_modules, both the files' own sizes and what
// they take on disk (as `du` counts, in the file system's blocks). Needs the registry and about 10-30 s, so it runs
// only with TOOLWIRE_FOOTPRINT=1; `npm run footprint` prints the same figures.
import { describe, expect, it } from "vitest";
import { builtScript } from "./helpers/build.js";

const enabled = process.env.TOOLWIRE_FOOTPRINT === "1";
if (!enabled) console.log("footprint test skipped: set TOOLWIRE_FOOTPRINT=1 (it installs from the npm registry)");

/** 10 MiB, as `du -sh node_modules` shows it. */
const LIMIT = 10 * 1024 * 1024;

describe.skipIf(!enabled)("installing toolwire alone", () => {
  it("brings at most 15 packages and 10 MiB, of files and on disk, and its entry points work without the optional peers", async () => {
    builtScript("dist/index.js");
    const { measureFootprint } = await import("../../scripts/measure-footprint.mjs");
    const result = measureFootprint() as {
      packages: number;
      bytes: number;
      diskBytes: number;
      names: string[];
      checks: Record<string, string>;
    };
    console.log(
      `footprint: ${result.packages} packages, ${(result.bytes / 2 ** 20).toFixed(2)} MiB of files ` +
        `(${(result.diskBytes / 2 ** 20).toFixed(2)} MiB on disk): ${result.names.join(", ")}`,
    );
    expect(result.names).not.toContain("openai");
    expect(result.names.filter((name) => name.startsWith("@modelcontextprotocol/"))).toEqual([]);
    expect(result.packages).toBeLessThanOrEqual(15);
    expect(result.bytes).toBeLessThanOrEqual(LIMIT);
    expect(result.diskBytes).toBeLessThanOrEqual(LIMIT);
    expect(result.checks).toEqual({ root: "ok", builtins: "ok", mcp: "ok" });
  }, 180_000);
});
