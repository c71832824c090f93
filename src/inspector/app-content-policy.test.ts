import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appContentPolicy } from "./app-content-policy.js";

const PAGE = ["http://127.0.0.1:4000"];
const DIRECTIVES = [
  "sandbox",
  "default-src",
  "script-src",
  "style-src",
  "img-src",
  "media-src",
  "font-src",
  "connect-src",
  "frame-src",
  "base-uri",
  "object-src",
  "form-action",
  "frame-ancestors",
];

describe("appContentPolicy", () => {
  it("is the strict default without _meta.ui.csp: sandboxed, inline only, no network, no 'self'", () => {
    const policy = appContentPolicy(undefined, PAGE);
    expect(policy).toContain("sandbox allow-scripts;");
    expect(policy).toContain("script-src 'unsafe-inline';");
    expect(policy).toContain("connect-src 'none';");
    expect(policy).toContain("frame-src 'none';");
    expect(policy).toContain("frame-ancestors http://127.0.0.1:4000");
    expect(policy).not.toContain("'self'");
  });

  it("adds the declared origins to their directives", () => {
    const policy = appContentPolicy(
      {
        ui: {
          csp: {
            connectDomains: ["https://api.example.com", "wss://live.example.com:8443"],
            resourceDomains: ["https://*.cdn.example.com"],
          },
        },
      },
      PAGE,
    );
    expect(policy).toContain("connect-src https://api.example.com wss://live.example.com:8443;");
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example.com;");
    expect(policy).toContain("img-src data: https://*.cdn.example.com;");
  });

  it("never lets a declared value add a directive, a keyword or a wildcard", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom("*", "'self'", "https:", "x; script-src *", "'unsafe-eval'"))),
        (values) => {
          const policy = appContentPolicy({ ui: { csp: { connectDomains: values, resourceDomains: values } } }, PAGE);
          const names = policy.split("; ").map((directive) => directive.split(" ")[0]);
          expect(names).toEqual(DIRECTIVES);
          for (const token of policy.split(/[ ;]+/)) {
            expect(["*", "'self'", "'unsafe-eval'", "https:"]).not.toContain(token);
          }
        },
      ),
    );
  });
});
