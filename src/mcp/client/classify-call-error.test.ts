import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { classifyCallError, type FailedCall } from "./classify-call-error.js";
import { McpConnectionError } from "./errors.js";

const call: FailedCall = {
  serverId: "fs",
  name: "fs__write",
  toolName: "write",
  timeoutMs: 500,
  closed: false,
  lost: undefined,
  aborted: false,
  authorized: false,
};

describe("classifyCallError", () => {
  it("a closed connection, a lost one and an abort come first, whatever was thrown", () => {
    const thrown = new SdkError(SdkErrorCode.RequestTimeout, "timed out");
    expect(classifyCallError({ ...call, closed: true }, thrown).error.message).toBe(
      "MCP server fs was closed during the call to write",
    );
    const lost = new McpConnectionError("mcp-server-exited", "fs", "MCP server fs was killed by SIGKILL");
    expect(classifyCallError({ ...call, lost }, thrown).error.message).toBe(
      "MCP server fs was killed by SIGKILL, during the call to write. The tool is still there: calling it again starts a new connection to fs.",
    );
    expect(classifyCallError({ ...call, aborted: true }, thrown).error.code).toBe("aborted");
  });

  it("a timeout says how long it waited; the connection stays", () => {
    const failure = classifyCallError(call, new SdkError(SdkErrorCode.RequestTimeout, "timed out"));
    expect(failure.error.code).toBe("timeout");
    expect(failure.error.message).toContain("did not answer the call to write within 500 ms");
    expect(failure.lost).toBeUndefined();
  });

  it("a JSON-RPC error from the server is a refusal naming its code; the connection stays", () => {
    const failure = classifyCallError(call, new ProtocolError(ProtocolErrorCode.InvalidParams, "Tool write not found"));
    expect(failure.error.message).toBe(
      "MCP server fs refused the call to write: Tool write not found (MCP error -32602)",
    );
    expect(failure.lost).toBeUndefined();
  });

  it("a malformed result is the server's fault; the connection stays", () => {
    const failure = classifyCallError(call, new SdkError(SdkErrorCode.InvalidResult, "content[0] is not a block"));
    expect(failure.error.message).toContain("sent a malformed result for write: content[0] is not a block");
    expect(failure.lost).toBeUndefined();
  });

  it("anything else is a transport that failed: the connection is lost, with the cause in the message", () => {
    const failure = classifyCallError(call, new TypeError("fetch failed", { cause: new Error("other side closed") }));
    expect(failure.lost).toMatchObject({ code: "mcp-server-exited", serverId: "fs" });
    expect(failure.error.message).toBe(
      "MCP server fs could not be reached (fetch failed: other side closed), during the call to write. The tool is still there: calling it again starts a new connection to fs.",
    );
  });
});
