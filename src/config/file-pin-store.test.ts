// toolwire.pins.json: deterministic and sorted, read back as written, merged with another writer's pins, and refused
// with a clear config error when it is not a pins file.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIFO_RUNS, makeFifo } from "../../test/support/fifo.js";
import { pinToolDefinition } from "../core/register/fingerprint-tool-definition.js";
import { openFilePinStore, PINS_FILE_NAME } from "./file-pin-store.js";

let folder: string;
let file: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "toolwire-pins-file-"));
  file = join(folder, PINS_FILE_NAME);
});
afterEach(() => rm(folder, { recursive: true, force: true }));

const ping = pinToolDefinition({
  name: "ping",
  description: "Answers pong.",
  inputSchema: { type: "object", properties: { b: { type: "string" }, a: { type: "number" } } },
});
const echo = pinToolDefinition({ name: "echo", inputSchema: { type: "object" } });

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

describe("openFilePinStore", () => {
  it("writes servers, tools and keys sorted, and a store opened later reads the same pins", async () => {
    const store = openFilePinStore(file);
    expect(store.entries()).toEqual([]);
    store.set([{ serverId: "zeta", toolName: "ping", pin: ping }]);
    store.set([
      { serverId: "alpha", toolName: "ping", pin: ping },
      { serverId: "alpha", toolName: "echo", pin: echo },
    ]);
    const text = await readFile(file, "utf8");
    expect(text).toBe(
      `${JSON.stringify(
        {
          version: 1,
          servers: {
            alpha: {
              echo: { definition: { inputSchema: { type: "object" }, name: "echo" }, fingerprint: echo.fingerprint },
              ping: {
                definition: {
                  description: "Answers pong.",
                  inputSchema: { properties: { a: { type: "number" }, b: { type: "string" } }, type: "object" },
                  name: "ping",
                },
                fingerprint: ping.fingerprint,
              },
            },
            zeta: {
              ping: {
                definition: {
                  description: "Answers pong.",
                  inputSchema: { properties: { a: { type: "number" }, b: { type: "string" } }, type: "object" },
                  name: "ping",
                },
                fingerprint: ping.fingerprint,
              },
            },
          },
        },
        null,
        2,
      )}\n`,
    );
    const again = openFilePinStore(file);
    expect(again.get("alpha", "ping")).toEqual(ping);
    expect(again.entries().map((entry) => `${entry.serverId}/${entry.toolName}`)).toEqual([
      "alpha/echo",
      "alpha/ping",
      "zeta/ping",
    ]);
  });

  it("keeps the pins another store wrote to the file since it was opened", () => {
    const first = openFilePinStore(file);
    const second = openFilePinStore(file);
    second.set([{ serverId: "srv", toolName: "echo", pin: echo }]);
    first.set([{ serverId: "srv", toolName: "ping", pin: ping }]);
    expect(
      openFilePinStore(file)
        .entries()
        .map((entry) => entry.toolName),
    ).toEqual(["echo", "ping"]);
    expect(first.get("srv", "echo")).toEqual(echo);
  });

  it('keeps a tool named "__proto__" as a tool like any other', () => {
    const odd = pinToolDefinition({ name: "__proto__", inputSchema: { type: "object" } });
    openFilePinStore(file).set([{ serverId: "srv", toolName: "__proto__", pin: odd }]);
    expect(openFilePinStore(file).get("srv", "__proto__")).toEqual(odd);
  });

  it("refuses a file that is not JSON, with invalid-pins-file naming the file", async () => {
    await writeFile(file, '{"version": 1, "servers": {');
    const error = thrown(() => openFilePinStore(file));
    expect(error).toMatchObject({ name: "ConfigError", code: "invalid-pins-file", file });
    expect((error as Error).message).toContain(`Invalid pins file ${file}:\n- (root): not JSON`);
  });

  it("refuses a pins file of the wrong shape, naming each bad path", async () => {
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        servers: {
          srv: {
            ping: { fingerprint: ping.fingerprint, definition: { ...ping.definition, name: "pong", extra: 1 } },
            echo: "sha256:00",
          },
        },
      }),
    );
    const error = thrown(() => openFilePinStore(file)) as { issues: unknown };
    expect(error.issues).toEqual([
      { path: "servers.srv.ping.definition.extra", message: "is not a pinned part" },
      { path: "servers.srv.ping.definition.name", message: 'expected the tool\'s name, "ping"' },
      { path: "servers.srv.echo", message: 'expected { "fingerprint": "sha256:...", "definition": { ... } }' },
    ]);
  });

  it("refuses a definition edited without its fingerprint", async () => {
    const edited = { ...ping.definition, description: "Answers pong. Also reads secrets." };
    await writeFile(
      file,
      JSON.stringify({ version: 1, servers: { srv: { ping: { fingerprint: ping.fingerprint, definition: edited } } } }),
    );
    expect(thrown(() => openFilePinStore(file))).toMatchObject({
      code: "invalid-pins-file",
      issues: [
        { path: "servers.srv.ping.fingerprint", message: expect.stringContaining("does not match the definition") },
      ],
    });
  });

  it.skipIf(!FIFO_RUNS)("refuses a FIFO without waiting for a writer", () => {
    makeFifo(file);
    expect(thrown(() => openFilePinStore(file))).toMatchObject({
      code: "invalid-pins-file",
      issues: [{ path: "(root)", message: "it is not a regular file" }],
    });
  });

  it("fails a pin it cannot write with pins-write-failed, leaving no temporary file", async () => {
    const store = openFilePinStore(join(folder, "missing", PINS_FILE_NAME));
    expect(thrown(() => store.set([{ serverId: "srv", toolName: "ping", pin: ping }]))).toMatchObject({
      name: "ToolPinError",
      code: "pins-write-failed",
      message: expect.stringContaining("Cannot write pins file"),
    });
    expect(store.get("srv", "ping")).toBeUndefined();
  });
});
