// classifyAddress: what kind of place an IP address is (public, or loopback, private, link-local, …), so web_fetch
// connects only to the public internet unless told otherwise.
import { isIPv4, isIPv6 } from "node:net";

/**
 * The kind of an IP address: `public` (globally routable unicast) or why it is not. `metadata` is a cloud instance's
 * metadata service (169.254.169.254 and its kin), which hands out credentials; `reserved` covers documentation,
 * benchmarking, protocol and future-use ranges, and every IPv6 address outside 2000::/3.
 */
export type AddressKind =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "cgnat"
  | "multicast"
  | "metadata"
  | "reserved";

/** What `classifyAddress` found: the kind, and for an IPv6 address that embeds an IPv4 one, that address. */
export interface AddressClass {
  readonly kind: AddressKind;
  /** The IPv4 address an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 address carries; it decided the kind. */
  readonly embedded?: string;
}

type Range = readonly [prefix: readonly number[], bits: number, kind: AddressKind];

// First match wins: the metadata addresses sit inside link-local and must come first.
const IPV4_RANGES: readonly Range[] = [
  [[169, 254, 169, 254], 32, "metadata"],
  [[169, 254, 170, 2], 32, "metadata"],
  [[0, 0, 0, 0], 8, "unspecified"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "cgnat"],
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link-local"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"],
  [[192, 0, 2, 0], 24, "reserved"],
  [[192, 88, 99, 0], 24, "reserved"],
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "reserved"],
  [[198, 51, 100, 0], 24, "reserved"],
  [[203, 0, 113, 0], 24, "reserved"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved"],
];

// Written as 16 bytes. Checked after the forms that embed an IPv4 address.
const IPV6_RANGES: readonly Range[] = [
  [[0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, "metadata"],
  [[0x01, 0x00], 64, "reserved"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "reserved"],
  [[0x20, 0x01, 0x00, 0x00], 32, "reserved"],
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, "private"],
  [[0xfc], 7, "unique-local"],
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "private"],
  [[0xff], 8, "multicast"],
];

/**
 * Classifies an IP address (IPv4 dotted, or IPv6 in any textual form, with or without brackets or a `%zone`). An IPv6
 * address that carries an IPv4 one (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `::127.0.0.1`, `64:ff9b::7f00:1`,
 * `2002:7f00:1::`) is classified by that IPv4 address. Returns `undefined` for text that is not an IP address.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const bytes = parseAddress(address);
  if (bytes === undefined) return undefined;
  if (bytes.length === 4) return { kind: classifyBytes(bytes, IPV4_RANGES) };
  const embedded = embeddedIpv4(bytes);
  if (embedded !== undefined) return { kind: classifyBytes(embedded, IPV4_RANGES), embedded: embedded.join(".") };
  if (bytes.every((byte) => byte === 0)) return { kind: "unspecified" };
  if (bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1) return { kind: "loopback" };
  const kind = classifyBytes(bytes, IPV6_RANGES);
  // Global unicast is 2000::/3; everything else not named above is not routable on the internet.
  return { kind: kind === "public" && ((bytes[0] as number) & 0xe0) !== 0x20 ? "reserved" : kind };
}

/** Whether two texts name the same IP address (`::ffff:7f00:1` and `[::FFFF:127.0.0.1]` do). False for non-addresses. */
export function isSameAddress(a: string, b: string): boolean {
  const left = parseAddress(a);
  const right = parseAddress(b);
  return left !== undefined && right !== undefined && left.join(",") === right.join(",");
}

/** The bytes of an IP address (4 or 16), or `undefined` for anything else. */
function parseAddress(text: string): number[] | undefined {
  const address = text
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (isIPv4(address)) return address.split(".").map(Number);
  if (!isIPv6(address)) return undefined;
  // A trailing dotted IPv4 part (`::ffff:127.0.0.1`) becomes its two hex groups.
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [Number(a) * 256 + Number(b), Number(c) * 256 + Number(d)].map((word) => word.toString(16)).join(":"),
  );
  const [before, after] = hex.split("::") as [string, string | undefined];
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const left = groups(before);
  const right = groups(after ?? "");
  const fill = after === undefined ? [] : new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0);
  const words = [...left, ...fill, ...right];
  if (words.length !== 8) return undefined;
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address. */
function embeddedIpv4(bytes: readonly number[]): number[] | undefined {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const last = bytes.slice(12, 16);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return last;
  // IPv4-compatible (deprecated): ::a.b.c.d, but not :: and ::1 themselves.
  if (zeros(0, 12) && !zeros(12, 15)) return last;
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return last;
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

function classifyBytes(bytes: readonly number[], ranges: readonly Range[]): AddressKind {
  for (const [prefix, bits, kind] of ranges) {
    if (inPrefix(bytes, prefix, bits)) return kind;
  }
  return "public";
}

function inPrefix(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const index = bit / 8;
    if ((((bytes[index] as number) ^ (prefix[index] ?? 0)) & mask) !== 0) return false;
  }
  return true;
}
