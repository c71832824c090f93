import { describe, expect, it } from "vitest";
import { checkResults } from "../../bench/lib/checks.js";
import { caseId, verifyCases } from "../../bench/lib/harness.js";
import {
  evaluateTargets,
  formatDifference,
  formatNs,
  formatRatio,
  formatReport,
  linearity,
  medianOf,
  perCallNs,
  ratio,
  summarize,
} from "../../bench/lib/report.js";
import { buildToolSpecs, loadFixtureTools } from "../../bench/lib/tool-sets.js";
import { turnCalls } from "../../bench/lib/workload.js";
import { TOOL_NAME_PATTERN } from "../../src/index.js";

type Row = { group: string; library: string; variant: string; n: number; medianNs: number };
type ByPeer = Record<string, number | undefined>;
/** The parts of the summary these tests read (the report code is plain JavaScript). */
interface Summary {
  skipped: { process: string; reason: string }[];
  comparison: {
    valid: {
      n: number;
      toolwireOverPeer: ByPeer;
      fastestPeer?: string;
      timesLowerThanFastestPeer?: number;
      toolwireOverFloor?: number;
    }[];
  };
  tools: { n: number; peersPerTurnNs: ByPeer; payloadOverPeer: ByPeer }[];
  loop: { toolwireNs?: number; piNs?: number; piOverToolwire?: number };
  targets: { name: string; measured: unknown; met?: boolean }[];
}

function turnRows(library: string, variant: string, base: number, perCall: number): Row[] {
  return [0, 1, 10, 100].map((n) => ({ group: "turn", library, variant, n, medianNs: base + n * perCall }));
}

function processReport(name: string, rows: Row[], extra: Record<string, unknown> = {}) {
  return { process: name, libraries: [], rows, facts: {}, ...extra };
}

describe("buildToolSpecs", () => {
  it("builds the asked number of tools with unique names every provider accepts", () => {
    const specs = buildToolSpecs(1000);
    expect(specs).toHaveLength(1000);
    expect(new Set(specs.map((spec) => spec.name)).size).toBe(1000);
    for (const spec of specs) expect(spec.name).toMatch(TOOL_NAME_PATTERN);
  });

  it("cycles through the captured MCP tools, each spec with its own copy of the schema", () => {
    const templates = loadFixtureTools();
    expect(templates.length).toBeGreaterThanOrEqual(20);
    const specs = buildToolSpecs(templates.length + 1, templates);
    expect(specs[0]?.inputSchema).toEqual(templates[0]?.inputSchema);
    expect(specs[0]?.inputSchema).not.toBe(templates[0]?.inputSchema);
    expect(specs[templates.length]?.description).toBe(templates[0]?.description);
    expect(specs[templates.length]?.inputSchema).not.toBe(specs[0]?.inputSchema);
  });

  it("keeps a long template name within 64 characters, suffix included", () => {
    const long = { name: "x".repeat(80), description: "d", inputSchema: { type: "object" } };
    const [spec] = buildToolSpecs(1, [long]);
    expect(spec?.name).toHaveLength(64);
    expect(spec?.name.endsWith("_0")).toBe(true);
  });

  it("refuses a negative count", () => {
    expect(() => buildToolSpecs(-1)).toThrow(RangeError);
  });
});

describe("checkResults", () => {
  const calls = turnCalls(2, "valid");

  it("accepts one ok result per call and refuses a missing one", () => {
    const ok = { text: "ok", isError: false };
    expect(checkResults([ok, ok], calls, "valid")).toBeUndefined();
    expect(checkResults([ok], calls, "valid")).toBe("expected 2 results, got 1");
  });

  it("wants invalid inputs to give error results that name the faulty field", () => {
    const bad = turnCalls(1, "invalid");
    expect(checkResults([{ text: "input.id: must be integer", isError: true }], bad, "invalid")).toBeUndefined();
    expect(checkResults([{ text: "ok", isError: false }], bad, "invalid")).toMatch(/not an error result/);
    expect(checkResults([{ text: "An error occurred", isError: true }], bad, "invalid")).toMatch(/does not name/);
    expect(checkResults([{ text: "An error occurred", isError: true }], bad, "invalid", { faultNamed: false })).toBe(
      undefined,
    );
  });
});

