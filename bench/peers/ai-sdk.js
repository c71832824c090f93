// The Vercel AI SDK 6's side (what toolwire/ai-sdk is tested with): its cases are bench/lib/ai-sdk-cases.js.
import { generateText, jsonSchema, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { aiSdkCases } from "../lib/ai-sdk-cases.js";
import { packageVersion } from "../lib/package-version.js";

/** Every AI SDK 6 case. */
export function createCases(options = {}) {
  return aiSdkCases({ generateText, jsonSchema, tool, MockLanguageModel: MockLanguageModelV3 }, "ai-sdk", options);
}

/** What this library's cases were built with. */
export function describe() {
  return { library: "ai-sdk", version: `ai@${packageVersion("ai")}` };
}
