// The toolwire/pi tests again under pi 1 (`@earendil-works/pi-agent-core` and `@earendil-works/pi-ai`, pi's name since
// 1.0): here the `@mariozechner/*` 0.73 imports are pi 1 for every module, pi's Agent and faux model included. pi 1
// needs Node 22.19, so this runs on the Node 22 and 24 runs.
import { describe, it, vi } from "vitest";

vi.mock("@mariozechner/pi-agent-core", () => import("@earendil-works/pi-agent-core"));
vi.mock("@mariozechner/pi-ai", () => import("@earendil-works/pi-ai"));

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);

if (major > 22 || (major === 22 && minor >= 19)) {
  await import("./to-pi-tools.test.js");
} else {
  describe("toolwire/pi under pi 1", () => {
    it.skip(`needs Node 22.19 or later (pi 1's engines), this is Node ${process.versions.node}`, () => {});
  });
}
