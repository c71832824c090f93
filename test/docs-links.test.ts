// No link in README.md or docs/ leaves the repository, and every relative link lands on a shipped file and heading.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** What one markdown page holds that can point somewhere. */
interface PageScan {
  /** Targets of `[text](target)`, `![alt](target)`, `[label]: target`, `<scheme://...>` and `href="..."`, with their line. */
  readonly links: readonly { readonly line: number; readonly target: string }[];
  /** `http(s)://` URLs written in prose (outside code), which a renderer turns into links. */
  readonly proseUrls: readonly { readonly line: number; readonly url: string }[];
  /** `http(s)://` URLs inside code spans and fenced blocks: sample values, not links. */
  readonly codeUrls: readonly { readonly line: number; readonly url: string }[];
  /** The anchors of the page's headings, as GitHub makes them. */
  readonly anchors: ReadonlySet<string>;
}

const URL_PATTERN = /https?:\/\/[^\s)>`"'\]]+/g;

/** GitHub's heading anchor: lower case, punctuation dropped (but `-` and `_`), each space a `-`. */
function headingAnchor(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

function scanPage(markdown: string): PageScan {
  const links: { line: number; target: string }[] = [];
  const proseUrls: { line: number; url: string }[] = [];
  const codeUrls: { line: number; url: string }[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  markdown.split("\n").forEach((text, index) => {
    const line = index + 1;
    const fenceMark = /^\s*(```|~~~)/.exec(text)?.[1];
    if (fence !== undefined || fenceMark !== undefined) {
      if (fence === undefined) fence = fenceMark;
      else if (fenceMark === fence) fence = undefined;
      for (const url of text.match(URL_PATTERN) ?? []) codeUrls.push({ line, url });
      return;
    }
    for (const span of text.match(/`[^`]*`/g) ?? []) {
      for (const url of span.match(URL_PATTERN) ?? []) codeUrls.push({ line, url });
    }
    const prose = text.replace(/`[^`]*`/g, "``");
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading?.[1] !== undefined) {
      const anchor = headingAnchor(heading[1]);
      const count = seen.get(anchor) ?? 0;
      seen.set(anchor, count + 1);
      anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
    }
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: match[1] as string });
    }
    const definition = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition?.[1] !== undefined) links.push({ line, target: definition[1] });
    for (const match of prose.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi))
      links.push({ line, target: match[1] as string });
    for (const match of prose.matchAll(/href="([^"]+)"/g)) links.push({ line, target: match[1] as string });
    const bare = definition === null ? prose.replace(/\]\([^)]*\)/g, "]()").replace(/<[^>\s]+>/g, "<>") : "";
    for (const url of bare.match(URL_PATTERN) ?? []) proseUrls.push({ line, url: url.replace(/[.,;:!?]+$/, "") });
  });
  return { links, proseUrls, codeUrls, anchors };
}

/** A link target with a scheme (`https:`, `mailto:`) or protocol-relative (`//host`): it leaves the repository. */
function isOutside(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");
}

