import { describe, expect, it } from "vitest";
import { McpConnectionError } from "./errors.js";
import { checkMcpServerConfig, compileToolNameFilter, type McpServerConfig } from "./mcp-config.js";

function configError(config: unknown, options = {}): McpConnectionError {
  try {
    checkMcpServerConfig(config as McpServerConfig, options);
  } catch (error) {
    expect(error).toBeInstanceOf(McpConnectionError);
    expect((error as McpConnectionError).code).toBe("invalid-mcp-config");
    return error as McpConnectionError;
  }
  throw new Error("expected an invalid-mcp-config error");
}

describe("checkMcpServerConfig", () => {
  it("accepts a stdio config and an http config as they are", () => {
    const stdio = { id: "fs", command: "node", args: ["server.js"], env: { PATH: "/bin" }, cwd: "/tmp" };
    const http = { id: "web", url: "http://127.0.0.1:3000/mcp", headers: { authorization: "Bearer x" } };
    expect(checkMcpServerConfig(stdio)).toBe(stdio);
    expect(checkMcpServerConfig(http)).toBe(http);
  });

  it("names the bad field", () => {
    expect(configError(null).message).toBe("An MCP server config needs a non-empty string id, got undefined");
    expect(configError({ id: "a" }).message).toBe(
      "MCP server a needs exactly one of command (stdio) or url (Streamable HTTP)",
    );
    expect(configError({ id: "a", command: "" }).message).toBe("MCP server a: command must be a non-empty string");
    expect(configError({ id: "a", command: "x", args: "y" }).message).toBe(
      "MCP server a: args must be an array of strings",
    );
    expect(configError({ id: "a", command: "x", env: { N: 1 } }).message).toBe(
      "MCP server a: env must map names to strings",
    );
    expect(configError({ id: "a", url: "not a url" }).message).toBe('MCP server a: url "not a url" is not a URL');
    expect(configError({ id: "a", url: "file:///etc/passwd" }).message).toBe(
      "MCP server a: url must be http: or https:, got file:",
    );
    expect(configError({ id: "a", command: "x" }, { include: "echo" }).message).toBe(
      "MCP server a: include must be an array of strings",
    );
    expect(configError({ id: "a", command: "x" }, { connectTimeoutMs: 0 }).message).toBe(
      "MCP server a: connectTimeoutMs must be a positive number, got 0",
    );
    expect(configError({ id: "a", command: "x" }, { timeoutMs: 2 ** 31 }).message).toBe(
      "MCP server a: timeoutMs must be at most 2147483647 ms, got 2147483648",
    );
    expect(() => checkMcpServerConfig({ id: "a", command: "x" }, { timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });

  it("carries the server id on the error", () => {
    expect(configError({ id: "srv", command: 3 }).serverId).toBe("srv");
  });
});

describe("compileToolNameFilter", () => {
  it("keeps everything without filters", () => {
    expect(compileToolNameFilter(undefined, undefined)("anything")).toBe(true);
  });

  it("matches exact names and * globs, ignoring case, and lets exclude win", () => {
    const keep = compileToolNameFilter(["get-*", "Echo"], ["get-env"]);
    expect(["echo", "get-sum", "GET-TINY-IMAGE", "get-env", "toggle-x"].filter(keep)).toEqual([
      "echo",
      "get-sum",
      "GET-TINY-IMAGE",
    ]);
  });

  it("treats regular-expression characters in patterns literally", () => {
    const keep = compileToolNameFilter(["read.file"], []);
    expect(keep("read.file")).toBe(true);
    expect(keep("readXfile")).toBe(false);
  });

  it("keeps nothing with an empty include list", () => {
    expect(compileToolNameFilter([], undefined)("echo")).toBe(false);
  });
});
