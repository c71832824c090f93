// A temp folder laid out as if `npm install` had put toolwire and the named packages in it, without a network.
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/** A project folder; `remove()` deletes it. */
export interface ConsumerProject {
  readonly path: string;
  remove(): Promise<void>;
}

/** The package a bare import specifier names (`@scope/name/sub` is `@scope/name`), or undefined for a relative or `node:` one. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Every package a JavaScript or TypeScript source imports by name (`import ... from "x"`, `import("x")`). */
export function importedPackages(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
    const name = packageOf(match[1] as string);
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/**
 * Creates the project: `node_modules/toolwire` and each of `packages` linked to this repository's copies (so their own
 * dependencies resolve as installed), `node_modules/.bin` shims for their `bin` entries, and `files` written in it.
 * Throws when a package is not in this repository's node_modules.
 */
export async function createConsumerProject(
  options: { packages?: readonly string[]; files?: Record<string, string> } = {},
): Promise<ConsumerProject> {
  const path = await realpath(await mkdtemp(join(tmpdir(), "toolwire-consumer-")));
  const bin = join(path, "node_modules", ".bin");
  await mkdir(bin, { recursive: true });
  for (const name of new Set(["toolwire", ...(options.packages ?? [])])) {
    const source = name === "toolwire" ? root : join(root, "node_modules", name);
    if (!existsSync(join(source, "package.json"))) throw new Error(`${name} is not installed in this repository`);
    const target = join(path, "node_modules", name);
    await mkdir(dirname(target), { recursive: true });
    await symlink(source, target, "dir");
    const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8")) as {
      bin?: string | Record<string, string>;
    };
    const bins =
      typeof manifest.bin === "string" ? { [name.split("/").at(-1) as string]: manifest.bin } : (manifest.bin ?? {});
    for (const [command, file] of Object.entries(bins)) {
      // a shell shim as npm writes on systems without symbolic links: dist/ files are not executable before packing
      const shim = join(bin, command);
      await writeFile(shim, `#!/bin/sh\nexec node "$(dirname "$0")/../${name}/${file}" "$@"\n`);
      await chmod(shim, 0o755);
    }
  }
  for (const [name, text] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(path, name)), { recursive: true });
    await writeFile(join(path, name), text);
  }
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
