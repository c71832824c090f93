import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildMcpParamHeaders,
  decodeMcpHeaderValue,
  encodeMcpHeaderValue,
  scanMcpParamHeaders,
} from "./mcp-param-headers.js";

const schema = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("scanMcpParamHeaders", () => {
  it("collects declarations reached through properties, nested ones included", () => {
    const scan = scanMcpParamHeaders(
      schema({
        region: { type: "string", "x-mcp-header": "Region" },
        options: schema({ dryRun: { type: "boolean", "x-mcp-header": "Dry-Run" } }),
        plain: { type: "string" },
      }),
    );
    expect(scan).toEqual({
      kind: "valid",
      headers: [
        { path: ["region"], name: "Region", type: "string" },
        { path: ["options", "dryRun"], name: "Dry-Run", type: "boolean" },
      ],
    });
  });

  it.each([
    ["a number property", schema({ size: { type: "number", "x-mcp-header": "Size" } }), /size.*number/],
    ["an object property", schema({ o: { type: "object", "x-mcp-header": "O" } }), /string, integer or boolean/],
    ["an empty name", schema({ a: { type: "string", "x-mcp-header": "" } }), /not a valid header name/],
    ["a name with a space", schema({ a: { type: "string", "x-mcp-header": "A B" } }), /not a valid header name/],
    ["a name with CR LF", schema({ a: { type: "string", "x-mcp-header": "A\r\nB" } }), /not a valid header name/],
    [
      "two names equal but for case",
      schema({ a: { type: "string", "x-mcp-header": "Id" }, b: { type: "string", "x-mcp-header": "ID" } }),
      /repeats "Id"/,
    ],
    ["the root", { type: "object", "x-mcp-header": "Root" }, /properties/],
    [
      "a property under items",
      schema({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      /properties/,
    ],
    [
      "a property under anyOf",
      { type: "object", anyOf: [schema({ a: { type: "string", "x-mcp-header": "A" } })] },
      /properties/,
    ],
    [
      "a property under $defs",
      { type: "object", $defs: { d: schema({ a: { type: "string", "x-mcp-header": "A" } }) } },
      /properties/,
    ],
  ])("finds the declarations invalid on %s", (_what, inputSchema, reason) => {
    const scan = scanMcpParamHeaders(inputSchema);
    expect(scan.kind).toBe("invalid");
    expect(scan.kind === "invalid" ? scan.reason : "").toMatch(reason);
  });
});

describe("buildMcpParamHeaders", () => {
  it("sends values present in the arguments, converted by type, and leaves out null and absent ones", () => {
    const scan = scanMcpParamHeaders(
      schema({
        region: { type: "string", "x-mcp-header": "Region" },
        count: { type: "integer", "x-mcp-header": "Count" },
        on: { type: "boolean", "x-mcp-header": "On" },
        gone: { type: "string", "x-mcp-header": "Gone" },
        nothing: { type: "string", "x-mcp-header": "Nothing" },
      }),
    );
    if (scan.kind !== "valid") throw new Error(scan.reason);
    expect(buildMcpParamHeaders(scan.headers, { region: "eu", count: -7, on: false, nothing: null })).toEqual({
      "Mcp-Param-Region": "eu",
      "Mcp-Param-Count": "-7",
      "Mcp-Param-On": "false",
    });
  });
});

describe("header values", () => {
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("encodes %j as the spec's example %j", (value, encoded) => {
    expect(encodeMcpHeaderValue(value)).toBe(encoded);
  });

  it("decodes what it encodes, for any text, and every encoding is a valid header value", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const encoded = encodeMcpHeaderValue(text);
        expect(encoded).toMatch(/^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/);
        expect(decodeMcpHeaderValue(encoded)).toBe(text);
      }),
    );
  });

  it("refuses a sentinel holding something other than canonical Base64 of UTF-8", () => {
    expect(decodeMcpHeaderValue("=?base64?e!u?=")).toBeUndefined();
    expect(decodeMcpHeaderValue("=?base64?/w==?=")).toBeUndefined(); // 0xff: not UTF-8
  });
});
