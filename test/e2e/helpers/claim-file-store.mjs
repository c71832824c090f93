// An approval store for tests that span processes: a folder of claim files, each created exclusively, so the first
// process to claim an approval id wins in every process that shares the folder.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";

/** A store claiming ids as files in `folder` (made if missing). */
export function claimFileStore(folder) {
  mkdirSync(folder, { recursive: true });
  return {
    claim(approvalId) {
      try {
        closeSync(openSync(join(folder, approvalId), "wx"));
        return true;
      } catch {
        return false;
      }
    },
  };
}