describe("verifyCases", () => {
  it("names the case that does not do its job", async () => {
    const broken = {
      group: "turn",
      library: "x",
      variant: "valid",
      n: 1,
      run: async () => [],
      check: (value: unknown) => ((value as unknown[]).length === 1 ? undefined : "no result"),
    };
    expect(caseId(broken)).toBe("turn/x/valid/1");
    await expect(verifyCases([broken])).rejects.toThrow("turn/x/valid/1 does not do its job: no result");
  });

  it("passes every toolwire case (dispatch, hooks, invalid input, tool sets) against the built package", async () => {
    const toolwire = await import("../../bench/peers/toolwire.js");
    const cases = toolwire.createCases({ toolCounts: [10, 100] });
    expect(cases.length).toBeGreaterThan(30);
    await expect(verifyCases(cases)).resolves.toBeUndefined();
    expect(toolwire.facts().schemaObjectsReusedAcrossTurns).toBe(true);
    expect(cases.filter((each) => each.group === "loop").map(caseId)).toEqual(["loop/toolwire/anthropic/1"]);
  });

  it("passes pi's cases, its whole run of the loop included", async () => {
    const pi = await import("../../bench/peers/pi.js");
    const cases = pi.createCases({ toolCounts: [10] });
    expect(cases.filter((each) => each.group === "loop").map(caseId)).toEqual(["loop/pi/anthropic/1"]);
    await expect(verifyCases(cases)).resolves.toBeUndefined();
  });

  it("refuses a run of the loop that did not end with the model's end turn or lost a result", async () => {
    const { checkLoopOutcome } = await import("../../bench/peers/toolwire.js");
    const calls = turnCalls(1, "valid");
    const ok = [{ text: "ok", isError: false }];
    expect(checkLoopOutcome({ reason: "completed", turns: 2, results: ok }, calls)).toBeUndefined();
    expect(checkLoopOutcome({ reason: "max_turns", turns: 2, results: ok }, calls)).toMatch(/max_turns/);
    expect(checkLoopOutcome({ reason: "completed", turns: 1, results: ok }, calls)).toMatch(/1 model turns/);
    expect(checkLoopOutcome({ reason: "completed", turns: 2, results: [] }, calls)).toBe("expected 1 results, got 0");
  });
});

