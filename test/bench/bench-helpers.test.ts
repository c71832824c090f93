import { describe, expect, it } from "vitest";
import { checkResults } from "../../bench/lib/checks.js";
import {
  figureOf,
  formatDifference,
  formatFigureNs,
  formatNs,
  formatRatio,
  formatRatioFigure,
  ratioOf,
} from "../../bench/lib/figures.js";
import { caseId, verifyCases } from "../../bench/lib/harness.js";
import {
  evaluateTargets,
  formatReport,
  linearity,
  medianOf,
  perCallFigure,
  perCallNs,
  summarize,
} from "../../bench/lib/report.js";
import { buildToolSpecs, loadFixtureTools } from "../../bench/lib/tool-sets.js";
import { turnCalls } from "../../bench/lib/workload.js";
import { TOOL_NAME_PATTERN } from "../../src/index.js";

type Row = { group: string; library: string; variant: string; n: number; medianNs: number; passesNs?: number[] };
type Figure = { median: number; min: number; max: number; passes: number[] };
type ByPeer = Record<string, Figure | undefined>;
/** The parts of the summary these tests read (the report code is plain JavaScript). */
interface Summary {
  skipped: { process: string; reason: string }[];
  peers: { key: string; label: string; toolwireProcess: string }[];
  comparison: {
    valid: {
      process: string;
      node: string;
      n: number;
      toolwire?: Figure;
      toolwireOverPeer: ByPeer;
      fastestPeer?: string;
      timesLowerThanFastestPeer?: Figure;
      toolwireOverFloor?: Figure;
    }[];
  };
  tools: { n: number; peersPerTurn: ByPeer; payloadOverPeer: ByPeer }[];
  loop: {
    node: string;
    hand?: Figure;
    toolwire?: Figure;
    toolwireOverHand?: Figure;
    pis: { release?: string; piOverToolwire?: Figure }[];
  }[];
  targets: { name: string; measured?: Figure | boolean; met?: boolean }[];
}

/** Rows of turns with 0, 1, 10 and 100 calls, over three passes: pass `p` costs `base + n * perCall + p * drift`. */
function turnRows(library: string, variant: string, base: number, perCall: number, drift = 0): Row[] {
  return [0, 1, 10, 100].map((n) => {
    const passesNs = [0, 1, 2].map((pass) => base + n * perCall + pass * drift * n);
    return { group: "turn", library, variant, n, medianNs: passesNs[1] as number, passesNs };
  });
}

function row(group: string, library: string, variant: string, n: number, passesNs: number[]): Row {
  const sorted = [...passesNs].sort((a, b) => a - b);
  return { group, library, variant, n, medianNs: sorted[sorted.length >> 1] as number, passesNs };
}

function processReport(
  name: string,
  node: string,
  rows: Row[],
  libraries: { library: string; version: string }[] = [],
) {
  return { process: name, node, libraries, rows, facts: {} };
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
  });

  it("passes pi's cases", async () => {
    const pi = await import("../../bench/peers/pi.js");
    await expect(verifyCases(pi.createCases({ toolCounts: [10] }))).resolves.toBeUndefined();
  });

  it("passes the whole runs of the loop: by hand, through runAgent and through pi's loop", async () => {
    const loop = await import("../../bench/peers/loop.js");
    const cases = loop.createCases();
    expect(cases.map(caseId).slice(0, 3)).toEqual([
      "loop/hand/anthropic/1",
      "loop/toolwire/anthropic/1",
      "loop/pi/@mariozechner/pi-agent-core@0.73.1/1",
    ]);
    await expect(verifyCases(cases)).resolves.toBeUndefined();
  });

  it("writes the loop by hand so that it yields the events runAgent yields, in the same order", async () => {
    const { createHandLoop } = await import("../../bench/lib/hand-loop.js");
    const { anthropicWireModel } = await import("../../bench/lib/toolwire-loop.js");
    const api = await import("../../dist/index.js");
    const client = await import("../../dist/providers/clients/anthropic-model.js");
    const { NOOP_DESCRIPTION, NOOP_NAME, NOOP_SCHEMA, noop } = await import("../../bench/lib/workload.js");
    const calls = turnCalls(1, "valid");
    const byHand: unknown[] = [];
    for await (const event of createHandLoop(calls)("go")) byHand.push(event);
    const tool = api.defineTool({
      name: NOOP_NAME,
      description: NOOP_DESCRIPTION,
      inputSchema: NOOP_SCHEMA,
      execute: noop,
    });
    const session = api.createAgentSession({ registry: api.createToolRegistry({ custom: [tool] }) });
    const through: unknown[] = [];
    for await (const event of api.runAgent({ session, model: anthropicWireModel(client, calls), prompt: "go" })) {
      through.push(event);
    }
    const shape = (events: unknown[]) =>
      events.map((event) => {
        const { type, turn, text, call, result, stopReason, reason } = event as Record<string, unknown>;
        return { type, turn, text, call, content: (result as { content?: unknown })?.content, stopReason, reason };
      });
    expect(shape(byHand)).toEqual(shape(through));
    expect(byHand).toHaveLength(13);
  });

  it("refuses a run of the loop that did not end with the model's end turn or lost a result", async () => {
    const { checkLoopOutcome } = await import("../../bench/peers/loop.js");
    const calls = turnCalls(1, "valid");
    const ok = [{ text: "ok", isError: false }];
    expect(checkLoopOutcome({ reason: "completed", turns: 2, results: ok }, calls)).toBeUndefined();
    expect(checkLoopOutcome({ reason: "max_turns", turns: 2, results: ok }, calls)).toMatch(/max_turns/);
    expect(checkLoopOutcome({ reason: "completed", turns: 1, results: ok }, calls)).toMatch(/1 model turns/);
    expect(checkLoopOutcome({ reason: "completed", turns: 2, results: [] }, calls)).toBe("expected 1 results, got 0");
  });
});

