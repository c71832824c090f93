// findOutsideCode: the plugin modules and MCP server programs a config would run from outside its own folder.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { joinPath } from "./config-issue.js";
import type { LoadedConfig } from "./load-config.js";

/** Code a config runs that lives outside the config file's folder. */
interface OutsideCode {
  /**
   * Where the config names it: `plugins[0].module`, `mcpServers[1].command`, `mcpServers[1].args[0]`
   * (`mcpServers.fs.command` in the object form).
   */
  readonly path: string;
  /** The absolute path it resolves to (symbolic links followed when it exists). */
  readonly file: string;
}

/**
 * Lists the code a config would run from outside its folder: plugin modules given as a path or
 * `file:` URL (disabled ones too: they are still imported), and for each enabled stdio MCP server a
 * `command` given as a path, or, for a command found on PATH (`node`, `npx`, `python3`), its first
 * argument that is not an option when that argument is a path. Package names and bare commands are
 * not paths and are never listed. Relative plugin paths resolve against the config's folder; a server's
 * command and script against its `cwd` (resolved against the config's folder) or else `options.cwd`
 * (default: the current folder), where the server is started. Reads nothing but the paths' real names.
 */
export function findOutsideCode(loaded: LoadedConfig, options: { readonly cwd?: string } = {}): OutsideCode[] {
  const { config, dir } = loaded;
  const home = realOf(dir);
  const found: OutsideCode[] = [];
  const check = (path: string, file: string) => {
    const real = realOf(file);
    const rel = relative(home, real);
    if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) found.push({ path, file: real });
  };
  (config.plugins ?? []).forEach((plugin, index) => {
    const file = moduleFile(plugin.module, dir);
    if (file !== undefined) check(`plugins[${index}].module`, file);
  });
  (config.mcpServers ?? []).forEach((server, index) => {
    if (server.enabled === false || !("command" in server)) return;
    const at = loaded.mcpServersForm === "object" ? joinPath("mcpServers", server.id) : `mcpServers[${index}]`;
    const cwd = server.cwd === undefined ? resolve(options.cwd ?? process.cwd()) : resolve(dir, server.cwd);
    if (isPathLike(server.command)) {
      check(`${at}.command`, resolve(cwd, server.command));
      return;
    }
    const args = server.args ?? [];
    const script = args.findIndex((arg) => !arg.startsWith("-"));
    const arg = args[script];
    if (arg !== undefined && isPathLike(arg)) check(`${at}.args[${script}]`, resolve(cwd, arg));
  });
  return found;
}

/** A plugin module's file, or `undefined` for a package name. */
function moduleFile(module: string, dir: string): string | undefined {
  if (module.startsWith("file:")) {
    try {
      return fileURLToPath(module);
    } catch {
      return undefined; // not a usable URL: the plugin host reports it when it fails to load
    }
  }
  if (isAbsolute(module) || module === "." || module === ".." || /^\.\.?[\\/]/.test(module)) {
    return resolve(dir, module);
  }
  return undefined;
}

/** A path rather than a name looked up on PATH or a package name (`@scope/name`) or a URL. */
function isPathLike(word: string): boolean {
  if (isAbsolute(word) || word === "." || word === ".." || /^\.\.?[\\/]/.test(word)) return true;
  return word.includes("/") && !word.startsWith("@") && !word.includes("://");
}

function realOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // missing: judged by the name as written
  }
}
