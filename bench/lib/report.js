// Turns the processes' figures into the report: per-call cost, ratios, tool-set costs, the loop, targets.
import { caseFigure, differenceOf, isNoise, ratioOf, rowOf, scaledFigure } from "./figures.js";
import { PROCESSES } from "./processes.js";

export { formatReport } from "./format-report.js";

/** The call counts a per-call figure is given for (0 is the baseline). */
const PER_CALL_COUNTS = [1, 10, 100];

/**
 * The peers, in the order the tables list them: each in its own process, compared with the toolwire process on the
 * same Node (`toolwire` on the Node that runs the bench, `toolwire-node22` on Node 22).
 */
const PEERS = [
  { key: "ai-sdk", process: "ai-sdk", library: "ai-sdk" },
  { key: "openai-agents", process: "openai-agents", library: "openai-agents" },
  { key: "pi", process: "pi", library: "pi" },
  { key: "langchain", process: "langchain", library: "langchain" },
  { key: "ai-sdk-7", process: "ai-sdk-7-node22", library: "ai-sdk" },
  { key: "pi-1", process: "pi-1-node22", library: "pi" },
];

/** toolwire's process on a peer's Node. */
function toolwireProcessOf(peer) {
  return PROCESSES[peer.process]?.node === "22" ? "toolwire-node22" : "toolwire";
}

/** The loop processes: a whole run by hand, through `runAgent` and through pi's loop, one per Node. */
const LOOP_PROCESSES = ["loop", "loop-node22"];

/** toolwire's turn variants and how the tables name them. */
const TOOLWIRE_VARIANTS = [
  ["valid", "toolwire"],
  ["hooks", "toolwire + 1 before, 1 after hook"],
  ["json-text", "toolwire, input as JSON text"],
];

/** The median of one case in one process's rows, or `undefined` when it was not measured. */
export function medianOf(processReport, group, library, variant, n) {
  return rowOf(processReport, group, library, variant, n)?.medianNs;
}

/** (turn with `n` calls − turn with none) / n, pass by pass: the per-call cost, a figure in ns. */
export function perCallFigure(processReport, library, variant, n) {
  if (n <= 0) return undefined;
  const withCalls = caseFigure(processReport, "turn", library, variant, n);
  const without = caseFigure(processReport, "turn", library, variant, 0);
  return scaledFigure(differenceOf(withCalls, without), n);
}

/** The median per-call cost in ns, or `undefined`. */
export function perCallNs(processReport, library, variant, n) {
  return perCallFigure(processReport, library, variant, n)?.median;
}

/** "Node 22" for a process report's `node` ("v22.23.5"); "" when the report does not say. */
function nodeLabel(processReport) {
  const major = /^v?(\d+)/.exec(processReport?.node ?? "")?.[1];
  return major === undefined ? "" : `Node ${major}`;
}

/** The release a process's library was measured at: "7.0.185" out of "ai@7.0.185" (the first one listed). */
function releaseOf(processReport, library) {
  const version = processReport?.libraries?.find((each) => each.library === library)?.version ?? "";
  return /@(\d[^,\s]*)/.exec(version)?.[1];
}

/** A peer's name in the tables: its library, release and Node, e.g. "pi 1.6.0 (Node 22)". */
function peerLabel(peer, processReport) {
  const release = releaseOf(processReport, peer.library);
  const node = nodeLabel(processReport);
  return `${peer.library}${release === undefined ? "" : ` ${release}`}${node === "" ? "" : ` (${node})`}`;
}

