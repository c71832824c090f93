// The fenced code blocks of README.md and docs/*.md, each with the marker comment above it that says who runs it.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/**
 * What the HTML comment on the line right above a block says: `<!-- runs: test/x.test.ts -->` (that test runs the
 * block as written; `as NAME` names the file the test writes it to), `<!-- fragment: why -->` (a part of a bigger
 * program, run by nobody), or nothing.
 */
export type DocBlockMarker =
  | { readonly kind: "runs"; readonly test: string; readonly as?: string }
  | { readonly kind: "fragment"; readonly reason: string }
  | { readonly kind: "none" };

/** One fenced block of a page. */
export interface DocBlock {
  /** The page's path in the repository, `README.md` or `docs/<name>.md`. */
  readonly page: string;
  /** The 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's language tag (`ts`, `js`, `sh`, `json`, ...), `""` without one. */
  readonly lang: string;
  readonly code: string;
  readonly marker: DocBlockMarker;
}

/** The languages whose blocks must run in a test or be marked as fragments. */
export const PROGRAM_LANGS: ReadonlySet<string> = new Set(["ts", "typescript", "js", "javascript", "mjs", "tsx"]);

function parseMarker(text: string | undefined): DocBlockMarker {
  const comment = /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(text ?? "")?.[1];
  if (comment === undefined) return { kind: "none" };
  const runs = /^runs:\s*(\S+)(?:\s+as\s+(\S+))?$/.exec(comment);
  if (runs?.[1] !== undefined) return { kind: "runs", test: runs[1], ...(runs[2] ? { as: runs[2] } : {}) };
  const fragment = /^fragment(?::\s*(.*))?$/.exec(comment);
  if (fragment !== null) return { kind: "fragment", reason: fragment[1] ?? "" };
  return { kind: "none" };
}

/** The blocks of one page, in order. */
export function readDocBlocks(page: string): DocBlock[] {
  const lines = readFileSync(join(root, page), "utf8").split("\n");
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(lines[index] as string);
    if (open === null) continue;
    const fence = open[2] as string;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !(lines[end] as string).trimStart().startsWith(fence))
      body.push(lines[end++] as string);
    blocks.push({
      page,
      line: index + 1,
      lang: open[3] ?? "",
      code: `${body.join("\n")}\n`,
      marker: parseMarker(lines[index - 1]),
    });
    index = end;
  }
  return blocks;
}

/** README.md and every docs/*.md page. */
export function docPages(): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}
