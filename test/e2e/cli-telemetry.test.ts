// A CLI user's telemetry: `"telemetry": true` in the config, an OpenTelemetry SDK registered with `node --import`.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliEnv, runCli, tempWorkspace } from "./helpers/cli.js";

const SETUP = pathToFileURL(join(import.meta.dirname, "helpers", "otel-spans-to-file.mjs")).href;

interface ExportedSpan {
  readonly name: string;
  readonly status: { readonly code: number };
  readonly attributes: Record<string, unknown>;
}

let root: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  root = await tempWorkspace({
    "on/notes.md": "hello\n",
    "on/toolwire.config.json": JSON.stringify({ telemetry: true }),
    "off/notes.md": "hello\n",
    "off/toolwire.config.json": JSON.stringify({}),
    "bad/toolwire.config.json": JSON.stringify({ telemetry: "yes" }),
  });
});
afterAll(() => root.remove());

async function callWithSdk(folder: string, args: string[]): Promise<{ code: number | null; spans: ExportedSpan[] }> {
  const spansFile = join(root.path, `${folder}-spans.jsonl`);
  const env = cliEnv({ NODE_OPTIONS: `--import=${SETUP}`, TOOLWIRE_TEST_SPANS: spansFile });
  const { code } = await runCli(["call", ...args], { cwd: join(root.path, folder), env });
  const text = await readFile(spansFile, "utf8").catch(() => "");
  return {
    code,
    spans: text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ExportedSpan),
  };
}

describe("toolwire with telemetry in its config", { timeout: 60_000 }, () => {
  it("reports each call as a span to the SDK the process registered", async () => {
    const { code, spans } = await callWithSdk("on", ["read", '{"path":"notes.md"}']);
    expect(code).toBe(0);
    expect(spans.map((span) => span.name)).toEqual(["execute_tool read"]);
    expect(spans[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "read",
      "gen_ai.tool.type": "function",
    });
    const failed = await callWithSdk("on", ["read", '{"path":"missing.md"}']);
    expect(failed.code).toBe(1);
    expect(failed.spans.at(-1)?.attributes["error.type"]).toBeDefined();
    expect(failed.spans.at(-1)?.status.code).toBe(2);
  });

  it("reports nothing without it, SDK or not", async () => {
    const { code, spans } = await callWithSdk("off", ["read", '{"path":"notes.md"}']);
    expect(code).toBe(0);
    expect(spans).toEqual([]);
  });

  it("a telemetry value of the wrong shape is a config error, exit 3", async () => {
    const { code, stderr } = await runCli(["plan"], { cwd: join(root.path, "bad") });
    expect(code).toBe(3);
    expect(stderr).toContain("telemetry");
  });
});
