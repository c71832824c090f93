// toolwire's own type declarations never import a provider or MCP SDK: consumers compile without installing them.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtScript } from "./e2e/helpers/build.js";

const root = resolve(import.meta.dirname, "..");
const dist = join(root, "dist");

/** The SDKs that are optional peers or dev dependencies: a declaration that imports one breaks a consumer without it. */
const SDKS = ["@anthropic-ai/sdk", "openai", "@google/genai", "@modelcontextprotocol/", "@opentelemetry/"];

/**
 * The entries whose declarations must stay SDK-free: the root and every entry without an optional peer.
 * `toolwire/mcp` is left out: it is the MCP bridge and types itself with the MCP SDK it needs; framework entries may
 * name their own framework's types.
 */
const ENTRIES = [
  "index.d.ts",
  "providers/index.d.ts",
  "telemetry/index.d.ts",
  "plugins/index.d.ts",
  "skills/index.d.ts",
  "config/index.d.ts",
  "builtins/index.d.ts",
];

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|<reference\s+types=)["']([^"']+)["']/g;

function isSdk(specifier: string): boolean {
  return SDKS.some((sdk) =>
    sdk.endsWith("/") ? specifier.startsWith(sdk) : specifier === sdk || specifier.startsWith(`${sdk}/`),
  );
}

/** Every declaration file an entry reaches through relative imports, and the package imports among them. */
function declarationsOf(entry: string): { files: string[]; imports: { file: string; specifier: string }[] } {
  const seen = new Set<string>();
  const imports: { file: string; specifier: string }[] = [];
  const pending = [join(dist, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier.replace(/\.js$/, ".d.ts")));
      else imports.push({ file: relative(dist, file), specifier });
    }
  }
  return { files: [...seen].map((file) => relative(dist, file)).sort(), imports };
}

function declarationFilesUnder(dir: string): string[] {
  return readdirSync(join(dist, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".d.ts"))
    .map((name) => join(dir, name));
}

beforeAll(() => {
  builtScript("dist/index.d.ts");
}, 60_000);

describe("the built declarations", () => {
  it("of the root and the entries without an optional peer import no SDK, through any file they reach", () => {
    for (const entry of ENTRIES) {
      const { files, imports } = declarationsOf(entry);
      // The reader follows imports: the root reaches dozens of files, every entry more than itself.
      expect(files.length).toBeGreaterThan(entry === "index.d.ts" ? 10 : 2);
      expect(imports.filter(({ specifier }) => isSdk(specifier))).toEqual([]);
    }
  });

  it("of the provider adapters and model clients import no SDK", () => {
    const files = declarationFilesUnder("providers");
    expect(files).toEqual(expect.arrayContaining(["providers/anthropic-wire.d.ts", "providers/gemini-wire.d.ts"]));
    const offending = files.flatMap((file) => declarationsOf(file).imports.filter(({ specifier }) => isSdk(specifier)));
    expect(offending).toEqual([]);
  });

  it("reach the adapters' wire types from the toolwire/providers entry", () => {
    const { files } = declarationsOf("providers/index.d.ts");
    for (const wire of ["anthropic", "openai-chat", "openai-responses", "gemini"]) {
      expect(files).toContain(`providers/${wire}-wire.d.ts`);
    }
  });

  it("of toolwire/pi name neither pi package, so they type with pi 0.73 or pi 1 (whose names differ) alone", () => {
    const { files, imports } = declarationsOf("frameworks/pi/index.d.ts");
    expect(files).toContain("frameworks/pi/pi-agent-tool.d.ts");
    expect(imports.filter(({ specifier }) => /^@(mariozechner|earendil-works)\//.test(specifier))).toEqual([]);
  });

  it("are checked by a reader that does find SDK imports where there are some (the MCP entry's)", () => {
    const { imports } = declarationsOf("mcp/index.d.ts");
    expect(imports.filter(({ specifier }) => isSdk(specifier)).length).toBeGreaterThan(0);
  });
});
