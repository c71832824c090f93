// Host and Origin checks of the gateway: DNS-rebinding Hosts, IPv6 and case, specific and wildcard binds, the
// allowed lists, and their validators.
import { networkInterfaces, hostname as osHostname } from "node:os";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkRequestOrigin,
  type RequestOriginRules,
  validateAllowedHosts,
  validateAllowedOrigins,
} from "./check-request-origin.js";

const LOOPBACK: RequestOriginRules = { boundHost: "127.0.0.1", port: 8080 };
const ALLOWED = undefined;
const notThisServer = (host: string) => `Forbidden: Host ${host} is not this server`;
const notAllowed = (origin: string) => `Forbidden: Origin ${origin} is not allowed`;

describe("checkRequestOrigin: the Host header", () => {
  const cases: [string, RequestOriginRules, string | undefined, string | undefined][] = [
    ["127.0.0.1 at the port, on a loopback bind", LOOPBACK, "127.0.0.1:8080", ALLOWED],
    ["localhost at the port", LOOPBACK, "localhost:8080", ALLOWED],
    ["[::1] at the port", LOOPBACK, "[::1]:8080", ALLOWED],
    ["a name in capitals", LOOPBACK, "LocalHost:8080", ALLOWED],
    ["IPv6 loopback written out in full", LOOPBACK, "[0:0:0:0:0:0:0:1]:8080", ALLOWED],
    ["loopback on a bind to ::1", { boundHost: "::1", port: 8080 }, "[::1]:8080", ALLOWED],
    ["no Host header", LOOPBACK, undefined, "Forbidden: the request has no Host header"],
    ["an empty Host header", LOOPBACK, "", "Forbidden: the request has no Host header"],
    ["a DNS-rebinding name at the right port", LOOPBACK, "evil.example:8080", notThisServer("evil.example:8080")],
    ["localhost at another port", LOOPBACK, "localhost:9090", notThisServer("localhost:9090")],
    ["localhost without a port (port 80)", LOOPBACK, "localhost", notThisServer("localhost")],
    ["localhost with a trailing dot", LOOPBACK, "localhost.:8080", notThisServer("localhost.:8080")],
    [
      "credentials smuggled before a loopback host",
      LOOPBACK,
      "evil.example@127.0.0.1:8080",
      notThisServer("evil.example@127.0.0.1:8080"),
    ],
    [
      "two hosts in one header",
      LOOPBACK,
      "127.0.0.1:8080, evil.example",
      notThisServer("127.0.0.1:8080, evil.example"),
    ],
    ["a LAN address on a loopback bind", LOOPBACK, "192.168.1.5:8080", notThisServer("192.168.1.5:8080")],
    ["a port out of range", LOOPBACK, "localhost:8080808", notThisServer("localhost:8080808")],
    ["the bound address, on a specific bind", { boundHost: "192.168.1.5", port: 8080 }, "192.168.1.5:8080", ALLOWED],
    ["loopback, on a specific bind", { boundHost: "192.168.1.5", port: 8080 }, "localhost:8080", ALLOWED],
    [
      "another address, on a specific bind",
      { boundHost: "192.168.1.5", port: 8080 },
      "10.0.0.1:8080",
      notThisServer("10.0.0.1:8080"),
    ],
    ["the bound IPv6 address in capitals", { boundHost: "fd00::5", port: 8080 }, "[FD00::5]:8080", ALLOWED],
    ["the bound name, on a bind by name", { boundHost: "gw.lan", port: 8080 }, "GW.lan:8080", ALLOWED],
    [
      "a rebinding name, on an IPv4 wildcard bind",
      { boundHost: "0.0.0.0", port: 8080 },
      "evil.example:8080",
      notThisServer("evil.example:8080"),
    ],
    [
      "a rebinding name, on an IPv6 wildcard bind",
      { boundHost: "::", port: 8080 },
      "evil.example:8080",
      notThisServer("evil.example:8080"),
    ],
    ["loopback, on a wildcard bind", { boundHost: "0.0.0.0", port: 8080 }, "localhost:8080", ALLOWED],
    [
      "an allowedHosts name without a port, at any port",
      { ...LOOPBACK, allowedHosts: ["gw.example"] },
      "GW.example:443",
      ALLOWED,
    ],
    [
      "an allowedHosts name without a port, sent without one",
      { ...LOOPBACK, allowedHosts: ["gw.example"] },
      "gw.example",
      ALLOWED,
    ],
    [
      "an allowedHosts name:port at its port",
      { ...LOOPBACK, allowedHosts: ["gw.example:8443"] },
      "gw.example:8443",
      ALLOWED,
    ],
    [
      "an allowedHosts name:port at another port",
      { ...LOOPBACK, allowedHosts: ["gw.example:8443"] },
      "gw.example:8444",
      notThisServer("gw.example:8444"),
    ],
    [
      "an allowedHosts name:port sent without a port",
      { ...LOOPBACK, allowedHosts: ["gw.example:8443"] },
      "gw.example",
      notThisServer("gw.example"),
    ],
    ["the defaults, with allowedHosts given", { ...LOOPBACK, allowedHosts: ["gw.example"] }, "127.0.0.1:8080", ALLOWED],
    ["an allowedHosts IPv6 entry", { ...LOOPBACK, allowedHosts: ["[fd00::7]"] }, "[fd00:0::7]:1234", ALLOWED],
  ];
  it.each(cases)("%s", (_name, rules, host, expected) => {
    expect(checkRequestOrigin(host === undefined ? {} : { host }, rules)).toBe(expected);
  });

  it("lets in every local interface address and the machine's name at the port, on a wildcard bind", () => {
    const addresses = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map(({ address, family }) => (family === "IPv6" ? `[${address}]` : address));
    expect(addresses.length).toBeGreaterThan(0);
    for (const boundHost of ["0.0.0.0", "::"]) {
      for (const name of [...addresses, osHostname()]) {
        expect(checkRequestOrigin({ host: `${name}:8080` }, { boundHost, port: 8080 }), name).toBeUndefined();
        expect(checkRequestOrigin({ host: `${name}:8081` }, { boundHost, port: 8080 }), name).toBe(
          notThisServer(`${name}:8081`),
        );
      }
    }
  });

  it("lets in the machine's name only on a wildcard bind", () => {
    const name = osHostname();
    expect(checkRequestOrigin({ host: `${name}:8080` }, LOOPBACK)).toBe(notThisServer(`${name}:8080`));
  });

  it("never throws on an arbitrary Host or Origin, and lets in no Host that holds characters a host cannot", () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), (host, origin) => {
        const verdict = checkRequestOrigin(origin === undefined ? { host } : { host, origin }, {
          ...LOOPBACK,
          allowedOrigins: ["https://app.example"],
        });
        if (/[^A-Za-z0-9.:_[\]-]/.test(host)) expect(verdict).toMatch(/^Forbidden: /);
      }),
    );
  });
});

