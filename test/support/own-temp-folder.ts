// Vitest global setup: the run gets a temp folder of its own (TMPDIR, which the test workers and most of the processes
// they start inherit), so what a test leaves there (a crashed test's workspace, a killed child's files) is named at
// the end of the run and removed with the folder, instead of piling up in the machine's temp folder.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), "toolwire-test-run-"));
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    const left = readdirSync(folder);
    if (left.length > 0) console.warn(`tests left ${left.length} item(s) in the temp folder: ${left.join(", ")}`);
    rmSync(folder, { recursive: true, force: true });
  };
}
