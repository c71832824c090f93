// The toolwire/ai-sdk tests again under the AI SDK 7 (the `ai-7` dev dependency): here `ai` and `ai/test` are ai 7 for
// every module, toAiSdkTools and the scripted model included. ai 7 needs Node 22, so this runs on the Node 22 and 24
// runs.
import { describe, it, vi } from "vitest";

vi.mock("ai", () => import("ai-7"));
vi.mock("ai/test", () => import("ai-7/test"));

const major = Number(process.versions.node.split(".")[0]);

if (major >= 22) {
  await import("./to-ai-sdk-tools.test.js");
  await import("./from-ai-sdk-tools.test.js");
} else {
  describe("toolwire/ai-sdk under ai 7", () => {
    it.skip(`needs Node 22 or later (ai 7's engines), this is Node ${process.versions.node}`, () => {});
  });
}
