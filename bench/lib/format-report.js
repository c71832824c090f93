// The report as Markdown: every figure as its median with the lowest and highest pass, the tables docs/benchmarks.md shows.
import { formatDifference, formatFigureNs, formatRatioFigure } from "./figures.js";

function table(header, rows) {
  const lines = [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, index) => (index === 0 ? "---" : "---:")).join("|")}|`,
  ];
  for (const row of rows) lines.push(`| ${row.join(" | ")} |`);
  return lines.join("\n");
}

/** The call counts of the per-call tables, from the rows themselves. */
function callCounts(rows) {
  return Object.keys(rows[0]?.perCall ?? { 1: 0, 10: 0, 100: 0 }).map(Number);
}

function perCallTables(summary, variant, out) {
  const rows = summary.perCall[variant];
  const counts = callCounts(rows);
  out.push(
    variant === "valid"
      ? "### Per-call cost, valid input: (turn with N calls − turn with none) / N"
      : "### Per-call cost, invalid input (3 faults per call, error result written for the model)",
  );
  out.push(
    table(
      [
        "library (own process)",
        "Node",
        ...counts.map((n) => `N=${n}`),
        `over its process's floor (N=${counts.at(-1)})`,
      ],
      rows.map((row) => [
        row.label,
        row.node,
        ...counts.map((n) => formatDifference(row.perCall[n])),
        row.library === "floor" ? "1.00x" : formatRatioFigure(row.overFloor),
      ]),
    ),
  );
  out.push("");
  const comparison = summary.comparison[variant];
  const groups = [...new Set(comparison.map((row) => row.process))];
  const lines = [];
  for (const process of groups) {
    const byN = comparison.filter((row) => row.process === process);
    const node = byN[0]?.node ?? "";
    for (const peer of summary.peers.filter((each) => each.toolwireProcess === process)) {
      lines.push([`toolwire / ${peer.label}`, ...byN.map((row) => formatRatioFigure(row.toolwireOverPeer[peer.key]))]);
    }
    lines.push([`toolwire / floor (${node})`, ...byN.map((row) => formatRatioFigure(row.toolwireOverFloor))]);
    lines.push([
      `fastest peer / toolwire (${node})`,
      ...byN.map((row) => `${formatRatioFigure(row.timesLowerThanFastestPeer)} (${row.fastestPeerLabel ?? "none"})`),
    ]);
  }
  out.push(table(["ratio", ...counts.map((n) => `N=${n}`)], lines));
  out.push("");
}

/** The report as Markdown: the tables the README and docs/benchmarks.md show. */
export function formatReport(summary, machine) {
  const out = [];
  if (machine !== undefined) {
    out.push(`Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.os}. Run ${machine.date}.`);
    out.push(`Command: \`${machine.command}\`\n`);
  }
  out.push(
    "Every figure is the median over the passes of its process (each pass times every case of the process in turn), with the lowest and the highest pass in parentheses; a ratio within one process is taken pass by pass, across processes it is the ratio of the medians with the widest range the two spreads allow. A difference whose passes straddle zero prints as `≈0`.",
  );
  out.push("");
  out.push("### What ran");
  out.push(
    table(
      ["process", "Node", "library", "version"],
      (summary.versions ?? []).map((each) => [each.process, each.node ?? "", each.library, each.version]),
    ),
  );
  out.push("");
  for (const variant of ["valid", "invalid"]) perCallTables(summary, variant, out);

  out.push("### One dispatch (issue 2): a no-op tool with validation, against a direct call of the same function");
  out.push(
    table(
      ["process", "Node", "dispatch", "direct call", "ratio", "with 1 before + 1 after hook", "ratio"],
      [
        ["toolwire alone", summary.single.own],
        ["toolwire with all peers loaded", summary.single.withPeers],
        ...(summary.single.node22 === undefined ? [] : [["toolwire alone", summary.single.node22]]),
      ].map(([label, single]) => [
        label,
        single.node ?? "",
        formatFigureNs(single.dispatch),
        formatFigureNs(single.direct),
        formatRatioFigure(single.ratio),
        formatFigureNs(single.dispatchWithHooks),
        formatRatioFigure(single.ratioWithHooks),
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
        ...summary.peers.map((peer) => `${peer.label} per turn`),
      ],
      summary.tools.map((row) => [
        row.n.toLocaleString("en-US"),
        formatFigureNs(row.refresh),
        formatFigureNs(row.plan),
        formatFigureNs(row.payload),
        formatFigureNs(row.refreshPlusPayload),
        formatFigureNs(row.refreshPlusPayloadPerTool),
        ...summary.peers.map((peer) => formatDifference(row.peersPerTurn[peer.key])),
      ]),
    ),
  );
  out.push("");
  out.push(
    table(
      ["toolwire payload per turn / peer per turn", ...summary.tools.map((row) => row.n.toLocaleString("en-US"))],
      summary.peers.map((peer) => [
        peer.label,
        ...summary.tools.map((row) =>
          row.payloadOverPeer[peer.key] === undefined ? "n/a (≈0)" : formatRatioFigure(row.payloadOverPeer[peer.key]),
        ),
      ]),
    ),
  );
  out.push("");
  out.push(
    "### A whole run of the loop: one no-op call over the Anthropic wire format and the model's end turn, by hand, through `runAgent` and through pi's `runAgentLoop`, interleaved in one process per Node",
  );
  const releases = [...new Set(summary.loop.flatMap((run) => run.pis.map((pi) => pi.release ?? pi.version)))];
  out.push(
    table(
      [
        "Node",
        "by hand",
        "runAgent",
        ...releases.map((release) => `pi ${release}`),
        "runAgent / by hand",
        ...releases.map((release) => `pi ${release} / runAgent`),
      ],
      summary.loop.map((run) => {
        const of = (release) => run.pis.find((pi) => (pi.release ?? pi.version) === release);
        return [
          run.node,
          formatFigureNs(run.hand),
          formatFigureNs(run.toolwire),
          ...releases.map((release) => formatFigureNs(of(release)?.pi)),
          formatRatioFigure(run.toolwireOverHand),
          ...releases.map((release) => formatRatioFigure(of(release)?.piOverToolwire)),
        ];
      }),
    ),
  );
  out.push("");
  out.push("### MCP bridge: server-everything's `echo` through the bridge against `client.callTool` direct (stdio)");
  if (summary.mcp === undefined || summary.mcp.length === 0) {
    out.push(
      "Not measured in this run: the `mcp-bridge` process did not run (`--only` left it out, or its peer file is missing).",
    );
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
          formatFigureNs(row.bridge),
          formatFigureNs(row.direct),
          formatRatioFigure(row.ratio),
          formatFigureNs(row.directV2),
          formatRatioFigure(row.ratioV2),
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
          ? formatFigureNs(target.measured)
          : target.unit === "x"
            ? formatRatioFigure(target.measured)
            : target.measured === undefined
              ? "n/a"
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
