// Turns the processes' medians into the report: per-call cost, ratios, tool-set costs, targets, and the tables.

/** The call counts a per-call figure is given for (0 is the baseline). */
const PER_CALL_COUNTS = [1, 10, 100];
/** The peers, in the order the tables list them. */
export const PEERS = ["ai-sdk", "openai-agents", "pi", "langchain"];
/** toolwire's turn variants and how the tables name them. */
const TOOLWIRE_VARIANTS = [
  ["valid", "toolwire"],
  ["hooks", "toolwire + 1 before, 1 after hook"],
  ["json-text", "toolwire, input as JSON text"],
];

/** The median of one case in one process's rows, or `undefined` when it was not measured. */
export function medianOf(processReport, group, library, variant, n) {
  const row = processReport?.rows?.find(
    (each) => each.group === group && each.library === library && each.variant === variant && each.n === n,
  );
  return row?.medianNs;
}

/** (median of the turn with `n` calls − median of the turn with none) / n, in ns; `undefined` if either is missing. */
export function perCallNs(processReport, library, variant, n) {
  const withCalls = medianOf(processReport, "turn", library, variant, n);
  const without = medianOf(processReport, "turn", library, variant, 0);
  if (withCalls === undefined || without === undefined || n <= 0) return undefined;
  return (withCalls - without) / n;
}

/**
 * The standard error of one case's median, in ns, estimated from its quartiles and sample count
 * (0.93 × interquartile range / √samples); 0 when it was not measured.
 */
export function medianErrorOf(processReport, group, library, variant, n) {
  const row = processReport?.rows?.find(
    (each) => each.group === group && each.library === library && each.variant === variant && each.n === n,
  );
  if (row === undefined || row.p75Ns === undefined || !(row.samples > 0)) return 0;
  return (0.93 * (row.p75Ns - row.p25Ns)) / Math.sqrt(row.samples);
}

/**
 * How far the difference of two medians (case `n` minus case `baseline`) can move by chance: two
 * standard errors of the difference; per call for turns.
 */
export function noiseNs(processReport, group, library, variant, n, baseline = 0) {
  const a = medianErrorOf(processReport, group, library, variant, n);
  const b = medianErrorOf(processReport, group, library, variant, baseline);
  const spread = 2 * Math.sqrt(a * a + b * b);
  return group === "turn" && n > 0 ? spread / n : spread;
}

/** `a / b`, or `undefined` when either is missing or `b` is not positive. */
export function ratio(a, b) {
  return a === undefined || b === undefined || !(b > 0) ? undefined : a / b;
}

function byName(processes) {
  return new Map(processes.map((each) => [each.process, each]));
}

