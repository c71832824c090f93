// A measured figure with its spread over the passes of a run: a case's time, a per-call cost, a ratio; and their text.

/**
 * A figure: the median over a process's passes, the lowest and the highest pass; `passes` in pass order (so two
 * figures of one process can be compared pass by pass) and the `process` it was measured in.
 * @typedef {{ median: number, min: number, max: number, passes: number[], process: string | undefined }} Figure
 */

/** The median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)] + sorted[Math.ceil(middle)]) / 2;
}

/** A figure of numbers given pass by pass; `undefined` when there are none or one is not a number. */
export function figureOf(passes, process) {
  if (passes.length === 0 || passes.some((value) => typeof value !== "number" || Number.isNaN(value))) return undefined;
  return { median: median(passes), min: Math.min(...passes), max: Math.max(...passes), passes, process };
}

/** One case's row in a process's report, or `undefined` when it was not measured. */
export function rowOf(processReport, group, library, variant, n) {
  return processReport?.rows?.find(
    (each) => each.group === group && each.library === library && each.variant === variant && each.n === n,
  );
}

/** One case's figure: its pass medians (a row without them, from an older run, is one pass of its median). */
export function caseFigure(processReport, group, library, variant, n) {
  const row = rowOf(processReport, group, library, variant, n);
  if (row === undefined) return undefined;
  return figureOf(row.passesNs ?? [row.medianNs], processReport.process);
}

/** `a ∘ b` pass by pass when both come from one process with as many passes; else `undefined`. */
function pairwise(a, b, combine) {
  if (a.process !== b.process || a.passes.length !== b.passes.length) return undefined;
  return figureOf(
    a.passes.map((value, index) => combine(value, b.passes[index])),
    a.process,
  );
}

/** `a − b`: pass by pass within one process, else the medians' difference with the widest spread the ranges allow. */
export function differenceOf(a, b) {
  if (a === undefined || b === undefined) return undefined;
  return (
    pairwise(a, b, (x, y) => x - y) ?? {
      median: a.median - b.median,
      min: a.min - b.max,
      max: a.max - b.min,
      passes: [a.median - b.median],
      process: undefined,
    }
  );
}

/** `figure / divisor` (a number): a per-call figure from a turn's difference. */
export function scaledFigure(figure, divisor) {
  if (figure === undefined) return undefined;
  return {
    median: figure.median / divisor,
    min: figure.min / divisor,
    max: figure.max / divisor,
    passes: figure.passes.map((value) => value / divisor),
    process: figure.process,
  };
}

/**
 * `a / b`: pass by pass within one process (the passes were measured side by side), else the ratio of the medians
 * with the widest spread the two ranges allow. `undefined` when either is missing or a divisor is not positive.
 */
export function ratioOf(a, b) {
  if (a === undefined || b === undefined || !(b.min > 0)) return undefined;
  return (
    pairwise(a, b, (x, y) => x / y) ?? {
      median: a.median / b.median,
      min: a.min / b.max,
      max: a.max / b.min,
      passes: [a.median / b.median],
      process: undefined,
    }
  );
}

/** Whether a difference could be noise: its passes straddle zero. */
export function isNoise(figure) {
  return figure !== undefined && figure.min <= 0 && figure.max >= 0;
}

/** A duration for people: ns below 1 µs, µs below 1 ms, then ms. "n/a" when missing. */
export function formatNs(ns) {
  if (ns === undefined || Number.isNaN(ns)) return "n/a";
  const size = Math.abs(ns);
  if (size < 1000) return `${ns.toFixed(0)} ns`;
  if (size < 1e6) return `${(ns / 1000).toFixed(2)} µs`;
  return `${(ns / 1e6).toFixed(2)} ms`;
}

/** A number in the unit `formatNs` gives `reference`, without the unit. */
function inUnitOf(ns, reference) {
  const size = Math.abs(reference);
  if (size < 1000) return ns.toFixed(0);
  if (size < 1e6) return (ns / 1000).toFixed(2);
  return (ns / 1e6).toFixed(2);
}

/** A duration figure for people: the median, then the lowest and highest pass in its unit: "2.07 µs (1.90-2.31)". */
export function formatFigureNs(figure) {
  if (figure === undefined) return "n/a";
  if (figure.passes.length < 2 && figure.min === figure.max) return formatNs(figure.median);
  return `${formatNs(figure.median)} (${inUnitOf(figure.min, figure.median)}-${inUnitOf(figure.max, figure.median)})`;
}

/** A difference figure for people: "≈0" with its range when its passes straddle zero. */
export function formatDifference(figure) {
  if (figure === undefined) return "n/a";
  if (isNoise(figure)) return `≈0 (${formatNs(figure.min)} to ${formatNs(figure.max)})`;
  return formatFigureNs(figure);
}

/** A ratio for people: two significant decimals below 10, one below 100, none above. "n/a" when missing. */
export function formatRatio(value) {
  if (value === undefined || Number.isNaN(value)) return "n/a";
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)}x`;
}

/** A ratio figure for people: "5.89x (5.21-6.40)". */
export function formatRatioFigure(figure) {
  if (figure === undefined) return "n/a";
  if (figure.passes.length < 2 && figure.min === figure.max) return formatRatio(figure.median);
  const digits = figure.median < 10 ? 2 : figure.median < 100 ? 1 : 0;
  return `${formatRatio(figure.median)} (${figure.min.toFixed(digits)}-${figure.max.toFixed(digits)})`;
}
