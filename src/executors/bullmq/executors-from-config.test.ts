import { describe, expect, it } from "vitest";
import { defineTool } from "../../core/register/define-tool.js";
import { ExecutorError } from "../executor-error.js";
import { createConfiguredExecutors, workerOptionsFor } from "./executors-from-config.js";

const entry = {
  id: "fleet",
  kind: "bullmq" as const,
  connection: "redis://127.0.0.1:6390",
  tools: ["bash", "plugin:p"],
};
const tool = (name: string, pluginId?: string) =>
  defineTool({
    name,
    description: name,
    inputSchema: { type: "object" },
    execute: () => name,
    ...(pluginId === undefined ? {} : { owner: { kind: "plugin", pluginId } }),
  });

describe("executors from the config", () => {
  it("gives a worker only the tools its executor's patterns match", () => {
    const options = workerOptionsFor([entry], "fleet", [tool("bash"), tool("read"), tool("p_tool", "p")]);
    expect(options.tools.map((t) => t.descriptor.name)).toEqual(["bash", "p_tool"]);
    expect(options.connection).toBe("redis://127.0.0.1:6390");
  });

  it("refuses an executor id the config does not have, naming the ones it has", () => {
    const error = (() => {
      try {
        workerOptionsFor([entry], "fleat", []);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ExecutorError);
    expect(error).toMatchObject({ code: "unknown-executor", message: expect.stringContaining("its executors: fleet") });
  });

  it("reads an env:NAME connection from the environment, and refuses it when unset", () => {
    const fromEnv = { ...entry, connection: "env:FLEET_REDIS" };
    expect(workerOptionsFor([fromEnv], "fleet", [], { FLEET_REDIS: "redis://10.0.0.5:6379" }).connection).toBe(
      "redis://10.0.0.5:6379",
    );
    expect(() => createConfiguredExecutors([fromEnv], {})).toThrow(/FLEET_REDIS is not set/);
  });

  it("shows where an executor runs without the password of its address", () => {
    const made = createConfiguredExecutors([{ ...entry, connection: "redis://u:secret@127.0.0.1:6390/2" }], {});
    expect(made.executors[0]?.where).toBe("bullmq redis://127.0.0.1:6390/2 queue toolwire-fleet");
    expect(made.routes[0]?.tools).toEqual(["bash", "plugin:p"]);
  });

  it("refuses a connection that is not a Redis address", () => {
    expect(() => createConfiguredExecutors([{ ...entry, connection: "http://127.0.0.1:6390" }], {})).toThrow(
      expect.objectContaining({ code: "invalid-executor" }),
    );
  });
});