/** Loopback, a placeholder (`HOST`), nginx's upstream name in docs/serve.md, or a reserved example domain. */
function isSampleHost(url: string): boolean {
  const host = /^https?:\/\/(\[[^\]]*\]|[^/:;?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? "";
  if (["127.0.0.1", "localhost", "[::1]", "host", "toolwire"].includes(host)) return true;
  // A real MCP server's address as the value of a sample config (docs/config.md, docs/mcp.md, docs/cli.md); no
  // page links to it.
  if (host === "mcp.linear.app") return true;
  return /(^|\.)example(\.(com|org|net))?$/.test(host);
}

async function pages(): Promise<Map<string, PageScan>> {
  const names = [
    "README.md",
    ...(await readdir(join(root, "docs"))).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
  ];
  const scans = new Map<string, PageScan>();
  for (const name of names) scans.set(name, scanPage(await readFile(join(root, name), "utf8")));
  return scans;
}

/** Whether a repository path is in the npm package (package.json `files`, plus what npm always includes). */
async function shipsInPackage(path: string): Promise<boolean> {
  const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { files: string[] };
  if (["README.md", "LICENSE", "package.json"].includes(path)) return true;
  return manifest.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

describe("links in README.md and docs/", () => {
  it("the scanner finds outside links, bare URLs and code URLs, and skips fenced code", () => {
    const scan = scanPage(
      [
        "# Title: `code` and more",
        "See [the spec](https://modelcontextprotocol.io/spec) or <https://github.com/x/y>, or https://www.rfc-editor.org.",
        "[ref]: https://www.npmjs.com/package/toolwire",
        "Run `curl https://github.com/x` then [core](docs/core.md#plan).",
        "```sh",
        "# not a heading https://example.com/in-code",
        "```",
        "## Title: code and more",
      ].join("\n"),
    );
    expect(scan.links.map((link) => link.target)).toEqual([
      "https://modelcontextprotocol.io/spec",
      "https://github.com/x/y",
      "https://www.npmjs.com/package/toolwire",
      "docs/core.md#plan",
    ]);
    expect(scan.proseUrls.map((entry) => entry.url)).toEqual(["https://www.rfc-editor.org"]);
    expect(scan.codeUrls.map((entry) => entry.url)).toEqual(["https://github.com/x", "https://example.com/in-code"]);
    expect([...scan.anchors]).toEqual(["title-code-and-more", "title-code-and-more-1"]);
    expect(isSampleHost("https://github.com/x")).toBe(false);
    expect(isSampleHost("https://login.example.com/authorize")).toBe(true);
  });

  it("no markdown link points outside the repository", async () => {
    const outside: string[] = [];
    for (const [page, scan] of await pages()) {
      for (const link of scan.links) if (isOutside(link.target)) outside.push(`${page}:${link.line} ${link.target}`);
    }
    expect(outside).toEqual([]);
  });

  it("no URL in prose points outside the repository (a renderer would make it a link)", async () => {
    const outside: string[] = [];
    for (const [page, scan] of await pages()) {
      for (const entry of scan.proseUrls)
        if (!isSampleHost(entry.url)) outside.push(`${page}:${entry.line} ${entry.url}`);
    }
    expect(outside).toEqual([]);
  });

  it("URLs in code samples name loopback, placeholder or example hosts only", async () => {
    const outside: string[] = [];
    for (const [page, scan] of await pages()) {
      for (const entry of scan.codeUrls)
        if (!isSampleHost(entry.url)) outside.push(`${page}:${entry.line} ${entry.url}`);
    }
    expect(outside).toEqual([]);
  });

  it("every relative link resolves to a file that ships in the package", async () => {
    const broken: string[] = [];
    for (const [page, scan] of await pages()) {
      for (const link of scan.links) {
        const path = link.target.split("#")[0] as string;
        if (isOutside(link.target) || path === "") continue;
        const file = resolve(dirname(join(root, page)), decodeURIComponent(path));
        const inRepository = relative(root, file);
        if (!existsSync(file)) broken.push(`${page}:${link.line} ${link.target} (no such file)`);
        else if (!(await shipsInPackage(inRepository)))
          broken.push(`${page}:${link.line} ${link.target} (not in the package)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("every #anchor names a heading of the page it points to", async () => {
    const scans = await pages();
    const missing: string[] = [];
    for (const [page, scan] of scans) {
      for (const link of scan.links) {
        const [path, anchor] = link.target.split("#") as [string, string | undefined];
        if (isOutside(link.target) || anchor === undefined) continue;
        const target = path === "" ? page : relative(root, resolve(dirname(join(root, page)), path));
        const anchors = scans.get(target)?.anchors;
        if (anchors === undefined) missing.push(`${page}:${link.line} ${link.target} (not a scanned page)`);
        else if (!anchors.has(decodeURIComponent(anchor))) missing.push(`${page}:${link.line} ${link.target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
