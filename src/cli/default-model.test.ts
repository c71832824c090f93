// The model `toolwire run` picks from the environment: never one the pinned Anthropic SDK marks deprecated.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_ANTHROPIC_MODEL, defaultModelSpec } from "./default-model.js";

/** The pinned SDK's folder (its exports map hides package.json; its main file sits at the top). */
const SDK = dirname(createRequire(import.meta.url).resolve("@anthropic-ai/sdk"));

/** The SDK's own list of deprecated models (a data file it ships; its keys are model names). */
function deprecatedModels(): string[] {
  const source = readFileSync(join(SDK, "internal", "data", "deprecated-models.js"), "utf8");
  return [...source.matchAll(/["'](claude-[^"']+)["']\s*:/g)].map((match) => match[1] as string);
}

describe("the default model", () => {
  it("is one the pinned Anthropic SDK knows and does not mark deprecated", () => {
    const deprecated = deprecatedModels();
    expect(deprecated.length).toBeGreaterThan(0);
    expect(deprecated).not.toContain(DEFAULT_ANTHROPIC_MODEL);
    const known = readFileSync(join(SDK, "resources", "messages", "messages.d.ts"), "utf8");
    expect(known).toContain(`'${DEFAULT_ANTHROPIC_MODEL}'`);
    expect(defaultModelSpec({ ANTHROPIC_API_KEY: "k" })).toBe(`anthropic:${DEFAULT_ANTHROPIC_MODEL}`);
    expect(defaultModelSpec({ ANTHROPIC_API_KEY: "k", ANTHROPIC_MODEL: "claude-opus-5" })).toBe(
      "anthropic:claude-opus-5",
    );
  });
});
