// isLegacyRequest answers as the SDK's own classifier does, read from a Node request's headers.
import type { IncomingMessage } from "node:http";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLegacyRequest } from "./is-legacy-request.js";

const CLAIM = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
};

const version = fc.constantFrom(undefined, "2026-07-28", " 2026-07-28", "2025-11-25", "2025-03-26", "1999-01-01");
const method = fc.constantFrom("tools/call", "tools/list", "initialize", "notifications/initialized", "ping");
const meta = fc.constantFrom(
  undefined,
  CLAIM,
  { ...CLAIM, "io.modelcontextprotocol/protocolVersion": "2025-11-25" },
  {},
);
const message = fc.record(
  {
    jsonrpc: fc.constantFrom("2.0", "1.0"),
    id: fc.oneof(fc.integer(), fc.string()),
    method,
    params: fc.option(
      meta.map((m) => (m === undefined ? { name: "noop" } : { name: "noop", _meta: m })),
      { nil: undefined },
    ),
  },
  { requiredKeys: ["method"] },
);
const body = fc.oneof(message, fc.array(message, { maxLength: 2 }), fc.constant({ jsonrpc: "2.0", id: 1, result: {} }));

describe("isLegacyRequest", () => {
  it("takes a POST for 2025-era exactly when the SDK's classifier does", () => {
    fc.assert(
      fc.property(version, fc.option(method, { nil: undefined }), body, (protocolVersion, methodHeader, posted) => {
        const headers: Record<string, string> = {};
        if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
        if (methodHeader !== undefined) headers["mcp-method"] = methodHeader;
        const request = { headers } as IncomingMessage;
        const sdk = classifyInboundRequest({
          httpMethod: "POST",
          protocolVersionHeader: protocolVersion,
          mcpMethodHeader: methodHeader,
          body: posted,
        });
        expect(isLegacyRequest(request, posted)).toBe(sdk.kind === "legacy");
      }),
      { numRuns: 2000 },
    );
  });
});
