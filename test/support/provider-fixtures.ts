// Reads the provider wire fixtures (copied from the shared fixtures, each with its `_source`) for tests.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folder holding the provider fixtures. */
export const PROVIDER_FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "providers");

/** Every provider fixture's file name. */
export function providerFixtureNames(): string[] {
  return readdirSync(PROVIDER_FIXTURES_DIR)
    .filter((name) => name.endsWith(".json"))
    .sort();
}

/** One fixture, parsed. Typed loosely: tests read the wire shapes field by field. */
// biome-ignore lint/suspicious/noExplicitAny: fixtures are untyped wire captures
export function readProviderFixture(name: string): any {
  return JSON.parse(readFileSync(join(PROVIDER_FIXTURES_DIR, name), "utf8"));
}
