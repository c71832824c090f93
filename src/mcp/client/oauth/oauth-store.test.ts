// The token file store on a temp folder: only the user can read it, one file per server URL, bad files read as empty.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOAuthFileStore, defaultOAuthDir, oauthFileName } from "./oauth-store.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "toolwire-oauth-store-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("createOAuthFileStore", () => {
  it("writes the file with mode 0600 in a folder with mode 0700, even under a permissive umask", async () => {
    const folder = join(dir, "oauth");
    const store = createOAuthFileStore({ serverUrl: "https://mcp.example/mcp", dir: folder });
    const previous = process.umask(0o000);
    try {
      await store.save({ tokens: { access_token: "a", token_type: "Bearer" } });
    } finally {
      process.umask(previous);
    }
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(store.location)).mode & 0o777).toBe(0o600);
    expect(await store.load()).toEqual({
      serverUrl: "https://mcp.example/mcp",
      tokens: { access_token: "a", token_type: "Bearer" },
    });
  });

  it("keeps 0600 when it replaces a file that was readable by others", async () => {
    const store = createOAuthFileStore({ serverUrl: "https://mcp.example/mcp", dir });
    await writeFile(store.location, "{}", { mode: 0o644 });
    await store.save({ redirectUrl: "http://127.0.0.1:1234/callback" });
    expect((await stat(store.location)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual([oauthFileName("https://mcp.example/mcp")]);
  });

  it("keys by server URL: two servers on one host get two files", async () => {
    const first = createOAuthFileStore({ serverUrl: "https://mcp.example/a/mcp", dir });
    const second = createOAuthFileStore({ serverUrl: "https://mcp.example/b/mcp", dir });
    await first.save({ tokens: { access_token: "first", token_type: "Bearer" } });
    await second.save({ tokens: { access_token: "second", token_type: "Bearer" } });
    expect(first.location).not.toBe(second.location);
    expect((await first.load()).tokens?.access_token).toBe("first");
    expect((await second.load()).tokens?.access_token).toBe("second");
    expect(oauthFileName("https://mcp.example/a/mcp")).toMatch(/^mcp\.example-[0-9a-f]{16}\.json$/);
  });

  it("reads a missing file, a file that is not JSON and a JSON list as empty state; clear removes the file", async () => {
    const store = createOAuthFileStore({ serverUrl: "https://mcp.example/mcp", dir });
    expect(await store.load()).toEqual({});
    await writeFile(store.location, "{not json");
    expect(await store.load()).toEqual({});
    await writeFile(store.location, "[1]");
    expect(await store.load()).toEqual({});
    await store.save({});
    await store.clear();
    await expect(readFile(store.location)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("defaultOAuthDir", () => {
  it("prefers TOOLWIRE_OAUTH_DIR, then XDG_CONFIG_HOME, then ~/.config", () => {
    expect(defaultOAuthDir({ TOOLWIRE_OAUTH_DIR: "/x/tokens", XDG_CONFIG_HOME: "/y" })).toBe("/x/tokens");
    expect(defaultOAuthDir({ XDG_CONFIG_HOME: "/y" })).toBe("/y/toolwire/oauth");
    expect(defaultOAuthDir({})).toMatch(/\.config\/toolwire\/oauth$/);
  });
});
