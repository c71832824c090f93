// loadPageFiles: the inspector's built page, read into memory once: a handful of small files, served from there.
import { type Dirent, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";

/** One file of the page, ready to send. */
export interface PageFile {
  readonly body: Buffer;
  readonly type: string;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** The most bytes the page's files may hold together: a page larger than this is not the inspector's. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/**
 * The files of `folder` and its subfolders whose type the page uses (HTML, JavaScript, CSS, images), by their path
 * relative to it with `/` separators. A folder that does not exist gives none. Only these are ever served: no
 * request reaches the file system.
 */
export function loadPageFiles(folder: string): ReadonlyMap<string, PageFile> {
  const files = new Map<string, PageFile>();
  let total = 0;
  const visit = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        visit(path);
        continue;
      }
      const type = TYPES[extname(entry.name).toLowerCase()];
      if (!entry.isFile() || type === undefined) continue;
      const body = readFileSync(path);
      total += body.length;
      if (total > MAX_PAGE_BYTES) return;
      files.set(relative(folder, path).split(sep).join("/"), { body, type });
    }
  };
  visit(folder);
  return files;
}
