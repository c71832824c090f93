// Terminal output for the CLI: colour and tables on a terminal, plain text when piped, a progress line for slow work.
import type { WriteStream } from "node:tty";

/** Where and how the CLI writes. */
export interface Output {
  readonly color: boolean;
  readonly interactive: boolean;
  /** The terminal's width when stdout is one (tables fit it); undefined when piped. */
  readonly columns?: number;
  line(text?: string): void;
  /** Writes text to stdout as it is, without a newline (for text that streams in). */
  write(text: string): void;
  error(text: string): void;
  /** Shows `label` with a spinner on stderr while `work` runs longer than a moment (terminals only). */
  progress<T>(label: string, work: Promise<T>): Promise<T>;
}

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;
type Style = keyof typeof CODES;

/** Wraps text in an ANSI style when colour is on. */
export function paint(output: Pick<Output, "color">, style: Style, text: string): string {
  if (!output.color) return text;
  const [open, close] = CODES[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/**
 * Decides colour the way most tools do: `--no-color` and NO_COLOR win, then FORCE_COLOR (`0` or `false` turns colour
 * off even on a terminal, any other value turns it on even when piped), then whether stdout is a terminal.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, stream: { isTTY?: boolean }, flag?: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** How many prompts hold the progress line back; while any does, the spinner does not draw. */
let held = 0;

/**
 * Holds every progress line back (and clears the one shown) while a question waits for an answer on
 * the terminal; call the returned function when it is answered.
 */
export function holdProgressLine(): () => void {
  if (held++ === 0 && process.stderr.isTTY === true) process.stderr.write("\r\u001b[2K");
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held--;
  };
}

/** The output of the running process. */
export function createOutput(options: { color?: boolean } = {}): Output {
  const stdout = process.stdout as WriteStream;
  const stderr = process.stderr as WriteStream;
  const color = colorEnabled(process.env, stdout, options.color);
  const interactive = stderr.isTTY === true && process.env.CI === undefined;
  const columns = stdout.isTTY === true && stdout.columns > 0 ? stdout.columns : undefined;
  return {
    color,
    interactive,
    ...(columns === undefined ? {} : { columns }),
    line: (text = "") => {
      stdout.write(`${text}\n`);
    },
    write: (text) => {
      stdout.write(text);
    },
    error: (text) => {
      stderr.write(`${text}\n`);
    },
    async progress(label, work) {
      if (!interactive) return work;
      const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
      let frame = 0;
      const started = Date.now();
      let shown = false;
      const timer = setInterval(() => {
        if (held > 0) return;
        shown = true;
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        stderr.write(`\r${frames[frame++ % frames.length]} ${label} ${seconds}s`);
      }, 120);
      try {
        return await work;
      } finally {
        clearInterval(timer);
        if (shown) stderr.write("\r\u001b[2K");
      }
    },
  };
}

/** Visible width of text without ANSI codes. */
function width(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes
  return text.replace(/\u001b\[[0-9;]*m/g, "").length;
}

/** The narrowest the last column of a table is cut to, however narrow the terminal. */
const MIN_LAST_COLUMN = 20;

/**
 * A plain table: columns padded to their widest cell, a header line, no borders. On a terminal (`columns`) the
 * last column is cut with `…` so that each line fits; piped output is never cut.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  output: Pick<Output, "color" | "columns">,
): string {
  const widths = header.map((title, column) => Math.max(width(title), ...rows.map((row) => width(row[column] ?? ""))));
  const before = widths.slice(0, -1).reduce((sum, cell) => sum + cell + 2, 0);
  const room = output.columns === undefined ? undefined : Math.max(MIN_LAST_COLUMN, output.columns - before - 1);
  const cutToRoom = (cell: string) =>
    room === undefined || width(cell) <= room || cell.includes("\u001b[") ? cell : `${cell.slice(0, room - 1)}…`;
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cutToRoom(cell) : cell + " ".repeat((widths[column] ?? 0) - width(cell)),
      )
      .join("  ")
      .trimEnd();
  return [paint(output, "bold", render(header)), ...rows.map(render)].join("\n");
}