/** Everything the tables show, computed from the processes' reports. */
export function summarize(processes) {
  const named = byName(processes);
  const usable = (name) => {
    const report = named.get(name);
    return report !== undefined && report.error === undefined && report.skipped === undefined ? report : undefined;
  };
  const skipped = processes
    .filter((each) => each.error !== undefined || each.skipped !== undefined)
    .map((each) => ({ process: each.process, reason: firstLine(each.skipped ?? each.error) }));
  const own = usable("toolwire");
  const shared = usable("toolwire-with-peers");

  const perCall = {};
  for (const variant of ["valid", "invalid"]) {
    const rows = [];
    const add = (label, processName, library, libraryVariant) => {
      const report = usable(processName);
      if (report === undefined) return;
      const values = {};
      const noise = {};
      const floorValues = {};
      for (const n of PER_CALL_COUNTS) {
        values[n] = perCallNs(report, library, libraryVariant, n);
        noise[n] = noiseNs(report, "turn", library, libraryVariant, n);
        floorValues[n] = perCallNs(report, "floor", variant, n);
      }
      rows.push({
        label,
        process: processName,
        library,
        variant: libraryVariant,
        perCallNs: values,
        noiseNs: noise,
        floorPerCallNs: floorValues,
      });
    };
    add("floor (direct call), toolwire's process", "toolwire", "floor", variant);
    if (variant === "valid") {
      for (const [libraryVariant, label] of TOOLWIRE_VARIANTS) add(label, "toolwire", "toolwire", libraryVariant);
    } else {
      add("toolwire", "toolwire", "toolwire", "invalid");
    }
    add(`toolwire, in one process with all peers`, "toolwire-with-peers", "toolwire", variant);
    for (const peer of PEERS) add(peer, peer, peer, variant);
    perCall[variant] = rows;
  }

  const comparison = {};
  for (const variant of ["valid", "invalid"]) {
    comparison[variant] = PER_CALL_COUNTS.map((n) => {
      const toolwireNs = perCallNs(own, "toolwire", variant, n);
      const peers = {};
      for (const peer of PEERS) peers[peer] = perCallNs(usable(peer), peer, variant, n);
      // A peer whose figure is within its noise (printed ≈0) has no speed to compare with: not a candidate.
      const noise = (peer) => noiseNs(usable(peer), "turn", peer, variant, n);
      const measured = PEERS.filter((peer) => peers[peer] !== undefined && Math.abs(peers[peer]) > noise(peer));
      const fastestPeer = measured.sort((a, b) => peers[a] - peers[b])[0];
      return {
        n,
        toolwireNs,
        floorNs: perCallNs(own, "floor", variant, n),
        toolwireOverFloor: ratio(toolwireNs, perCallNs(own, "floor", variant, n)),
        sharedToolwireNs: perCallNs(shared, "toolwire", variant, n),
        sharedToolwireOverFloor: ratio(
          perCallNs(shared, "toolwire", variant, n),
          perCallNs(shared, "floor", variant, n),
        ),
        peers,
        toolwireOverPeer: Object.fromEntries(PEERS.map((peer) => [peer, ratio(toolwireNs, peers[peer])])),
        fastestPeer,
        timesLowerThanFastestPeer: fastestPeer === undefined ? undefined : ratio(peers[fastestPeer], toolwireNs),
      };
    });
  }

  const singleOf = (report) => {
    const hooks = medianOf(report, "single", "toolwire", "hooks", 1);
    const plain = medianOf(report, "single", "toolwire", "plain", 1);
    const direct = medianOf(report, "single", "floor", "direct", 1);
    return {
      dispatchWithHooksNs: hooks,
      dispatchNs: plain,
      directNs: direct,
      ratioWithHooks: ratio(hooks, direct),
      overheadWithHooksNs: hooks === undefined || direct === undefined ? undefined : hooks - direct,
      ratio: ratio(plain, direct),
      overheadNs: plain === undefined || direct === undefined ? undefined : plain - direct,
    };
  };
  const single = { own: singleOf(own), withPeers: singleOf(shared) };

  const toolCounts = [...new Set((own?.rows ?? []).filter((row) => row.group === "tools").map((row) => row.n))].sort(
    (a, b) => a - b,
  );
  const tools = toolCounts.map((n) => {
    const get = (variant) => medianOf(own, "tools", "toolwire", variant, n);
    const peers = {};
    const peersNoise = {};
    for (const peer of PEERS) {
      const report = usable(peer);
      const turn = medianOf(report, "tools", peer, "turn", n);
      const empty = medianOf(report, "tools", peer, "turn", 0);
      peers[peer] = turn === undefined || empty === undefined ? undefined : turn - empty;
      peersNoise[peer] = noiseNs(report, "tools", peer, "turn", n);
    }
    const payloadNs = get("payload");
    return {
      n,
      refreshNs: get("refresh"),
      planNs: get("plan"),
      payloadNs,
      refreshPlusPayloadNs: get("refresh+payload"),
      refreshPerToolNs: ratio(get("refresh"), n),
      refreshPlusPayloadPerToolNs: ratio(get("refresh+payload"), n),
      peersPerTurnNs: peers,
      peersNoiseNs: peersNoise,
      payloadOverPeer: Object.fromEntries(PEERS.map((peer) => [peer, ratio(payloadNs, peers[peer])])),
    };
  });

  const loopToolwireNs = medianOf(own, "loop", "toolwire", "anthropic", 1);
  const loopPiNs = medianOf(usable("pi"), "loop", "pi", "anthropic", 1);
  const loop = { toolwireNs: loopToolwireNs, piNs: loopPiNs, piOverToolwire: ratio(loopPiNs, loopToolwireNs) };

  const mcpReport = usable("mcp-bridge");
  const mcp =
    mcpReport === undefined
      ? undefined
      : (mcpReport.rows ?? [])
          .filter((row) => row.group === "mcp" && row.library === "toolwire")
          .map((row) => {
            const direct = medianOf(mcpReport, "mcp", "mcp-sdk", row.variant, row.n);
            const directV2 = medianOf(mcpReport, "mcp", "mcp-sdk-v2", row.variant, row.n);
            return {
              variant: row.variant,
              n: row.n,
              bridgeNs: row.medianNs,
              directNs: direct,
              ratio: ratio(row.medianNs, direct),
              directV2Ns: directV2,
              ratioV2: ratio(row.medianNs, directV2),
            };
          });

  return {
    skipped,
    perCall,
    comparison,
    single,
    tools,
    loop,
    mcp,
    facts: own?.facts ?? {},
    targets: evaluateTargets({ comparison, tools, loop, facts: own?.facts ?? {} }),
  };
}

