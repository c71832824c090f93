// findOutsideCode over real folders and symbolic links: what a config runs from outside its folder, and what it does
// not.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findOutsideCode } from "./find-outside-code.js";
import type { LoadedConfig } from "./load-config.js";
import type { ToolwireConfig } from "./toolwire-config.js";

let top: string;
let repo: string;
beforeEach(async () => {
  top = await realpath(await mkdtemp(join(tmpdir(), "toolwire-outside-")));
  repo = join(top, "repo");
  await mkdir(join(repo, "plugins"), { recursive: true });
  await writeFile(join(top, "evil.mjs"), "export default { id: 'evil' };\n");
  await writeFile(join(repo, "plugins", "good.mjs"), "export default { id: 'good' };\n");
});
afterEach(() => rm(top, { recursive: true, force: true }));

const loaded = (config: ToolwireConfig): LoadedConfig => ({
  config,
  file: join(repo, "toolwire.config.json"),
  dir: repo,
});

describe("findOutsideCode", () => {
  it("lists plugin modules outside the folder: relative, absolute and file: URLs, disabled ones too", () => {
    const found = findOutsideCode(
      loaded({
        plugins: [
          { module: "./plugins/good.mjs" },
          { module: "../evil.mjs" },
          { module: join(top, "evil.mjs"), enabled: false },
          { module: pathToFileURL(join(top, "evil.mjs")).href },
          { module: "some-package" },
          { module: "@scope/plugin" },
        ],
      }),
    );
    expect(found).toEqual([
      { path: "plugins[1].module", file: join(top, "evil.mjs") },
      { path: "plugins[2].module", file: join(top, "evil.mjs") },
      { path: "plugins[3].module", file: join(top, "evil.mjs") },
    ]);
  });

  it("follows symbolic links: a link inside to a file outside is outside, a link outside to a file inside is not", async () => {
    await symlink(join(top, "evil.mjs"), join(repo, "plugins", "link.mjs"));
    await symlink(join(repo, "plugins", "good.mjs"), join(top, "back.mjs"));
    expect(findOutsideCode(loaded({ plugins: [{ module: "./plugins/link.mjs" }, { module: "../back.mjs" }] }))).toEqual(
      [{ path: "plugins[0].module", file: join(top, "evil.mjs") }],
    );
  });

  it("judges an MCP command given as a path, or the script a bare command runs, against where the server starts", () => {
    const found = findOutsideCode(
      loaded({
        mcpServers: [
          { id: "a", command: "node", args: ["./server.mjs"] },
          { id: "b", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/"] },
          { id: "c", command: "node", args: ["--no-warnings", "../tools/server.mjs"], cwd: "." },
          { id: "d", command: "/usr/local/bin/server" },
          { id: "e", command: "./bin/server", cwd: "sub" },
          { id: "f", command: "python3", args: ["-m", "server"] },
          { id: "g", command: "/opt/off", enabled: false },
          { id: "h", url: "http://127.0.0.1:1/mcp" },
          { id: "i", command: "node", args: ["tools/server.mjs"], cwd: ".." },
        ],
      }),
      { cwd: repo },
    );
    expect(found).toEqual([
      { path: "mcpServers[2].args[1]", file: join(top, "tools", "server.mjs") },
      { path: "mcpServers[3].command", file: "/usr/local/bin/server" },
      { path: "mcpServers[8].args[0]", file: join(top, "tools", "server.mjs") },
    ]);
  });

  it("a server without cwd starts in the current folder: a relative script is judged from there", () => {
    const config = loaded({ mcpServers: [{ id: "a", command: "node", args: ["./server.mjs"] }] });
    expect(findOutsideCode(config, { cwd: repo })).toEqual([]);
    expect(findOutsideCode(config, { cwd: top })).toEqual([
      { path: "mcpServers[0].args[0]", file: join(top, "server.mjs") },
    ]);
  });

  it("an empty config runs nothing", () => {
    expect(findOutsideCode(loaded({}))).toEqual([]);
  });
});
