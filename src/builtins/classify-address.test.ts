import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AddressKind, classifyAddress, isSameAddress } from "./classify-address.js";

/** IPv4 ranges that are not public, with the kind each must get (metadata ones tested on their own). */
const PRIVATE_V4: readonly (readonly [number[], number, AddressKind])[] = [
  [[0, 0, 0, 0], 8, "unspecified"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "cgnat"],
  [[127, 0, 0, 0], 8, "loopback"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 168, 0, 0], 16, "private"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved"],
  [[192, 0, 2, 0], 24, "reserved"],
  [[198, 18, 0, 0], 15, "reserved"],
];

/** A random address inside `prefix/bits`, as four bytes. */
function inRange(prefix: number[], bits: number) {
  return fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => {
    const base = prefix.reduce((sum, byte) => sum * 256 + byte, 0);
    const value = base + offset;
    return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
  });
}

const hex = (a: number, b: number) => ((a << 8) | b).toString(16);

/** Every way an IPv6 address can carry these four IPv4 bytes and still mean them. */
function embeddings([a, b, c, d]: number[]): string[] {
  const dotted = `${a}.${b}.${c}.${d}`;
  return [
    `::ffff:${dotted}`,
    `::ffff:${hex(a as number, b as number)}:${hex(c as number, d as number)}`,
    `[::FFFF:${dotted}]`,
    `0:0:0:0:0:ffff:${dotted}`,
    `64:ff9b::${dotted}`,
    `2002:${hex(a as number, b as number)}:${hex(c as number, d as number)}::1`,
  ];
}

describe("classifyAddress", () => {
  it("gives every address of each non-public IPv4 range its kind, in every IPv6 form that carries it", () => {
    for (const [prefix, bits, kind] of PRIVATE_V4) {
      fc.assert(
        fc.property(inRange(prefix, bits), (bytes) => {
          expect(classifyAddress(bytes.join("."))?.kind).toBe(kind);
          for (const form of embeddings(bytes)) {
            const found = classifyAddress(form);
            expect(found?.kind, form).toBe(kind);
            expect(found?.embedded, form).toBe(bytes.join("."));
          }
        }),
        { numRuns: 200 },
      );
    }
  });

  it("never calls an IPv6 address outside 2000::/3 public, nor one in fc00::/7, fe80::/10 or ff00::/8", () => {
    const word = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(fc.array(word, { minLength: 8, maxLength: 8 }), (words) => {
        const address = words.map((w) => w.toString(16)).join(":");
        const kind = classifyAddress(address)?.kind;
        const first = words[0] as number;
        if ((first & 0xe000) !== 0x2000) expect(kind, address).not.toBe("public");
        if ((first & 0xfe00) === 0xfc00) expect(["unique-local", "metadata"], address).toContain(kind);
        if ((first & 0xffc0) === 0xfe80) expect(kind, address).toBe("link-local");
        if ((first & 0xff00) === 0xff00) expect(kind, address).toBe("multicast");
      }),
      { numRuns: 2000 },
    );
  });

  it("names the fixed IPv6 addresses and the metadata services", () => {
    expect(classifyAddress("::")?.kind).toBe("unspecified");
    expect(classifyAddress("::1")?.kind).toBe("loopback");
    expect(classifyAddress("[::1]")?.kind).toBe("loopback");
    expect(classifyAddress("0:0:0:0:0:0:0:1")?.kind).toBe("loopback");
    expect(classifyAddress("fe80::1%eth0")?.kind).toBe("link-local");
    expect(classifyAddress("fd00:ec2::254")?.kind).toBe("metadata");
    expect(classifyAddress("169.254.169.254")?.kind).toBe("metadata");
    expect(classifyAddress("::ffff:169.254.169.254")?.kind).toBe("metadata");
    expect(classifyAddress("169.254.1.1")?.kind).toBe("link-local");
    expect(classifyAddress("2001:db8::1")?.kind).toBe("reserved");
  });

  it("calls ordinary internet addresses public", () => {
    for (const address of ["8.8.8.8", "93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001::200e"]) {
      expect(classifyAddress(address)?.kind, address).toBe("public");
    }
  });

  it("gives undefined for text that is not an IP address", () => {
    for (const text of ["localhost", "example.com", "1.2.3", "256.1.1.1", "::ffff:1.2.3.4.5", "", "[]"]) {
      expect(classifyAddress(text), text).toBeUndefined();
    }
  });
});

describe("isSameAddress", () => {
  it("matches every textual form of one address, and nothing else", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }), (bytes) => {
        const [mapped, hexMapped] = embeddings(bytes) as [string, string];
        expect(isSameAddress(mapped, hexMapped)).toBe(true);
        expect(isSameAddress(`[${mapped.toUpperCase()}]`, hexMapped)).toBe(true);
        expect(isSameAddress(mapped, "::1")).toBe(false);
      }),
    );
    expect(isSameAddress("::1", "0:0:0:0:0:0:0:1")).toBe(true);
    expect(isSameAddress("127.0.0.1", "127.0.0.1")).toBe(true);
    expect(isSameAddress("localhost", "localhost")).toBe(false);
  });
});
