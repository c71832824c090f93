// Debian's chromium, headless, driven by playwright-core for the inspector's browser tests.
import { isExecutable } from "../../src/sandbox/find-executable.js";

/** Where Debian puts chromium (the package CI installs). */
export const CHROMIUM = "/usr/bin/chromium";

/** The flags every test launches it with: headless, no sandbox (root in a container), nothing fetched from outside. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/**
 * Whether the browser tests run: when chromium is installed, and always under `CI=true` (CI installs it: there a
 * missing browser fails the tests instead of skipping them). Says why on the console when they are skipped.
 */
export function browserTestsRun(what: string): boolean {
  if (isExecutable(CHROMIUM) || process.env.CI === "true") return true;
  console.warn(`skipping ${what}: ${CHROMIUM} is missing (apt-get install chromium)`);
  return false;
}
