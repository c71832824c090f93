// Whether a request's Host names this server and its Origin (if any) may call it: the guard against DNS rebinding
// and against pages of other sites driving a local gateway from a browser.
import { networkInterfaces, hostname as osHostname } from "node:os";
import { GatewayError } from "./errors.js";

/** Where the server listens, and what it lets in beyond its own names. */
export interface RequestOriginRules {
  /** The address the server is bound to: a loopback one, a specific one, or a wildcard (`0.0.0.0`, `::`). */
  readonly boundHost: string;
  readonly port: number;
  /** Origins (`scheme://host[:port]`) of pages that may call the server besides its own; `"*"` is not taken. */
  readonly allowedOrigins?: readonly string[];
  /** Host names that also name this server: `"name"` (any port) or `"name:port"`; they extend the defaults. */
  readonly allowedHosts?: readonly string[];
}

/**
 * `undefined` when the request may go on; otherwise the 403 message. The Host header must be present and name this
 * server: `127.0.0.1`, `localhost` and `[::1]` at `rules.port` on every bind; the bound address too on a specific
 * bind; every local interface address and the machine's host name on a wildcard bind; and `rules.allowedHosts`
 * (compared case-insensitively, IPv6 and IPv4 forms normalised). An absent Origin passes (a client that is not a
 * browser); a present one must be `http://` and an allowed host, or be listed in `rules.allowedOrigins`.
 * `Origin: null` is refused. Never throws.
 */
export function checkRequestOrigin(
  headers: { host?: string; origin?: string },
  rules: RequestOriginRules,
): string | undefined {
  const hostHeader = headers.host;
  if (typeof hostHeader !== "string" || hostHeader === "") return "Forbidden: the request has no Host header";
  const host = parseHost(hostHeader);
  if (host === undefined || !isAllowedHost(host, rules))
    return `Forbidden: Host ${show(hostHeader)} is not this server`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  const refused = `Forbidden: Origin ${show(String(origin))} is not allowed`;
  const normalized = typeof origin === "string" ? normalizeOrigin(origin) : undefined;
  if (normalized === undefined) return refused;
  if (normalized.protocol === "http:") {
    const originHost = parseHost(normalized.host);
    if (originHost !== undefined && isAllowedHost(originHost, rules)) return undefined;
  }
  const listed = (rules.allowedOrigins ?? []).some((entry) => normalizeOrigin(entry)?.origin === normalized.origin);
  return listed ? undefined : refused;
}

/**
 * Throws a `GatewayError` (`invalid-serve-options`) unless every entry is an origin `http(s)://host[:port]` (a
 * trailing `/` is fine; no path, query, credentials). `"*"` and `"null"` are refused: list the origins instead.
 */
export function validateAllowedOrigins(origins: readonly string[]): void {
  if (!Array.isArray(origins)) throw invalidOptions("allowedOrigins must be a list of origins");
  for (const entry of origins) {
    if (entry === "*") {
      throw invalidOptions(
        'allowedOrigins does not take "*": list each origin that may call the server, like "https://app.example"',
      );
    }
    const normalized = typeof entry === "string" ? normalizeOrigin(entry) : undefined;
    if (normalized === undefined || (normalized.protocol !== "http:" && normalized.protocol !== "https:")) {
      throw invalidOptions(
        `allowedOrigins has ${JSON.stringify(entry)}, which is not an origin like "https://app.example" or "http://localhost:3000"`,
      );
    }
  }
}

/**
 * Throws a `GatewayError` (`invalid-serve-options`) unless every entry is a host name or address, with or without
 * `:port`.
 */
export function validateAllowedHosts(hosts: readonly string[]): void {
  if (!Array.isArray(hosts)) throw invalidOptions("allowedHosts must be a list of host names");
  for (const entry of hosts) {
    if (typeof entry !== "string" || parseHost(entry) === undefined) {
      throw invalidOptions(
        `allowedHosts has ${JSON.stringify(entry)}, which is not a host like "gateway.example", "gateway.example:8443" or "[::1]"`,
      );
    }
  }
}

/** A host as compared: the normalised name (IPv6 in brackets) and the port, `undefined` when none was written. */
interface HostName {
  readonly name: string;
  readonly port: number | undefined;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];
const WILDCARD_NAMES = new Set(["0.0.0.0", "[::]"]);

function isAllowedHost(host: HostName, rules: RequestOriginRules): boolean {
  // A Host without a port is the HTTP default port.
  const port = host.port ?? 80;
  if (port === rules.port && defaultHostNames(rules.boundHost).has(host.name)) return true;
  for (const entry of rules.allowedHosts ?? []) {
    const allowed = typeof entry === "string" ? parseHost(entry) : undefined;
    if (allowed !== undefined && allowed.name === host.name && (allowed.port === undefined || allowed.port === port)) {
      return true;
    }
  }
  return false;
}

/** The names that reach a server bound to `boundHost` (each at its port). */
function defaultHostNames(boundHost: string): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const bound = parseHost(boundHost.includes(":") && !boundHost.startsWith("[") ? `[${boundHost}]` : boundHost);
  if (bound === undefined) return names;
  if (!WILDCARD_NAMES.has(bound.name)) {
    names.add(bound.name);
    return names;
  }
  // Read on every request: interfaces come and go (a laptop joining a network) while the server runs.
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address, family } of addresses ?? []) {
      const parsed = parseHost(family === "IPv6" ? `[${address}]` : address);
      if (parsed !== undefined) names.add(parsed.name);
    }
  }
  const machine = parseHost(osHostname());
  if (machine !== undefined) names.add(machine.name);
  return names;
}

/** `name[:port]` as written in a Host header or an allowedHosts entry, normalised; `undefined` if it is not one. */
function parseHost(value: string): HostName | undefined {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(value);
  if (match === null) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65_535) return undefined;
  try {
    // The URL parser lowercases, compresses IPv6 (`[0:0::1]` is `[::1]`) and reads IPv4 written in other forms.
    return { name: new URL(`http://${match[1]}`).hostname, port };
  } catch {
    return undefined;
  }
}

/**
 * `scheme://host[:port]` (maybe with a trailing `/`) as a URL whose `origin` is the normalised form; else undefined.
 */
function normalizeOrigin(value: string): URL | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#@\\\s]+\/?$/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.origin === "null" ? undefined : url;
  } catch {
    return undefined;
  }
}

/** A header value fit for a message: printable ASCII, at most 200 characters. */
function show(value: string): string {
  const printable = value.replace(/[^\x20-\x7e]/g, "?");
  return printable.length <= 200 ? printable : `${printable.slice(0, 200)}…`;
}

function invalidOptions(message: string): GatewayError {
  return new GatewayError("invalid-serve-options", message);
}
