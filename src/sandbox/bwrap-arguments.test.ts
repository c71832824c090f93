import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBwrapArguments } from "./bwrap-arguments.js";
import { resolveSandboxOptions } from "./sandbox-options.js";

describe("buildBwrapArguments", () => {
  let dir: string;
  let root: string;
  let home: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "toolwire-bwrap-args-"));
    root = join(dir, "ws");
    home = join(dir, "home");
    await mkdir(join(root, ".git"), { recursive: true });
    await mkdir(join(home, ".ssh"), { recursive: true });
    await writeFile(join(home, ".netrc"), "x");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const build = (options: object, extra: { proxyDir?: string } = {}) => {
    const sandbox = resolveSandboxOptions(options, { root, homes: [home] });
    if (sandbox === undefined) throw new Error("off");
    return buildBwrapArguments(sandbox, { tmpSizeLimit: true, ...extra });
  };
  const pairs = (args: string[], flag: string) =>
    args.flatMap((arg, index) => (arg === flag ? [`${args[index + 1]}`] : []));

  it("mounts the host read-only, the root writable, .git read-only again, and hides only what exists", () => {
    const args = build({});
    expect(args.slice(0, 3)).toEqual(["--ro-bind", "/", "/"]);
    expect(args.indexOf("--bind")).toBeGreaterThan(args.indexOf("/tmp"));
    expect(pairs(args, "--bind")).toEqual([root]);
    expect(pairs(args, "--ro-bind")).toEqual(["/", "/proc/sys", join(root, ".git"), "/dev/null"]);
    expect(pairs(args, "--remount-ro")).toEqual([join(home, ".ssh")]);
    expect(args).not.toContain(join(home, ".aws"));
    expect(args.at(-1)).toBe("--");
    expect(args).toEqual(
      expect.arrayContaining(["--unshare-pid", "--unshare-net", "--die-with-parent", "--new-session"]),
    );
    expect(args.slice(args.indexOf("--chdir"), args.indexOf("--chdir") + 2)).toEqual(["--chdir", root]);
  });

  it("caps /tmp with --size, keeps the network namespace only for network on, and binds the proxy folder", () => {
    const args = build({ tmpSizeBytes: 2 * 1024 * 1024, network: "on" });
    expect(args.slice(args.indexOf("--size"), args.indexOf("--size") + 4)).toEqual([
      "--size",
      String(2 * 1024 * 1024),
      "--tmpfs",
      "/tmp",
    ]);
    expect(args).not.toContain("--unshare-net");
    const proxied = build({ network: { allowHosts: ["example.com"] } }, { proxyDir: join(dir, "proxy") });
    expect(proxied).toContain("--unshare-net");
    expect(pairs(proxied, "--ro-bind")).toContain(join(dir, "proxy"));
  });

  it("never hides a denied folder that holds the root", () => {
    const args = build({ denyRead: [dir, ".ssh"] });
    expect(pairs(args, "--remount-ro")).toEqual([join(home, ".ssh")]);
  });
});
