import { describe, expect, it } from "vitest";
import { isHostAllowed } from "./host-allowed.js";

describe("isHostAllowed", () => {
  it("matches a name exactly, ignoring case, brackets and a trailing dot", () => {
    expect(isHostAllowed("Packages.Example.COM.", ["packages.example.com"])).toBe(true);
    expect(isHostAllowed("[::1]", ["::1"])).toBe(true);
    expect(isHostAllowed("example.com", ["packages.example.com"])).toBe(false);
    expect(isHostAllowed("packages.example.com.evil.com", ["packages.example.com"])).toBe(false);
  });

  it("matches subdomains of a *. entry, but not the domain itself or a look-alike", () => {
    expect(isHostAllowed("api.github.com", ["*.github.com"])).toBe(true);
    expect(isHostAllowed("a.b.github.com", ["*.github.com"])).toBe(true);
    expect(isHostAllowed("github.com", ["*.github.com"])).toBe(false);
    expect(isHostAllowed("evilgithub.com", ["*.github.com"])).toBe(false);
  });

  it("refuses everything with an empty list, and an empty host", () => {
    expect(isHostAllowed("localhost", [])).toBe(false);
    expect(isHostAllowed("", ["*.com"])).toBe(false);
  });
});