describe("checkRequestOrigin: the Origin header", () => {
  const HOST = { host: "127.0.0.1:8080" };
  const WITH_APP: RequestOriginRules = {
    ...LOOPBACK,
    allowedOrigins: ["https://app.example", "http://localhost:3000/"],
  };
  const cases: [string, RequestOriginRules, string | undefined, string | undefined][] = [
    ["no Origin (a client that is not a browser)", LOOPBACK, undefined, ALLOWED],
    ["the server's own origin", LOOPBACK, "http://127.0.0.1:8080", ALLOWED],
    ["its own origin under another loopback name", LOOPBACK, "http://localhost:8080", ALLOWED],
    ["its own origin over IPv6", LOOPBACK, "http://[::1]:8080", ALLOWED],
    ["another site", LOOPBACK, "http://evil.example", notAllowed("http://evil.example")],
    ["a loopback origin at another port", LOOPBACK, "http://localhost:9090", notAllowed("http://localhost:9090")],
    [
      "its own host over https (the server speaks http)",
      LOOPBACK,
      "https://localhost:8080",
      notAllowed("https://localhost:8080"),
    ],
    ["Origin null (a sandboxed frame or file: page)", LOOPBACK, "null", notAllowed("null")],
    ["an origin with a path", LOOPBACK, "http://127.0.0.1:8080/x", notAllowed("http://127.0.0.1:8080/x")],
    ["an origin with credentials", LOOPBACK, "http://a@127.0.0.1:8080", notAllowed("http://a@127.0.0.1:8080")],
    ["a listed origin", WITH_APP, "https://app.example", ALLOWED],
    ["a listed origin in other case and with its default port", WITH_APP, "https://APP.example:443", ALLOWED],
    ["a listed origin given with a trailing slash", WITH_APP, "http://localhost:3000", ALLOWED],
    ["a listed host at another port", WITH_APP, "https://app.example:8443", notAllowed("https://app.example:8443")],
    ["a listed host under another scheme", WITH_APP, "http://app.example", notAllowed("http://app.example")],
    ["a listed origin's subdomain", WITH_APP, "https://evil.app.example", notAllowed("https://evil.app.example")],
    ["http on an allowedHosts name", { ...LOOPBACK, allowedHosts: ["gw.example"] }, "http://gw.example", ALLOWED],
  ];
  it.each(cases)("%s", (_name, rules, origin, expected) => {
    expect(checkRequestOrigin(origin === undefined ? HOST : { ...HOST, origin }, rules)).toBe(expected);
  });

  it("checks the Host before the Origin", () => {
    expect(checkRequestOrigin({ host: "evil.example:8080", origin: "http://127.0.0.1:8080" }, LOOPBACK)).toBe(
      notThisServer("evil.example:8080"),
    );
  });

  it("shows a hostile Origin in the message as printable ASCII and cut to 200 characters", () => {
    const message = checkRequestOrigin({ ...HOST, origin: `http://e\u0000vil\n${"x".repeat(500)}` }, LOOPBACK);
    expect(message).toMatch(/^Forbidden: Origin http:\/\/e\?vil\?x+… is not allowed$/);
    expect(message!.length).toBeLessThan(260);
  });
});