describe("figures", () => {
  it("gives the median of the passes with the lowest and the highest", () => {
    expect(figureOf([3, 1, 2, 10], "p")).toMatchObject({ median: 2.5, min: 1, max: 10, passes: [3, 1, 2, 10] });
    expect(figureOf([], "p")).toBeUndefined();
  });

  it("takes a ratio pass by pass within one process, and with the widest range across processes", () => {
    const a = figureOf([10, 20, 30], "p");
    const b = figureOf([5, 5, 10], "p");
    expect(ratioOf(a, b)).toMatchObject({ median: 3, min: 2, max: 4 });
    const c = figureOf([5, 5, 10], "q");
    expect(ratioOf(a, c)).toMatchObject({ median: 4, min: 1, max: 6 });
    expect(ratioOf(a, undefined)).toBeUndefined();
  });

  it("prints a figure with its spread, and a difference whose passes straddle zero as about zero", () => {
    expect(formatFigureNs(figureOf([1534, 1400, 1700], "p"))).toBe("1.53 µs (1.40-1.70)");
    expect(formatRatioFigure(figureOf([4.5, 4.2, 5.1], "p"))).toBe("4.50x (4.20-5.10)");
    expect(formatDifference(figureOf([-50, 20, 100], "p"))).toBe("≈0 (-50 ns to 100 ns)");
    expect(formatDifference(figureOf([500, 400, 600], "p"))).toBe("500 ns (400-600)");
    expect(formatDifference(undefined)).toBe("n/a");
    expect(formatFigureNs(figureOf([512.4], "p"))).toBe("512 ns");
  });

  it("formats durations and ratios for people", () => {
    expect(formatNs(512.4)).toBe("512 ns");
    expect(formatNs(1534)).toBe("1.53 µs");
    expect(formatNs(2_500_000)).toBe("2.50 ms");
    expect(formatNs(undefined)).toBe("n/a");
    expect(formatRatio(4.567)).toBe("4.57x");
    expect(formatRatio(45.67)).toBe("45.7x");
    expect(formatRatio(456.7)).toBe("457x");
  });
});