/** Everything the tables show, computed from the processes' reports. */
export function summarize(processes) {
  const named = new Map(processes.map((each) => [each.process, each]));
  const usable = (name) => {
    const report = named.get(name);
    return report !== undefined && report.error === undefined && report.skipped === undefined ? report : undefined;
  };
  const skipped = processes
    .filter((each) => each.error !== undefined || each.skipped !== undefined)
    .map((each) => ({ process: each.process, reason: firstLine(each.skipped ?? each.error) }));
  const own = usable("toolwire");
  const shared = usable("toolwire-with-peers");
  const peers = PEERS.filter((peer) => usable(peer.process) !== undefined).map((peer) => ({
    ...peer,
    label: peerLabel(peer, usable(peer.process)),
    toolwireProcess: toolwireProcessOf(peer),
  }));
  const versions = processes
    .filter((each) => usable(each.process) !== undefined)
    .flatMap((each) =>
      (each.libraries ?? []).map((library) => ({ process: each.process, node: each.node, ...library })),
    );

  const perCall = {};
  for (const variant of ["valid", "invalid"]) {
    const rows = [];
    const add = (label, processName, library, libraryVariant) => {
      const report = usable(processName);
      if (report === undefined) return;
      const figures = {};
      for (const n of PER_CALL_COUNTS) figures[n] = perCallFigure(report, library, libraryVariant, n);
      const floor = perCallFigure(report, "floor", variant, 100);
      rows.push({
        label,
        process: processName,
        node: nodeLabel(report),
        library,
        variant: libraryVariant,
        perCall: figures,
        overFloor: library === "floor" ? undefined : ratioOf(figures[100], floor),
      });
    };
    for (const toolwireProcess of ["toolwire", "toolwire-node22"]) {
      add("floor (direct call), toolwire's process", toolwireProcess, "floor", variant);
      if (variant === "valid") {
        for (const [libraryVariant, label] of TOOLWIRE_VARIANTS)
          add(label, toolwireProcess, "toolwire", libraryVariant);
      } else {
        add("toolwire", toolwireProcess, "toolwire", "invalid");
      }
      if (toolwireProcess === "toolwire") {
        add("toolwire, in one process with all peers", "toolwire-with-peers", "toolwire", variant);
      }
      for (const peer of peers.filter((each) => each.toolwireProcess === toolwireProcess)) {
        add(peer.label, peer.process, peer.library, variant);
      }
    }
    perCall[variant] = rows;
  }

  const comparison = {};
  for (const variant of ["valid", "invalid"]) {
    comparison[variant] = [];
    for (const toolwireProcess of ["toolwire", "toolwire-node22"]) {
      const report = usable(toolwireProcess);
      if (report === undefined) continue;
      const candidates = peers.filter((peer) => peer.toolwireProcess === toolwireProcess);
      for (const n of PER_CALL_COUNTS) {
        const toolwire = perCallFigure(report, "toolwire", variant, n);
        const floor = perCallFigure(report, "floor", variant, n);
        const byPeer = {};
        for (const peer of candidates) byPeer[peer.key] = perCallFigure(usable(peer.process), peer.library, variant, n);
        // A peer whose figure could be noise (printed ≈0) has no speed to compare with: not a candidate.
        const measured = candidates.filter((peer) => byPeer[peer.key] !== undefined && !isNoise(byPeer[peer.key]));
        const fastest = measured.sort((a, b) => byPeer[a.key].median - byPeer[b.key].median)[0];
        comparison[variant].push({
          node: nodeLabel(report),
          process: toolwireProcess,
          n,
          toolwire,
          floor,
          toolwireOverFloor: ratioOf(toolwire, floor),
          peers: byPeer,
          toolwireOverPeer: Object.fromEntries(
            candidates.map((peer) => [peer.key, ratioOf(toolwire, byPeer[peer.key])]),
          ),
          fastestPeer: fastest?.key,
          fastestPeerLabel: fastest?.label,
          timesLowerThanFastestPeer: fastest === undefined ? undefined : ratioOf(byPeer[fastest.key], toolwire),
        });
      }
    }
  }

  const singleOf = (report) => {
    const hooks = caseFigure(report, "single", "toolwire", "hooks", 1);
    const plain = caseFigure(report, "single", "toolwire", "plain", 1);
    const direct = caseFigure(report, "single", "floor", "direct", 1);
    return {
      node: nodeLabel(report),
      dispatchWithHooks: hooks,
      dispatch: plain,
      direct,
      ratioWithHooks: ratioOf(hooks, direct),
      overheadWithHooks: differenceOf(hooks, direct),
      ratio: ratioOf(plain, direct),
      overhead: differenceOf(plain, direct),
    };
  };
  const single = {
    own: singleOf(own),
    withPeers: singleOf(shared),
    node22: usable("toolwire-node22") === undefined ? undefined : singleOf(usable("toolwire-node22")),
  };

  const toolCounts = [...new Set((own?.rows ?? []).filter((row) => row.group === "tools").map((row) => row.n))].sort(
    (a, b) => a - b,
  );
  const tools = toolCounts.map((n) => {
    const get = (variant) => caseFigure(own, "tools", "toolwire", variant, n);
    const byPeer = {};
    const payloadOverPeer = {};
    for (const peer of peers) {
      const report = usable(peer.process);
      const perTurn = differenceOf(
        caseFigure(report, "tools", peer.library, "turn", n),
        caseFigure(report, "tools", peer.library, "turn", 0),
      );
      byPeer[peer.key] = perTurn;
      const payload = caseFigure(usable(peer.toolwireProcess), "tools", "toolwire", "payload", n);
      payloadOverPeer[peer.key] = isNoise(perTurn) ? undefined : ratioOf(payload, perTurn);
    }
    const refreshPlusPayload = get("refresh+payload");
    return {
      n,
      refresh: get("refresh"),
      plan: get("plan"),
      payload: get("payload"),
      refreshPlusPayload,
      refreshPlusPayloadPerTool: scaledFigure(refreshPlusPayload, n),
      peersPerTurn: byPeer,
      payloadOverPeer,
    };
  });

  const loop = LOOP_PROCESSES.map((name) => usable(name))
    .filter((report) => report !== undefined)
    .map((report) => {
      const hand = caseFigure(report, "loop", "hand", "anthropic", 1);
      const toolwire = caseFigure(report, "loop", "toolwire", "anthropic", 1);
      const pis = (report.rows ?? [])
        .filter((row) => row.group === "loop" && row.library === "pi")
        .map((row) => {
          const pi = caseFigure(report, "loop", "pi", row.variant, 1);
          return {
            version: row.variant,
            release: /@(\d[^,\s]*)$/.exec(row.variant)?.[1],
            pi,
            piOverToolwire: ratioOf(pi, toolwire),
          };
        });
      return {
        process: report.process,
        node: nodeLabel(report),
        hand,
        toolwire,
        toolwireOverHand: ratioOf(toolwire, hand),
        pis,
      };
    });

  const mcpReport = usable("mcp-bridge");
  const mcp =
    mcpReport === undefined
      ? undefined
      : (mcpReport.rows ?? [])
          .filter((row) => row.group === "mcp" && row.library === "toolwire")
          .map((row) => {
            const bridge = caseFigure(mcpReport, "mcp", "toolwire", row.variant, row.n);
            const direct = caseFigure(mcpReport, "mcp", "mcp-sdk", row.variant, row.n);
            const directV2 = caseFigure(mcpReport, "mcp", "mcp-sdk-v2", row.variant, row.n);
            return {
              variant: row.variant,
              n: row.n,
              bridge,
              direct,
              ratio: ratioOf(bridge, direct),
              directV2,
              ratioV2: ratioOf(bridge, directV2),
            };
          });

  return {
    skipped,
    versions,
    peers,
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

/** The issue's targets, each with what was measured (a figure) and whether it was met (judged on the median). */
export function evaluateTargets({ comparison, tools, loop, facts }) {
  const targets = [];
  const judge = (name, measured, unit, pass) =>
    targets.push({ name, measured, unit, met: measured === undefined ? undefined : pass(measured.median) });
  const own = (comparison.valid ?? []).filter((row) => row.process === "toolwire" || row.process === undefined);
  for (const row of own) judge(`per-call overhead under 2 µs (N=${row.n})`, row.toolwire, "ns", (ns) => ns < 2000);
  for (const row of comparison.valid ?? []) {
    const where = row.node === undefined || row.node === "" ? "" : `, ${row.node}`;
    judge(
      `at least 5x lower than the fastest peer (N=${row.n}${where}, ${row.fastestPeerLabel ?? row.fastestPeer ?? "no peer"})`,
      row.timesLowerThanFastestPeer,
      "x",
      (value) => value >= 5,
    );
  }
  const thousand = tools.find((row) => row.n === 1000);
  judge("1,000-tool refresh plus payload under 5 ms", thousand?.refreshPlusPayload, "ns", (ns) => ns < 5e6);
  judge(
    "refresh plus payload linear in the number of tools (cost per tool at 10,000 within 2x of the cost at 100)",
    linearity(tools),
    "x",
    (value) => value <= 2,
  );
  for (const run of loop ?? []) {
    // Two loop processes may run on one Node (a worktree's PATH can put both on Node 22), so the process names a row.
    const where = run.process === undefined ? run.node : `${run.process} process, ${run.node}`;
    judge(
      `a whole runAgent run at most 4x the same run by hand (${where})`,
      run.toolwireOverHand,
      "x",
      (value) => value <= 4,
    );
    for (const pi of run.pis) {
      judge(
        `a whole runAgent run at least 3x below pi ${pi.release ?? pi.version}'s loop (${where})`,
        pi.piOverToolwire,
        "x",
        (value) => value >= 3,
      );
    }
  }
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
  return ratioOf(largest.refreshPlusPayloadPerTool, base.refreshPlusPayloadPerTool);
}

function firstLine(text) {
  return String(text).split("\n")[0];
}