describe("the report", () => {
  const processes = [
    processReport("toolwire", [
      ...turnRows("toolwire", "valid", 500, 1000),
      ...turnRows("floor", "valid", 300, 50),
      { group: "single", library: "toolwire", variant: "plain", n: 1, medianNs: 900 },
      { group: "single", library: "floor", variant: "direct", n: 1, medianNs: 100 },
      { group: "loop", library: "toolwire", variant: "anthropic", n: 1, medianNs: 4000 },
      ...[10, 100, 1000, 10000].map((n) => ({
        group: "tools",
        library: "toolwire",
        variant: "refresh+payload",
        n,
        medianNs: n * 1000,
      })),
      ...[10, 100, 1000, 10000].map((n) => ({
        group: "tools",
        library: "toolwire",
        variant: "payload",
        n,
        medianNs: n,
      })),
    ]),
    processReport("pi", [
      ...turnRows("pi", "valid", 2000, 8000),
      ...turnRows("floor", "valid", 300, 60),
      { group: "loop", library: "pi", variant: "anthropic", n: 1, medianNs: 24_000 },
      ...[0, 10, 100, 1000, 10000].map((n) => ({
        group: "tools",
        library: "pi",
        variant: "turn",
        n,
        medianNs: 50 + n * 4,
      })),
    ]),
    processReport("ai-sdk", [...turnRows("ai-sdk", "valid", 2000, 50000)]),
    { process: "langchain", error: "Error: cannot load\n    at stack" },
  ];
  const summary = summarize(processes) as unknown as Summary;

  it("computes the per-call cost as (turn with N calls − turn with none) / N", () => {
    const own = processes[0];
    expect(medianOf(own, "turn", "toolwire", "valid", 10)).toBe(10_500);
    expect(perCallNs(own, "toolwire", "valid", 10)).toBe(1000);
    expect(perCallNs(own, "toolwire", "valid", 0)).toBeUndefined();
    expect(perCallNs(own, "toolwire", "invalid", 10)).toBeUndefined();
  });

  it("compares toolwire with each peer and names the fastest peer", () => {
    const at100 = summary.comparison.valid.find((row) => row.n === 100)!;
    expect(at100.toolwireOverPeer.pi).toBeCloseTo(1000 / 8000);
    expect(at100.toolwireOverPeer["ai-sdk"]).toBeCloseTo(1000 / 50000);
    expect(at100.toolwireOverPeer.langchain).toBeUndefined();
    expect(at100.fastestPeer).toBe("pi");
    expect(at100.timesLowerThanFastestPeer).toBeCloseTo(8);
    expect(at100.toolwireOverFloor).toBeCloseTo(20);
  });

  it("does not name as fastest a peer whose figure is within its noise (printed ≈0)", () => {
    const noisy = (n: number, medianNs: number, spread: number) => ({
      group: "turn",
      library: "ai-sdk",
      variant: "valid",
      n,
      medianNs,
      p25Ns: medianNs - spread,
      p75Ns: medianNs + spread,
      samples: 4,
    });
    const withNoise = summarize([
      processes[0],
      processes[1],
      processReport("ai-sdk", [noisy(0, 100_000, 50_000), ...[1, 10, 100].map((n) => noisy(n, 100_010, 50_000))]),
    ]) as unknown as Summary;
    const at10 = withNoise.comparison.valid.find((row) => row.n === 10)!;
    expect(at10.fastestPeer).toBe("pi");
    expect(at10.timesLowerThanFastestPeer).toBeCloseTo(8);
  });

  it("reports a failed process as skipped with the first line of its reason", () => {
    expect(summary.skipped).toEqual([{ process: "langchain", reason: "Error: cannot load" }]);
  });

  it("computes the peers' per-turn tool cost against their turn with no tools", () => {
    const thousand = summary.tools.find((row) => row.n === 1000)!;
    expect(thousand.peersPerTurnNs.pi).toBe(4000);
    expect(thousand.payloadOverPeer.pi).toBeCloseTo(1000 / 4000);
    expect(linearity(summary.tools as never)).toBeCloseTo(1);
  });

  it("compares a whole run of the loop, pi against toolwire", () => {
    expect(summary.loop).toEqual({ toolwireNs: 4000, piNs: 24_000, piOverToolwire: 6 });
  });

  it("judges the targets from the measured figures", () => {
    const byName = new Map(summary.targets.map((target) => [target.name, target]));
    expect(byName.get("per-call overhead under 2 µs (N=100)")).toMatchObject({ measured: 1000, met: true });
    expect(
      byName.get("whole turn through the loop with the Anthropic wire format (N=1): pi / toolwire at least 5x"),
    ).toMatchObject({ measured: 6, met: true });
    expect(byName.get("1,000-tool refresh plus payload under 5 ms")).toMatchObject({ measured: 1e6, met: true });
    const slow = evaluateTargets({
      comparison: { valid: [{ n: 1, toolwireNs: 2500, timesLowerThanFastestPeer: 3, fastestPeer: "pi" }] },
      tools: [
        { n: 100, refreshPlusPayloadNs: 1e5, refreshPlusPayloadPerToolNs: 1000 },
        { n: 1000, refreshPlusPayloadNs: 6e6, refreshPlusPayloadPerToolNs: 6000 },
      ],
      loop: { toolwireNs: 10_000, piNs: 21_000, piOverToolwire: 2.1 },
      facts: { schemaObjectsReusedAcrossTurns: false },
    });
    expect(slow.map((target) => target.met)).toEqual([false, false, false, false, false, false]);
  });

  it("prints the tables with n/a where a figure is missing and the MCP slot when the bridge is absent", () => {
    const text = formatReport(summary as never, {
      cpu: "Test CPU",
      cores: 2,
      node: "v20.0.0",
      os: "Linux",
      date: "2026-01-01",
      command: "npm run bench",
    });
    expect(text).toContain("Machine: Test CPU, 2 cores, Node v20.0.0");
    expect(text).toContain("| pi | 0.13x | 0.13x | 0.13x |");
    expect(text).toContain("| langchain | n/a | n/a | n/a |");
    expect(text).toContain("| 4.00 µs | 24.00 µs | 6.00x |");
    expect(text).toContain("no `bench/peers/mcp-bridge.js` in this build");
    expect(text).toContain("- langchain: Error: cannot load");
  });

  it("sets the bridge against both clients' client.callTool direct, the 1.x SDK's and the v2 one's", () => {
    const row = (library: string, variant: string, medianNs: number) => ({
      group: "mcp",
      library,
      variant,
      n: 1,
      medianNs,
    });
    const variant = "echo, session.dispatch";
    const mcp = summarize([
      {
        process: "mcp-bridge",
        rows: [
          row("toolwire", variant, 150_000),
          row("mcp-sdk", variant, 100_000),
          row("mcp-sdk-v2", variant, 125_000),
        ],
      },
    ]).mcp;
    expect(mcp).toEqual([
      { variant, n: 1, bridgeNs: 150_000, directNs: 100_000, ratio: 1.5, directV2Ns: 125_000, ratioV2: 1.2 },
    ]);
  });

  it("formats durations and ratios for people", () => {
    expect(formatNs(512.4)).toBe("512 ns");
    expect(formatNs(1534)).toBe("1.53 µs");
    expect(formatNs(2_500_000)).toBe("2.50 ms");
    expect(formatNs(undefined)).toBe("n/a");
    expect(formatRatio(4.567)).toBe("4.57x");
    expect(formatRatio(45.67)).toBe("45.7x");
    expect(formatRatio(456.7)).toBe("457x");
    expect(ratio(1, 0)).toBeUndefined();
  });

  it("shows a difference that noise could account for as about zero", () => {
    expect(formatDifference(-50, 100)).toBe("≈0 (±100 ns)");
    expect(formatDifference(500, 100)).toBe("500 ns");
    expect(formatDifference(undefined, 100)).toBe("n/a");
  });
});

describe("noise", () => {
  it("bounds a difference of medians by two standard errors, per call for turns", async () => {
    const { noiseNs } = await import("../../bench/lib/report.js");
    const rows = [
      { group: "turn", library: "x", variant: "valid", n: 0, medianNs: 100, p25Ns: 90, p75Ns: 110, samples: 100 },
      { group: "turn", library: "x", variant: "valid", n: 10, medianNs: 1100, p25Ns: 1090, p75Ns: 1110, samples: 100 },
    ];
    const error = (0.93 * 20) / 10;
    expect(noiseNs({ rows }, "turn", "x", "valid", 10)).toBeCloseTo((2 * Math.sqrt(2 * error * error)) / 10);
    expect(noiseNs({ rows }, "turn", "x", "invalid", 10)).toBe(0);
  });
});