describe("the report", () => {
  const toolRows = (library: string, variant: string, cost: (n: number) => number, counts: number[]) =>
    counts.map((n) => row("tools", library, variant, n, [cost(n), cost(n), cost(n)]));
  const processes = [
    processReport(
      "toolwire",
      "v20.20.2",
      [
        ...turnRows("toolwire", "valid", 500, 1000, 10),
        ...turnRows("floor", "valid", 300, 50),
        row("single", "toolwire", "plain", 1, [900, 800, 1000]),
        row("single", "floor", "direct", 1, [100, 100, 100]),
        ...toolRows("toolwire", "refresh+payload", (n) => n * 1000, [10, 100, 1000, 10000]),
        ...toolRows("toolwire", "payload", (n) => n, [10, 100, 1000, 10000]),
      ],
      [{ library: "toolwire", version: "workspace build (dist/)" }],
    ),
    processReport(
      "pi",
      "v20.20.2",
      [
        ...turnRows("pi", "valid", 2000, 8000),
        ...turnRows("floor", "valid", 300, 60),
        ...toolRows("pi", "turn", (n) => 50 + n * 4, [0, 10, 100, 1000, 10000]),
      ],
      [{ library: "pi", version: "@mariozechner/pi-agent-core@0.73.1" }],
    ),
    processReport("ai-sdk", "v20.20.2", turnRows("ai-sdk", "valid", 2000, 50000), [
      { library: "ai-sdk", version: "ai@6.0.326" },
    ]),
    processReport("toolwire-node22", "v22.23.5", [...turnRows("toolwire", "valid", 400, 800)]),
    processReport(
      "pi-1-node22",
      "v22.23.5",
      [...turnRows("pi", "valid", 3000, 16000)],
      [{ library: "pi", version: "@earendil-works/pi-agent-core@1.6.0" }],
    ),
    processReport("loop", "v20.20.2", [
      row("loop", "hand", "anthropic", 1, [3000, 3500, 4000]),
      row("loop", "toolwire", "anthropic", 1, [9000, 10500, 10000]),
      row("loop", "pi", "@mariozechner/pi-agent-core@0.73.1", 1, [15000, 14000, 20000]),
    ]),
    processReport("loop-node22", "v22.23.5", [
      row("loop", "hand", "anthropic", 1, [2500, 2500, 2500]),
      row("loop", "toolwire", "anthropic", 1, [7500, 7500, 7500]),
      row("loop", "pi", "@earendil-works/pi-agent-core@1.6.0", 1, [30000, 30000, 30000]),
    ]),
    { process: "langchain", error: "Error: cannot load\n    at stack" },
    { process: "ai-sdk-7-node22", skipped: "needs Node 22, whose dev dependency binary runs on linux-x64 only" },
  ];
  const summary = summarize(processes) as unknown as Summary;

  it("computes the per-call cost as (turn with N calls − turn with none) / N, pass by pass", () => {
    const own = processes[0];
    expect(medianOf(own, "turn", "toolwire", "valid", 10)).toBe(10_600);
    expect(perCallNs(own, "toolwire", "valid", 10)).toBe(1010);
    expect(perCallFigure(own, "toolwire", "valid", 10)).toMatchObject({ median: 1010, min: 1000, max: 1020 });
    expect(perCallNs(own, "toolwire", "valid", 0)).toBeUndefined();
    expect(perCallNs(own, "toolwire", "invalid", 10)).toBeUndefined();
  });

  it("compares toolwire with each peer on the same Node and names the fastest peer", () => {
    const node20 = summary.comparison.valid.find((each) => each.process === "toolwire" && each.n === 100)!;
    expect(node20.node).toBe("Node 20");
    expect(node20.toolwireOverPeer.pi?.median).toBeCloseTo(1010 / 8000);
    expect(node20.toolwireOverPeer["ai-sdk"]?.median).toBeCloseTo(1010 / 50000);
    expect(node20.toolwireOverPeer["pi-1"]).toBeUndefined();
    expect(node20.fastestPeer).toBe("pi");
    expect(node20.timesLowerThanFastestPeer?.median).toBeCloseTo(8000 / 1010);
    expect(node20.toolwireOverFloor?.median).toBeCloseTo(1010 / 50);
    const node22 = summary.comparison.valid.find((each) => each.process === "toolwire-node22" && each.n === 100)!;
    expect(node22.fastestPeer).toBe("pi-1");
    expect(node22.timesLowerThanFastestPeer?.median).toBeCloseTo(20);
    expect(summary.peers.map((peer) => peer.label)).toEqual([
      "ai-sdk 6.0.326 (Node 20)",
      "pi 0.73.1 (Node 20)",
      "pi 1.6.0 (Node 22)",
    ]);
  });

  it("does not name as fastest a peer whose passes straddle zero (printed ≈0)", () => {
    const noisy = (n: number) => row("turn", "ai-sdk", "valid", n, [100_000, 50_000, 150_000]);
    const withNoise = summarize([
      processes[0],
      processes[1],
      processReport("ai-sdk", "v20.20.2", [0, 1, 10, 100].map(noisy)),
    ]) as unknown as Summary;
    const at10 = withNoise.comparison.valid.find((each) => each.n === 10)!;
    expect(at10.fastestPeer).toBe("pi");
  });

  it("reports a failed or skipped process with the first line of its reason", () => {
    expect(summary.skipped).toEqual([
      { process: "langchain", reason: "Error: cannot load" },
      { process: "ai-sdk-7-node22", reason: "needs Node 22, whose dev dependency binary runs on linux-x64 only" },
    ]);
  });

  it("computes the peers' per-turn tool cost against their turn with no tools", () => {
    const thousand = summary.tools.find((each) => each.n === 1000)!;
    expect(thousand.peersPerTurn.pi?.median).toBe(4000);
    expect(thousand.payloadOverPeer.pi?.median).toBeCloseTo(1000 / 4000);
    expect(linearity(summary.tools as never)?.median).toBeCloseTo(1);
  });

  it("sets a whole run through runAgent against the run by hand and pi's loop, pass by pass, on each Node", () => {
    const [node20, node22] = summary.loop;
    expect(node20?.node).toBe("Node 20");
    expect(node20?.toolwireOverHand).toMatchObject({ median: 3, min: 2.5, max: 3 });
    expect(node20?.pis[0]).toMatchObject({ release: "0.73.1" });
    expect(node20?.pis[0]?.piOverToolwire).toMatchObject({ min: 14000 / 10500, max: 2 });
    expect(node20?.pis[0]?.piOverToolwire?.median).toBeCloseTo(15000 / 9000);
    expect(node22?.pis[0]?.piOverToolwire?.median).toBe(4);
  });

  it("judges the targets from the measured medians", () => {
    const byName = new Map(summary.targets.map((target) => [target.name, target]));
    expect(byName.get("per-call overhead under 2 µs (N=100)")).toMatchObject({ met: true });
    expect(byName.get("a whole runAgent run at most 4x the same run by hand (loop process, Node 20)")).toMatchObject({
      met: true,
    });
    expect(byName.get("a whole runAgent run at least 3x below pi 0.73.1's loop (loop process, Node 20)")).toMatchObject(
      {
        met: false,
      },
    );
    expect(
      byName.get("a whole runAgent run at least 3x below pi 1.6.0's loop (loop-node22 process, Node 22)"),
    ).toMatchObject({ met: true });
    expect(byName.get("1,000-tool refresh plus payload under 5 ms")).toMatchObject({ met: true });
    const figure = (median: number) => ({ median, min: median, max: median, passes: [median] });
    const slow = evaluateTargets({
      comparison: {
        valid: [{ process: "toolwire", n: 1, toolwire: figure(2500), timesLowerThanFastestPeer: figure(3) }],
      },
      tools: [
        { n: 100, refreshPlusPayload: figure(1e5), refreshPlusPayloadPerTool: figure(1000) },
        { n: 1000, refreshPlusPayload: figure(6e6), refreshPlusPayloadPerTool: figure(6000) },
      ],
      loop: [{ node: "Node 20", toolwireOverHand: figure(5), pis: [{ release: "0.73.1", piOverToolwire: figure(2) }] }],
      facts: { schemaObjectsReusedAcrossTurns: false },
    });
    expect(slow.map((target) => target.met)).toEqual([false, false, false, false, false, false, false]);
  });

  it("prints every figure with its spread, each peer with its release and Node, and what was skipped", () => {
    const text = formatReport(summary as never, {
      cpu: "Test CPU",
      cores: 2,
      node: "v20.0.0",
      os: "Linux",
      date: "2026-01-01",
      command: "npm run bench",
    });
    expect(text).toContain("Machine: Test CPU, 2 cores, Linux");
    expect(text).toContain("| pi 0.73.1 (Node 20) |");
    expect(text).toContain("| toolwire | Node 20 | 1.01 µs (1.00-1.02) |");
    expect(text).toContain("| toolwire / pi 1.6.0 (Node 22) | 0.05x |"); // no spread: one figure each
    expect(text).toContain("| Node 20 | 3.50 µs (3.00-4.00) | 10.00 µs (9.00-10.50) | 15.00 µs (14.00-20.00) | n/a |");
    expect(text).toContain("Not measured in this run: the `mcp-bridge` process did not run");
    expect(text).toContain(
      "| no per-turn schema conversion (the payload reuses the descriptors' schema objects) | n/a | n/a |",
    );
    expect(text).toContain("- langchain: Error: cannot load");
  });

  it("sets the bridge against both clients' client.callTool direct, the 1.x SDK's and the v2 one's", () => {
    const variant = "echo, session.dispatch";
    const mcp = (
      summarize([
        processReport("mcp-bridge", "v20.20.2", [
          row("mcp", "toolwire", variant, 1, [150_000]),
          row("mcp", "mcp-sdk", variant, 1, [100_000]),
          row("mcp", "mcp-sdk-v2", variant, 1, [125_000]),
        ]),
      ]) as unknown as { mcp: { variant: string; ratio: Figure; ratioV2: Figure }[] }
    ).mcp;
    expect(mcp[0]?.ratio.median).toBe(1.5);
    expect(mcp[0]?.ratioV2.median).toBe(1.2);
  });
});
