// Where OAuth state lives: a JSON file per MCP server URL that only the user can read, or memory.
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/client";
import type { StoredDpopKey } from "./dpop-key.js";

/** Tokens as stored: the authorization server's answer, plus when the access token expires (ms since the epoch). */
export type StoredTokens = OAuthTokens & { readonly issuer?: string; readonly expires_at?: number };

/** What is remembered for one MCP server between runs. */
export interface OAuthStoreState {
  /** The server URL the state belongs to (the store's key). */
  readonly serverUrl?: string;
  readonly tokens?: StoredTokens;
  /** Registered clients (dynamic registration, or a client ID metadata URL), by authorization server issuer. */
  readonly clients?: Readonly<Record<string, OAuthClientInformationMixed & { readonly issuer?: string }>>;
  /** The loopback redirect URI a registration was made with: the next login listens on the same port. */
  readonly redirectUrl?: string;
  /** The DPoP key DPoP-bound tokens are bound to (RFC 9449), once an authorization server offered DPoP. */
  readonly dpopKey?: StoredDpopKey;
}

/** Reads and writes one server's OAuth state. `save` replaces the whole state. */
export interface OAuthStore {
  /** Where the state is kept, for messages (a file path, or `memory`). */
  readonly location: string;
  load(): Promise<OAuthStoreState>;
  save(state: OAuthStoreState): Promise<void>;
  /** Forgets everything (a logout). */
  clear(): Promise<void>;
}

/**
 * The folder of the token files: `$TOOLWIRE_OAUTH_DIR` when set, else `$XDG_CONFIG_HOME/toolwire/oauth`, else
 * `~/.config/toolwire/oauth`.
 */
export function defaultOAuthDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.TOOLWIRE_OAUTH_DIR !== undefined && env.TOOLWIRE_OAUTH_DIR !== "") return env.TOOLWIRE_OAUTH_DIR;
  const base =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return join(base, "toolwire", "oauth");
}

/** The file name for a server URL: its host (for a person looking at the folder) and a hash of the whole URL. */
export function oauthFileName(serverUrl: string | URL): string {
  const url = new URL(String(serverUrl));
  url.hash = "";
  const key = url.href;
  const host = url.host.replace(/[^A-Za-z0-9.-]/g, "_");
  return `${host}-${createHash("sha256").update(key).digest("hex").slice(0, 16)}.json`;
}

/**
 * A store in `<dir>/<host>-<hash>.json`, keyed by the server URL. The folder is created with mode 0700 and the file
 * is written with mode 0600 (through a temporary file renamed over it, so a crash never leaves half a file). A file
 * that is missing or not JSON reads as empty state.
 */
export function createOAuthFileStore(options: { readonly serverUrl: string | URL; readonly dir?: string }): OAuthStore {
  const dir = options.dir ?? defaultOAuthDir();
  const file = join(dir, oauthFileName(options.serverUrl));
  const serverUrl = String(options.serverUrl);
  return {
    location: file,
    async load() {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        return {};
      }
      try {
        const parsed = JSON.parse(text) as unknown;
        return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
          ? (parsed as OAuthStoreState)
          : {};
      } catch {
        return {};
      }
    },
    async save(state) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify({ ...state, serverUrl }, null, 2)}\n`, { mode: 0o600 });
        // The mode given to writeFile is filtered by the umask; 0600 is what must hold.
        await chmod(temporary, 0o600);
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async clear() {
      await rm(file, { force: true });
    },
  };
}

/** A store that forgets everything when the process ends: for tests, and for programs that keep tokens elsewhere. */
export function createMemoryOAuthStore(initial: OAuthStoreState = {}): OAuthStore {
  let state: OAuthStoreState = structuredClone(initial);
  return {
    location: "memory",
    async load() {
      return structuredClone(state);
    },
    async save(next) {
      state = structuredClone(next);
    },
    async clear() {
      state = {};
    },
  };
}