/** The targets, each with what was measured and whether it was met. */
export function evaluateTargets({ comparison, tools, loop, facts }) {
  const targets = [];
  for (const row of comparison.valid ?? []) {
    targets.push({
      name: `per-call overhead under 2 µs (N=${row.n})`,
      measured: row.toolwireNs,
      unit: "ns",
      met: row.toolwireNs === undefined ? undefined : row.toolwireNs < 2000,
    });
  }
  for (const row of comparison.valid ?? []) {
    targets.push({
      name: `at least 5x lower than the fastest peer (N=${row.n}, ${row.fastestPeer ?? "no peer"})`,
      measured: row.timesLowerThanFastestPeer,
      unit: "x",
      met: row.timesLowerThanFastestPeer === undefined ? undefined : row.timesLowerThanFastestPeer >= 5,
    });
  }
  const thousand = tools.find((row) => row.n === 1000);
  targets.push({
    name: "1,000-tool refresh plus payload under 5 ms",
    measured: thousand?.refreshPlusPayloadNs,
    unit: "ns",
    met: thousand?.refreshPlusPayloadNs === undefined ? undefined : thousand.refreshPlusPayloadNs < 5e6,
  });
  const growth = linearity(tools);
  targets.push({
    name: "refresh plus payload linear in the number of tools (cost per tool at 10,000 within 2x of the cost at 100)",
    measured: growth,
    unit: "x",
    met: growth === undefined ? undefined : growth <= 2,
  });
  targets.push({
    name: "whole turn through the loop with the Anthropic wire format (N=1): pi / toolwire at least 5x",
    measured: loop?.piOverToolwire,
    unit: "x",
    met: loop?.piOverToolwire === undefined ? undefined : loop.piOverToolwire >= 5,
  });
  targets.push({
    name: "no per-turn schema conversion (the payload reuses the descriptors' schema objects)",
    measured: facts.schemaObjectsReusedAcrossTurns,
    unit: "bool",
    met: facts.schemaObjectsReusedAcrossTurns,
  });
  return targets;
}

/** The cost per tool at the largest tool count over the cost per tool at 100 (1 means perfectly linear). */
export function linearity(tools) {
  const base = tools.find((row) => row.n === 100);
  const largest = tools.at(-1);
  if (base === undefined || largest === undefined || largest.n <= base.n) return undefined;
  return ratio(largest.refreshPlusPayloadPerToolNs, base.refreshPlusPayloadPerToolNs);
}

function firstLine(text) {
  return String(text).split("\n")[0];
}

/** A duration for people: ns below 1 µs, µs below 1 ms, then ms. "n/a" when missing. */
export function formatNs(ns) {
  if (ns === undefined || Number.isNaN(ns)) return "n/a";
  const size = Math.abs(ns);
  if (size < 1000) return `${ns.toFixed(0)} ns`;
  if (size < 1e6) return `${(ns / 1000).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

/** A difference of medians for people: "≈0" when noise could account for it (the spread of the two medians). */
export function formatDifference(ns, noise = 0) {
  if (ns !== undefined && Math.abs(ns) <= noise) return `≈0 (±${formatNs(noise)})`;
  return formatNs(ns);
}

/** A ratio for people: two significant decimals below 10, one below 100, none above. "n/a" when missing. */
export function formatRatio(value) {
  if (value === undefined || Number.isNaN(value)) return "n/a";
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)}x`;
}

