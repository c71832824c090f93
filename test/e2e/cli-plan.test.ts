// toolwire plan and explain over a real toolwire.config.json (layers, plugin modules, availability), and bad configs.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectSandbox } from "../../src/sandbox/detect-sandbox.js";
import { BUILTIN_NAMES, CLI, cliEnv, hasAnsi, runCli, tempWorkspace } from "./helpers/cli.js";

const sandboxHere = (await detectSandbox()).usable || process.env.CI === "true";

/** Three policy layers, a plugin with an availability-gated tool, a disabled plugin and one that throws on load. */
const PROJECT = {
  "toolwire.config.json": JSON.stringify(
    {
      policy: [
        { label: "global", deny: ["group:runtime"] },
        { label: "team", allow: ["group:fs", "group:plugins"] },
        { label: "agent", deny: ["write", "edit"] },
      ],
      plugins: [
        { module: "./plugins/ops.mjs" },
        { id: "clock", module: "./plugins/clock.mjs", enabled: false },
        { module: "./plugins/broken.mjs" },
      ],
      availability: { env: ["OPS_TOKEN"] },
    },
    null,
    2,
  ),
  "plugins/ops.mjs": `export default {
  id: "ops",
  tools: (ctx) => [
    ctx.defineTool({
      name: "ops_deploy",
      description: "Deploy the service.",
      inputSchema: { type: "object", properties: {} },
      availability: { kind: "env", name: "OPS_TOKEN" },
      execute: () => "deployed",
    }),
    ctx.defineTool({
      name: "ops_status",
      description: "The service's status.",
      inputSchema: { type: "object", properties: {} },
      execute: () => "all green",
    }),
  ],
};
`,
  "plugins/clock.mjs": `export default {
  id: "clock",
  tools: (ctx) => [ctx.defineTool({ name: "clock_now", description: "The time.", inputSchema: { type: "object" }, execute: () => "noon" })],
};
`,
  "plugins/broken.mjs": `throw new Error("broken on purpose");\n`,
};

const VISIBLE = ["find", "grep", "ls", "ops_status", "read"];

let project: { path: string; remove(): Promise<void> };
let empty: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  [project, empty] = await Promise.all([tempWorkspace(PROJECT), tempWorkspace()]);
});
afterAll(() => Promise.all([project.remove(), empty.remove()]));

const inProject = (args: string[], env?: Record<string, string>) =>
  runCli(args, { cwd: project.path, env: cliEnv(env) });

