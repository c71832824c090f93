// The Vercel AI SDK's current major (7, Node 22 or later; the dev dependency `ai-7`): the same cases as ai-sdk.js.
import { generateText, jsonSchema, tool } from "ai-7";
import { MockLanguageModelV4 } from "ai-7/test";
import { aiSdkCases } from "../lib/ai-sdk-cases.js";
import { packageVersion } from "../lib/package-version.js";

/** Every AI SDK 7 case. */
export function createCases(options = {}) {
  return aiSdkCases({ generateText, jsonSchema, tool, MockLanguageModel: MockLanguageModelV4 }, "ai-sdk", options);
}

/** What this library's cases were built with. */
export function describe() {
  return { library: "ai-sdk", version: `ai@${packageVersion("ai-7")}` };
}
