// W3C trace context: what a remote `traceparent` may be, and that what toolwire writes reads back the same.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readTraceparent, readTracestate, writeTraceContext } from "./trace-context.js";

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length });

describe("readTraceparent", () => {
  it("reads a valid version-00 header", () => {
    expect(readTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
      isRemote: true,
    });
  });

  it("refuses all-zero ids, version ff, upper case, extra fields on version 00 and other shapes", () => {
    for (const bad of [
      `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
      `00-4bf92f3577b34da6a3ce929d0e0e4736-${"0".repeat(16)}-01`,
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
      "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
      "",
      "junk",
    ]) {
      expect(readTraceparent(bad), bad).toBeUndefined();
    }
  });

  it("keeps the four fields of a later version and drops what follows", () => {
    expect(readTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later")?.spanId).toBe(
      "00f067aa0ba902b7",
    );
  });

  it("never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const read = readTraceparent(value);
        expect(read === undefined || /^[0-9a-f]{32}$/.test(read.traceId)).toBe(true);
      }),
    );
  });

  it("reads back exactly what writeTraceContext wrote", () => {
    fc.assert(
      fc.property(hex(32), hex(16), fc.integer({ min: 0, max: 255 }), (traceId, spanId, traceFlags) => {
        fc.pre(!/^0+$/.test(traceId) && !/^0+$/.test(spanId));
        const written = writeTraceContext({ traceId, spanId, traceFlags }, undefined);
        expect(written).toEqual({ traceparent: expect.any(String) });
        expect(readTraceparent(written.traceparent)).toEqual({ traceId, spanId, traceFlags, isRemote: true });
      }),
    );
  });
});

describe("readTracestate", () => {
  it("carries on a tracestate, not an empty, overlong or non-string one", () => {
    expect(readTracestate("rojo=00f067aa0ba902b7")).toBe("rojo=00f067aa0ba902b7");
    expect(readTracestate("")).toBeUndefined();
    expect(readTracestate("x".repeat(9000))).toBeUndefined();
    expect(readTracestate(42)).toBeUndefined();
  });
});
