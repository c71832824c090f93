// A program's text as the engine evaluates it: Markdown fences blanked out, the body wrapped so its lines stay its own.

/** The file name QuickJS gives the program in stack traces and syntax errors. */
export const PROGRAM_FILE = "program.js";

const OPENING_FENCE = /^\s*(`{3,}|~{3,})[\w+#.-]*\s*$/;

/**
 * The script for a program body: `(async () => {` + body + `\n})()`, on the body's first line so that a line number
 * in an error is a line of the body. A Markdown code fence around the body (as models often write) becomes blank
 * lines, which keeps the numbering of the lines the model wrote.
 */
export function toProgramScript(code: string): string {
  return `(async () => {${stripCodeFence(code)}\n})()`;
}

/** The body without a Markdown fence around it, its fence lines left blank; any other text as it is. */
export function stripCodeFence(code: string): string {
  const lines = code.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  const last = lines.findLastIndex((line) => line.trim() !== "");
  if (first === -1 || first === last) return code;
  const opening = OPENING_FENCE.exec(lines[first]!);
  if (opening === null) return code;
  const marker = opening[1]!;
  const closing = lines[last]!.trim();
  if (
    !closing.startsWith(marker[0]!) ||
    closing.length < marker.length ||
    closing !== marker[0]!.repeat(closing.length)
  ) {
    return code;
  }
  lines[first] = "";
  lines[last] = "";
  return lines.join("\n");
}

/** The program line an error's stack or position names (the first frame in the program's own file). */
export function findProgramLine(stack: string | undefined): number | undefined {
  if (stack === undefined) return undefined;
  const match = /program\.js:(\d+)/.exec(stack);
  return match === null ? undefined : Number(match[1]);
}