describe("validateAllowedOrigins", () => {
  it("takes http and https origins, with or without a trailing slash or port", () => {
    expect(() =>
      validateAllowedOrigins(["https://app.example", "http://localhost:3000/", "https://[::1]:8443"]),
    ).not.toThrow();
  });

  it('refuses "*" with invalid-serve-options, saying to list the origins', () => {
    expect(() => validateAllowedOrigins(["https://app.example", "*"])).toThrow(
      expect.objectContaining({
        name: "GatewayError",
        code: "invalid-serve-options",
        message: expect.stringContaining('does not take "*"'),
      }),
    );
  });

  it.each([
    ["null"],
    ["app.example"],
    ["https://app.example/path"],
    ["https://u@app.example"],
    ["ftp://app.example"],
    ["chrome-extension://abc"],
    [""],
  ])("refuses %j, which is not an http(s) origin", (entry) => {
    expect(() => validateAllowedOrigins([entry])).toThrow(
      expect.objectContaining({
        code: "invalid-serve-options",
        message: expect.stringContaining(JSON.stringify(entry)),
      }),
    );
  });

  it("refuses a value that is not a list, or an entry that is not a string", () => {
    expect(() => validateAllowedOrigins("https://app.example" as never)).toThrow(
      expect.objectContaining({ code: "invalid-serve-options" }),
    );
    expect(() => validateAllowedOrigins([42 as never])).toThrow(
      expect.objectContaining({ code: "invalid-serve-options" }),
    );
  });
});

describe("validateAllowedHosts", () => {
  it("takes names and addresses, with or without a port", () => {
    expect(() => validateAllowedHosts(["gw.example", "gw.example:8443", "[::1]", "10.0.0.1:80"])).not.toThrow();
  });

  it.each([["*"], ["http://gw.example"], ["gw.example:99999"], ["gw.example/x"], [""], ["::1"]])(
    "refuses %j, which is not a host",
    (entry) => {
      expect(() => validateAllowedHosts([entry])).toThrow(
        expect.objectContaining({ name: "GatewayError", code: "invalid-serve-options" }),
      );
    },
  );
});
