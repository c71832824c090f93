// The layers of src/, lowest first. A file imports its own area or an area of a lower layer, never one of its own
// layer or a higher one, and no files import each other in a circle (type-only and dynamic imports count too).
//
//   0  core                          pure: the vocabulary, register, filter, wrap, dispatch
//   1  load-optional.ts, validation, sandbox, plugins, skills
//                                    one job each over the core: optional peers, ajv, bubblewrap, plugin host, SKILL.md
//   2  mcp/client, providers, builtins, telemetry, redis, code-mode, cedar
//                                    the parts: MCP servers as tool sources, model wires and clients, the built-in
//                                    tools, OpenTelemetry, the Redis store, code mode (a program calling tools),
//                                    Cedar call policies
//   3  mcp/server, executors, create-agent-session.ts, journal
//                                    serving a session over MCP (its gateway/ is the HTTP side), remote executors,
//                                    a session with its default validator and telemetry, the run journals (file,
//                                    PostgreSQL)
//   4  config, mcp, loop, frameworks the config file (it names every part's options), the toolwire/mcp entry
//      replay                        (mcp/index.ts, mcp/api.ts: client and server together), the agent loop, the
//                                    framework adapters, and record and replay (a run's traffic, replayed offline)
//   5  index.ts, inspector           the root entry, and the inspector (it shows the loop's events)
//   6  cli                           the toolwire command: everything above
//
// An area is a folder or a file under src/ (the longest matching name wins: mcp/client is not mcp). Tests are left
// out: a test may stand up a higher layer to exercise a lower one (a real MCP server for the client).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const LAYERS: readonly (readonly string[])[] = [
  ["core"],
  ["load-optional.ts", "validation", "sandbox", "plugins", "skills"],
  ["mcp/client", "providers", "builtins", "telemetry", "redis", "code-mode", "cedar"],
  ["mcp/server", "executors", "create-agent-session.ts", "journal"],
  ["config", "mcp", "loop", "frameworks", "replay"],
  ["index.ts", "inspector"],
  ["cli"],
];

const SRC = resolve(import.meta.dirname, "../src");
const SOURCE = /\.(?:ts|cts|mts)$/;
const TEST = /\.test(?:-d)?\.ts$|\.case\.test\.ts$/;

/** The shipped source files under src/ (no tests), relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith(".d.ts")
      ? [relative(SRC, path)]
      : [];
  });
}

/** Every relative specifier a file imports: static, type-only, re-exports, `import()` and `require()`. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(SRC, file), "utf8");
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith("."));
}

/** The source file a specifier names (`./x.js` is `x.ts`, `./x.cjs` is `x.cts`), relative to src/. */
function targetOf(file: string, specifier: string): string {
  const path = relative(SRC, resolve(SRC, dirname(file), specifier));
  return path
    .replace(/\.js$/, ".ts")
    .replace(/\.cjs$/, ".cts")
    .replace(/\.mjs$/, ".mts");
}

/** The area of a file: the longest name of LAYERS it is or lies under, with its layer; undefined when none. */
function areaOf(file: string): { area: string; layer: number } | undefined {
  let found: { area: string; layer: number } | undefined;
  LAYERS.forEach((areas, layer) => {
    for (const area of areas) {
      const matches = file === area || file.startsWith(`${area}/`);
      if (matches && (found === undefined || area.length > found.area.length)) found = { area, layer };
    }
  });
  return found;
}

const files = sourceFiles();
const graph = new Map(files.map((file) => [file, relativeImports(file).map((specifier) => targetOf(file, specifier))]));

/** Every import circle, each once as a path that ends where it starts (a depth-first search over the files). */
function findCycles(): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === "open") cycles.push([...path.slice(path.indexOf(target)), target]);
      else if (!state.has(target) && graph.has(target)) visit(target);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** Every import of a file from another area of its own layer or of a higher one, as a line for a person. */
function importsAgainstTheLayers(): string[] {
  const offenders: string[] = [];
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    for (const target of targets) {
      const to = areaOf(target);
      if (from === undefined || to === undefined || from.area === to.area || to.layer < from.layer) continue;
      const how = to.layer === from.layer ? "its own layer" : "a higher layer";
      offenders.push(`${file} (${from.area}, layer ${from.layer}) imports ${target} (${to.area}, ${how})`);
    }
  }
  return offenders;
}

describe("the layers of src/", () => {
  it("place every source file in an area", () => {
    expect(files.filter((file) => areaOf(file) === undefined)).toEqual([]);
  });

  it("import only files that exist under src/", () => {
    const missing = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !graph.has(target)).map((target) => `${file} imports ${target}`),
    );
    expect(missing).toEqual([]);
  });

  it("import only their own area or a lower layer", () => {
    expect(importsAgainstTheLayers()).toEqual([]);
  });

  it("have no import circle", () => {
    expect(findCycles().map((cycle) => cycle.join(" -> "))).toEqual([]);
  });

  it("finds the imports it checks (the scan is not vacuous)", () => {
    expect(files.length).toBeGreaterThan(200);
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(edges).toBeGreaterThan(1000);
    // A static import, a type-only import and a dynamic import() are all seen.
    expect(graph.get("mcp/api.ts")).toContain("mcp/client/connect-mcp-server.ts");
    expect(graph.get("config/toolwire-config.ts")).toContain("mcp/server/gateway/gateway-options.ts");
    expect(graph.get("cli/commands/run-serve.ts")).toContain("mcp/server/serve-mcp.ts");
  });

  it("would catch a circle and an upward import (the checks are not vacuous)", () => {
    graph.set("core/probe.ts", ["cli/main.ts", "core/probe-back.ts"]);
    graph.set("core/probe-back.ts", ["core/probe.ts"]);
    graph.set("providers/probe.ts", ["mcp/client/errors.ts"]);
    try {
      expect(findCycles()).toEqual([["core/probe-back.ts", "core/probe.ts", "core/probe-back.ts"]]);
      expect(importsAgainstTheLayers()).toEqual([
        "core/probe.ts (core, layer 0) imports cli/main.ts (cli, a higher layer)",
        "providers/probe.ts (providers, layer 2) imports mcp/client/errors.ts (mcp/client, its own layer)",
      ]);
      expect(areaOf("mcp/client/oauth/index.ts")).toEqual({ area: "mcp/client", layer: 2 });
      expect(areaOf("mcp/index.ts")).toEqual({ area: "mcp", layer: 4 });
    } finally {
      for (const probe of ["core/probe.ts", "core/probe-back.ts", "providers/probe.ts"]) graph.delete(probe);
    }
  });
});