function table(header, rows) {
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, index) => (index === 0 ? "---" : "---:")).join("|")}|`,
  ];
  for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  return lines.join("\n");
}

/** The report as Markdown: the tables the README and docs/benchmarks.md show. */
export function formatReport(summary, machine) {
  const out = [];
  if (machine !== undefined) {
    out.push(
      `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, ${machine.os}. Run ${machine.date}.`,
    );
    out.push(`Command: \`${machine.command}\`\n`);
  }
  for (const variant of ["valid", "invalid"]) {
    out.push(
      variant === "valid"
        ? "### Per-call cost, valid input: (turn with N calls − turn with none) / N, medians"
        : "### Per-call cost, invalid input (3 faults per call, error result written for the model)",
    );
    out.push(
      table(
        ["library (own process)", "N=1", "N=10", "N=100", "over its process's floor (N=100)"],
        summary.perCall[variant].map((row) => [
          row.label,
          ...PER_CALL_COUNTS.map((n) => formatDifference(row.perCallNs[n], row.noiseNs[n])),
          row.library === "floor" ? "1.00x" : formatRatio(ratio(row.perCallNs[100], row.floorPerCallNs[100])),
        ]),
      ),
    );
    out.push("");
    out.push(
      table(
        ["toolwire / peer", "N=1", "N=10", "N=100"],
        [
          ...PEERS.map((peer) => [
            peer,
            ...summary.comparison[variant].map((row) => formatRatio(row.toolwireOverPeer[peer])),
          ]),
          ["toolwire / floor", ...summary.comparison[variant].map((row) => formatRatio(row.toolwireOverFloor))],
          [
            "fastest peer / toolwire",
            ...summary.comparison[variant].map(
              (row) => `${formatRatio(row.timesLowerThanFastestPeer)} (${row.fastestPeer ?? "none"})`,
            ),
          ],
        ],
      ),
    );
    out.push("");
  }
  out.push("### One dispatch (issue 2): a no-op tool with validation, against a direct call of the same function");
  out.push(
    table(
      ["process", "dispatch", "direct call", "ratio", "overhead", "with 1 before + 1 after hook", "ratio", "overhead"],
      [
        ["toolwire alone", summary.single.own],
        ["toolwire with all peers loaded", summary.single.withPeers],
      ].map(([label, single]) => [
        label,
        formatNs(single.dispatchNs),
        formatNs(single.directNs),
        formatRatio(single.ratio),
        formatNs(single.overheadNs),
        formatNs(single.dispatchWithHooksNs),
        formatRatio(single.ratioWithHooks),
        formatNs(single.overheadWithHooksNs),
      ]),
    ),
  );
  out.push("");
  out.push(
    "### Many tools: toolwire's refresh, plan and tools payload; what each peer spends per turn on the same tool set",
  );
  out.push(
    table(
      [
        "tools",
        "refresh",
        "plan",
        "payload",
        "refresh + payload",
        "per tool",
        ...PEERS.map((peer) => `${peer} per turn`),
      ],
      summary.tools.map((row) => [
        row.n.toLocaleString("en-US"),
        formatNs(row.refreshNs),
        formatNs(row.planNs),
        formatNs(row.payloadNs),
        formatNs(row.refreshPlusPayloadNs),
        formatNs(row.refreshPlusPayloadPerToolNs),
        ...PEERS.map((peer) => formatDifference(row.peersPerTurnNs[peer], row.peersNoiseNs[peer])),
      ]),
    ),
  );
  out.push("");
  out.push(
    table(
      ["toolwire payload per turn / peer per turn", ...summary.tools.map((row) => row.n.toLocaleString("en-US"))],
      PEERS.map((peer) => [
        peer,
        ...summary.tools.map((row) =>
          Math.abs(row.peersPerTurnNs[peer] ?? 0) <= row.peersNoiseNs[peer]
            ? "n/a (≈0)"
            : formatRatio(row.payloadOverPeer[peer]),
        ),
      ]),
    ),
  );
  out.push("");
  out.push(
    "### Whole turn through the loop: `runAgent` over the Anthropic wire format against pi's `runAgentLoop`, one no-op call and the model's end turn",
  );
  out.push(
    table(
      ["toolwire", "pi", "pi / toolwire"],
      [[formatNs(summary.loop?.toolwireNs), formatNs(summary.loop?.piNs), formatRatio(summary.loop?.piOverToolwire)]],
    ),
  );
  out.push("");
  out.push("### MCP bridge: server-everything's `echo` through the bridge against `client.callTool` direct (stdio)");
  if (summary.mcp === undefined || summary.mcp.length === 0) {
    out.push("Not measured: no `bench/peers/mcp-bridge.js` in this build (the bridge is built on its own branch).");
  } else {
    out.push(
      table(
        [
          "case",
          "through the bridge",
          "1.x client.callTool direct",
          "ratio",
          "v2 client.callTool direct",
          "ratio (v2)",
        ],
        summary.mcp.map((row) => [
          `${row.variant} (${row.n})`,
          formatNs(row.bridgeNs),
          formatNs(row.directNs),
          formatRatio(row.ratio),
          formatNs(row.directV2Ns),
          formatRatio(row.ratioV2),
        ]),
      ),
    );
    out.push("");
    out.push(
      "Each path on its own server process, in one benchmark process; the clock is that process's CPU time, so the servers' own work (the same for both paths) is not counted. The bridge is built on the v2 client (`@modelcontextprotocol/client`), so the v2 ratio compares like with like; the 1.x ratio also counts what the v2 client costs more than the 1.x one.",
    );
  }
  out.push("");
  out.push("### Targets");
  out.push(
    table(
      ["target", "measured", "met"],
      summary.targets.map((target) => [
        target.name,
        target.unit === "ns"
          ? formatNs(target.measured)
          : target.unit === "x"
            ? formatRatio(target.measured)
            : String(target.measured),
        target.met === undefined ? "n/a" : target.met ? "yes" : "**no**",
      ]),
    ),
  );
  if (summary.skipped.length > 0) {
    out.push("");
    out.push("### Skipped");
    for (const each of summary.skipped) out.push(`- ${each.process}: ${each.reason}`);
  }
  return `${out.join("\n")}\n`;
}