describe.concurrent("toolwire plan", { timeout: 60_000 }, () => {
  it("prints visible tools, hidden ones with reasons, removed ones with layer and pattern, and problems", async () => {
    const { code, stdout, stderr } = await inProject(["plan"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`config: ${project.path}/toolwire.config.json   workspace: ${project.path}`);
    expect(stdout).toMatch(/Visible \(5\)\nTOOL +OWNER +FLOW +DESCRIPTION\n/);
    expect(stdout).toMatch(/^ops_status +plugin:ops +external, guarded +The service's status\.$/m);
    expect(stdout).toMatch(/^read +core +none +Read a file in the workspace/m);
    expect(stdout).toContain("flow rules: off (the taint is tracked; set flow in the config to turn them on)");
    expect(stdout).toMatch(/Hidden by availability \(2\)\nTOOL +REASON +WHY\n/);
    expect(stdout).toMatch(/^clock_now +plugin-disabled +Plugin is not enabled: clock$/m);
    expect(stdout).toMatch(/^ops_deploy +env-missing +Missing environment value: OPS_TOKEN$/m);
    expect(stdout).toMatch(/Removed \(3\)\nTOOL +SOURCE +WHY\n/);
    expect(stdout).toMatch(/^bash +builtin +policy layer "global": denied by "group:runtime"$/m);
    expect(stdout).toMatch(/^write +builtin +policy layer "agent": denied by "write"$/m);
    expect(stdout).toMatch(/^edit +builtin +policy layer "agent": denied by "edit"$/m);
    expect(stdout).toMatch(/Problems \(1\)\nAREA +WHAT +WHY\n/);
    expect(stdout).toMatch(
      /^plugin +\.\/plugins\/broken\.mjs +Cannot load plugin module \.\/plugins\/broken\.mjs: broken on purpose$/m,
    );
    expect(hasAnsi(stdout)).toBe(false); // piped, no FORCE_COLOR: plain text
  });

  it("--json carries the same facts as data", async () => {
    const { code, stdout } = await inProject(["plan", "--json"]);
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.config).toBe(`${project.path}/toolwire.config.json`);
    expect(plan.workspace).toBe(project.path);
    expect(plan.visible.map((tool: { name: string }) => tool.name)).toEqual(VISIBLE);
    expect(plan.visible.find((tool: { name: string }) => tool.name === "ops_status")).toEqual({
      name: "ops_status",
      owner: { kind: "plugin", pluginId: "ops" },
      description: "The service's status.",
      flow: { trust: "trusted", effects: "external", guarded: true },
    });
    expect(plan.flow).toEqual({ enabled: false, whenTainted: "approve" });
    expect(plan.hidden).toEqual([
      {
        name: "clock_now",
        diagnostics: [
          {
            reason: "plugin-disabled",
            signal: { kind: "plugin-enabled", pluginId: "clock" },
            message: "Plugin is not enabled: clock",
          },
        ],
      },
      {
        name: "ops_deploy",
        diagnostics: [
          {
            reason: "env-missing",
            signal: { kind: "env", name: "OPS_TOKEN" },
            message: "Missing environment value: OPS_TOKEN",
          },
        ],
      },
    ]);
    expect(plan.excluded).toEqual([
      { name: "bash", source: "builtin", reason: "policy", layer: "global", pattern: "group:runtime" },
      { name: "write", source: "builtin", reason: "policy", layer: "agent", pattern: "write" },
      { name: "edit", source: "builtin", reason: "policy", layer: "agent", pattern: "edit" },
    ]);
    expect(plan.problems).toEqual([
      {
        area: "plugin",
        subject: "./plugins/broken.mjs",
        message: "Cannot load plugin module ./plugins/broken.mjs: broken on purpose",
      },
    ]);
    expect(plan.unknownPatterns).toEqual([]);
  });

  it("shows an availability-gated tool once the environment has its value", async () => {
    const { stdout } = await inProject(["plan", "--json"], { OPS_TOKEN: "secret" });
    const plan = JSON.parse(stdout);
    expect(plan.visible.map((tool: { name: string }) => tool.name)).toContain("ops_deploy");
    expect(plan.hidden.map((entry: { name: string }) => entry.name)).toEqual(["clock_now"]);
  });

  it("colours the tables with FORCE_COLOR=1, and not with --no-color or NO_COLOR", { timeout: 120_000 }, async () => {
    const [forced, flag, noColor] = await Promise.all([
      inProject(["plan"], { FORCE_COLOR: "1" }),
      inProject(["plan", "--no-color"], { FORCE_COLOR: "1" }),
      inProject(["plan"], { FORCE_COLOR: "1", NO_COLOR: "1" }),
    ]);
    expect(forced.stdout).toContain("\u001b[1mTOOL");
    expect(forced.stdout).toContain("\u001b[32mops_status\u001b[39m");
    expect(forced.stdout).toContain("\u001b[33mclock_now\u001b[39m");
    expect(forced.stdout).toContain("\u001b[31mbash\u001b[39m");
    // the columns still line up: padding is counted without the escape codes
    expect(forced.stdout).toContain(
      "\u001b[32mops_status\u001b[39m  plugin:ops  external, guarded  The service's status.",
    );
    expect(hasAnsi(flag.stdout)).toBe(false);
    expect(hasAnsi(noColor.stdout)).toBe(false);
  });

  it("without a config uses the defaults: every built-in on, the current folder as the workspace", async () => {
    const text = await runCli(["plan"], { cwd: empty.path });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`config: none (defaults: built-ins on)   workspace: ${empty.path}`);
    expect(text.stdout).toContain("Visible (7)");
    expect(text.stdout).not.toContain("Hidden");
    expect(text.stdout).not.toContain("Removed");
    const json = JSON.parse((await runCli(["plan", "--json"], { cwd: empty.path })).stdout);
    expect(json.config).toBeNull();
    expect(json.workspace).toBe(empty.path);
    expect(json.visible.map((tool: { name: string }) => tool.name).sort()).toEqual(BUILTIN_NAMES);
    expect(json.hidden).toEqual([]);
    expect(json.excluded).toEqual([]);
  });

  it("--config names a config elsewhere; its folder is the workspace", async () => {
    const { code, stdout } = await runCli(["--config", `${project.path}/toolwire.config.json`, "plan", "--json"], {
      cwd: empty.path,
    });
    expect(code).toBe(0);
    const plan = JSON.parse(stdout);
    expect(plan.workspace).toBe(project.path);
    expect(plan.visible.map((tool: { name: string }) => tool.name)).toEqual(VISIBLE);
  });

  it("stops quietly, exit 0, when the reader of the pipe goes away early", async () => {
    const child = spawn(process.execPath, [CLI, "plan"], { cwd: project.path, env: cliEnv() });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.destroy(); // the reader is gone before the first line is written: every write fails with EPIPE
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});

describe.concurrent("toolwire plan: the other gates", { timeout: 60_000 }, () => {
  let gated: { path: string; remove(): Promise<void> };
  beforeAll(async () => {
    gated = await tempWorkspace({
      "allow/toolwire.config.json": JSON.stringify({
        allowedTools: ["read", "ls", "grep"],
        policy: [{ label: "p", deny: ["nosuch_*", "grep"] }],
        plugins: [{ module: "./myread.mjs" }],
      }),
      "allow/myread.mjs": `export default { id: "myread", tools: (ctx) => [
  ctx.defineTool({ name: "read", description: "My read.", inputSchema: { type: "object" }, execute: () => "mine" }),
  ctx.defineTool({ name: "other", description: "Other.", inputSchema: { type: "object" }, execute: () => "o" }),
] };
`,
      "off/toolwire.config.json": JSON.stringify({ builtins: { enabled: false } }),
    });
  });
  afterAll(() => gated.remove());

  it("allowedTools, an override of a built-in, and a policy pattern that matches nothing", async () => {
    const { code, stdout } = await runCli(["plan"], { cwd: `${gated.path}/allow` });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /Visible \(2\)\n.*\nls +core +none +.*\nread +plugin:myread +external, guarded +My read\.\n/,
    );
    expect(stdout).toMatch(/^other +extension +not in allowedTools$/m);
    expect(stdout).toMatch(/^find +builtin +not in allowedTools$/m);
    expect(stdout).toMatch(/^grep +builtin +policy layer "p": denied by "grep"$/m);
    expect(stdout).toContain("Overrides\nread: the extension tool replaces the builtin tool\n");
    expect(stdout).toContain('Policy patterns that match no tool\nlayer "p": nosuch_*\n');
    // and the plugin's read is the one a call reaches
    const called = await runCli(["call", "read"], { cwd: `${gated.path}/allow` });
    expect(called.stdout).toBe("mine\n");
  });

  it("builtins disabled: every built-in removed, and no visible tools said in words", async () => {
    const { code, stdout } = await runCli(["plan"], { cwd: `${gated.path}/off` });
    expect(code).toBe(0);
    expect(stdout).toContain("Visible (0)\nnone: the model gets no tools\n");
    expect(stdout).toContain("Removed (7)");
    expect(stdout).toMatch(/^bash +builtin +built-in tools are disabled$/m);
  });
});

describe("toolwire plan: OpenAI strict mode", { timeout: 60_000 }, () => {
  it("names the tools strict mode sends without strict, and why", async () => {
    const workspace = await tempWorkspace({
      "toolwire.config.json": JSON.stringify({ plugins: [{ module: "./kv.mjs" }] }),
      "kv.mjs": `export default {
  id: "kv",
  tools: (ctx) => [
    ctx.defineTool({
      name: "kv_set",
      description: "Set keys.",
      inputSchema: { type: "object", properties: { pairs: { type: "object", additionalProperties: { type: "string" } } } },
      execute: () => "ok",
    }),
    ctx.defineTool({
      name: "kv_get",
      description: "Get a key.",
      inputSchema: { type: "object", properties: { key: { type: "string", default: "a" } } },
      execute: () => "ok",
    }),
  ],
};
`,
    });
    try {
      const { code, stdout } = await runCli(["plan"], { cwd: workspace.path });
      expect(code).toBe(0);
      expect(stdout).toMatch(/Not strict for OpenAI \(1\): with strict on, these go without it\nTOOL +WHY\n/);
      expect(stdout).toMatch(
        /^kv_set +#\/properties\/pairs: takes keys of its choosing \(additionalProperties is a schema\)$/m,
      );
      const json = await runCli(["plan", "--json"], { cwd: workspace.path });
      expect(JSON.parse(json.stdout).openaiNonStrict).toEqual([
        {
          name: "kv_set",
          reasons: ["#/properties/pairs: takes keys of its choosing (additionalProperties is a schema)"],
        },
      ]);
    } finally {
      await workspace.remove();
    }
  });
});

describe.concurrent("invalid configs exit 3 and say where", { timeout: 60_000 }, () => {
  let bad: { path: string; remove(): Promise<void> };
  beforeAll(async () => {
    bad = await tempWorkspace({
      "json/toolwire.config.json": '{\n  "policy": [\n    { "label": "a", "deny": ["bash"], }\n  ]\n}\n',
      "typo/toolwire.config.json": '{\n  "policy": [\n    { "label": "a", "alow": ["read"] }\n  ]\n}\n',
      "env/toolwire.config.json": JSON.stringify({
        builtins: { env: { pass: ["GITHUB_*", "no spaces"], set: { "1X": "v" } } },
      }),
    });
  });
  afterAll(() => bad.remove());

  it("bad JSON: the file, the line and the column", async () => {
    const { code, stdout, stderr } = await runCli(["plan"], { cwd: `${bad.path}/json` });
    expect(code).toBe(3);
    expect(stdout).toBe("");
    expect(stderr.trim()).toBe(
      `toolwire: Invalid JSON in ${bad.path}/json/toolwire.config.json at line 3, column 37: trailing comma: remove the "," before "}"`,
    );
  });

  it("a typo'd key: its path and the key it probably meant, said once", async () => {
    const { code, stderr } = await runCli(["explain", "read"], { cwd: `${bad.path}/typo` });
    expect(code).toBe(3);
    expect(stderr).toContain(`Invalid config ${bad.path}/typo/toolwire.config.json`);
    const issue = 'policy[0].alow: unknown property (did you mean "allow"?); expected one of: label, allow, deny';
    expect(stderr.split(issue)).toHaveLength(2);
  });

  it("builtins.env: a bad glob and a bad variable name, each at its path", async () => {
    const { code, stderr } = await runCli(["plan"], { cwd: `${bad.path}/env` });
    expect(code).toBe(3);
    expect(stderr).toContain(
      '- builtins.env.pass[1]: must be a variable name or glob (letters, digits, _ and *, 1 to 128 characters), got the string "no spaces"',
    );
    expect(stderr).toContain(
      '- builtins.env.set["1X"]: the name must be an environment variable name (letters, digits and _, not starting with a digit)',
    );
  });

  it("--config naming a missing file", async () => {
    const { code, stderr } = await runCli(["--config", "missing.json", "plan"], { cwd: empty.path });
    expect(code).toBe(3);
    expect(stderr.trim()).toBe(`toolwire: Cannot read config ${empty.path}/missing.json: no such file`);
  });
});

describe.concurrent("toolwire explain <tool>", { timeout: 60_000 }, () => {
  it("a visible tool: exit 0 and who owns it", async () => {
    const { code, stdout } = await inProject(["explain", "ops_status"]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(
      "ops_status is available: extension tool owned by plugin ops, executor plugin:ops:ops_status.\n" +
        "ops_status is trusted: its results do not taint the session; its effects are external, so flow rules would guard it, but they are off (set flow to turn them on).",
    );
  });

  it.each([
    ["bash", 'bash (built-in) is removed by policy layer "global": deny pattern "group:runtime".'],
    ["write", 'write (built-in) is removed by policy layer "agent": deny pattern "write".'],
    ["ops_deploy", "Missing environment value: OPS_TOKEN (env-missing)"],
    ["clock_now", "Plugin is not enabled: clock (plugin-disabled)"],
    ["nope", 'No tool named "nope" is registered.\nAvailable tools: find, grep, ls, ops_status, read.'],
  ])("%s: exit 1 and why", async (tool, why) => {
    const { code, stdout } = await inProject(["explain", tool]);
    expect(code).toBe(1);
    expect(stdout).toContain(why);
  });

  it("--json: available, status, the sentence and the facts behind it", async () => {
    const visible = await inProject(["explain", "read", "--json"]);
    expect(visible.code).toBe(0);
    expect(JSON.parse(visible.stdout)).toEqual({
      schemaVersion: 1,
      tool: "read",
      available: true,
      status: "visible",
      explanation:
        "read is available: built-in tool owned by core, executor core:read.\n" +
        "read is trusted: its results do not taint the session; its effects are none, so flow rules never stop it.",
      flow: { trust: "trusted", effects: "none", guarded: false },
      owner: { kind: "core" },
    });
    const removed = await inProject(["--json", "explain", "bash"]);
    expect(removed.code).toBe(1);
    expect(JSON.parse(removed.stdout)).toEqual({
      schemaVersion: 1,
      tool: "bash",
      available: false,
      status: "removed",
      explanation: 'bash (built-in) is removed by policy layer "global": deny pattern "group:runtime".',
      removed: [{ name: "bash", source: "builtin", reason: "policy", layer: "global", pattern: "group:runtime" }],
    });
    const hidden = JSON.parse((await inProject(["explain", "ops_deploy", "--json"])).stdout);
    expect(hidden).toMatchObject({ tool: "ops_deploy", available: false, status: "hidden" });
    expect(hidden.diagnostics).toEqual([
      {
        reason: "env-missing",
        signal: { kind: "env", name: "OPS_TOKEN" },
        message: "Missing environment value: OPS_TOKEN",
      },
    ]);
    const unknown = JSON.parse((await inProject(["explain", "nope", "--json"])).stdout);
    expect(unknown).toMatchObject({ tool: "nope", available: false, status: "unknown" });
  });
});

describe.concurrent("toolwire plan and explain: the sandbox", { timeout: 60_000 }, () => {
  const required = {
    "toolwire.config.json": JSON.stringify({ builtins: { sandbox: { mode: "required" } } }),
  };

  it('hides bash with capability-missing where bubblewrap is not usable and the config says "required"', async () => {
    const ws = await tempWorkspace(required);
    try {
      const env = cliEnv({ TOOLWIRE_BWRAP: "none" });
      const plan = await runCli(["plan"], { cwd: ws.path, env });
      expect(plan.code).toBe(0);
      const why =
        'Missing capability: sandbox: bash runs only in a sandbox (sandbox mode "required"), and bubblewrap cannot start one: bubblewrap is turned off here (TOOLWIRE_BWRAP=none)';
      expect(plan.stdout.split("\n")).toContainEqual(
        expect.stringMatching(/^bash +capability-missing +Missing capability: sandbox: /),
      );
      expect(plan.stdout).toContain(why);
      expect(plan.stdout).toMatch(
        /Sandbox\nFOR +SANDBOX\nbash +required but not usable \(bubblewrap is turned off here \(TOOLWIRE_BWRAP=none\)\): hidden$/m,
      );
      const explain = JSON.parse((await runCli(["explain", "bash", "--json"], { cwd: ws.path, env })).stdout);
      expect(explain).toMatchObject({ tool: "bash", status: "hidden", sandbox: expect.stringContaining("required") });
      expect(explain.diagnostics).toEqual([
        {
          reason: "capability-missing",
          signal: { kind: "capability", name: "sandbox", explanation: expect.stringContaining("TOOLWIRE_BWRAP=none") },
          message: why,
        },
      ]);
    } finally {
      await ws.remove();
    }
  });

  it('says bash runs unsandboxed in mode "auto" where bubblewrap is not usable', async () => {
    const ws = await tempWorkspace();
    try {
      const explain = await runCli(["explain", "bash"], { cwd: ws.path, env: cliEnv({ TOOLWIRE_BWRAP: "none" }) });
      expect(explain.code).toBe(0);
      expect(explain.stdout).toContain(
        "sandbox: none (bubblewrap not usable: bubblewrap is turned off here (TOOLWIRE_BWRAP=none))",
      );
    } finally {
      await ws.remove();
    }
  });

  // CI installs bubblewrap: there it must work.
  it.skipIf(!sandboxHere)("shows the sandbox bash runs in where bubblewrap works", async () => {
    const ws = await tempWorkspace(required);
    try {
      const plan = JSON.parse((await runCli(["plan", "--json"], { cwd: ws.path })).stdout);
      expect(plan.sandbox).toEqual([{ subject: "bash", state: expect.stringMatching(/^bubblewrap, network off, /) }]);
      expect(plan.visible.map((tool: { name: string }) => tool.name)).toContain("bash");
    } finally {
      await ws.remove();
    }
  });
});
