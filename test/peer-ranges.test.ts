// toolwire's peer ranges accept both the previous and the current major of each SDK a user may have, so that
// `npm install toolwire ai@7` (or ai@6, openai@7, either pi package) resolves without ERESOLVE. Offline: npm's own
// check is semver's `satisfies` of the installed version against the peer range, done here on the versions tested.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const semver = require("semver") as {
  satisfies(version: string, range: string): boolean;
  intersects(a: string, b: string): boolean;
};

const root = resolve(import.meta.dirname, "..");
interface Manifest {
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
const toolwire = manifest(".");

// Each peer, and the folders of node_modules holding the majors the tests run against (dev dependencies, some aliased).
const MAJORS: Record<string, readonly string[]> = {
  ai: ["node_modules/ai", "node_modules/ai-7"],
  openai: ["node_modules/openai", "node_modules/openai-7"],
  "@mariozechner/pi-agent-core": ["node_modules/@mariozechner/pi-agent-core"],
  "@earendil-works/pi-agent-core": ["node_modules/@earendil-works/pi-agent-core"],
};

describe("toolwire's peer ranges", () => {
  for (const [name, dirs] of Object.entries(MAJORS)) {
    it(`accept every major of ${name} the tests run against, as an optional peer`, () => {
      const range = toolwire.peerDependencies?.[name];
      expect(range, `${name} is a peer`).toBeDefined();
      expect(toolwire.peerDependenciesMeta?.[name]?.optional).toBe(true);
      for (const dir of dirs) {
        const { version } = manifest(dir);
        expect(semver.satisfies(version, range ?? ""), `${name} ${version} in ${range}`).toBe(true);
      }
    });
  }

  it("accept ai 6 and 7 and openai 6 and 7, the majors users install today", () => {
    for (const version of ["6.0.326", "7.0.0", "7.99.0"]) {
      expect(semver.satisfies(version, toolwire.peerDependencies?.ai ?? ""), `ai ${version}`).toBe(true);
    }
    for (const version of ["6.30.1", "7.0.0", "7.99.0"]) {
      expect(semver.satisfies(version, toolwire.peerDependencies?.openai ?? ""), `openai ${version}`).toBe(true);
    }
  });

  it("let npm share one openai with @openai/agents-core, which depends on openai 7 itself", () => {
    const agentsCore = manifest("node_modules/@openai/agents-core");
    const wanted = agentsCore.dependencies?.openai ?? "";
    expect(semver.intersects(wanted, toolwire.peerDependencies?.openai ?? "")).toBe(true);
    const nested = "node_modules/@openai/agents-core/node_modules/openai";
    const brought = manifest(existsSync(join(root, nested)) ? nested : "node_modules/openai").version;
    expect(semver.satisfies(brought, toolwire.peerDependencies?.openai ?? "")).toBe(true);
  });
});
