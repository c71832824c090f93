// Where a program is: the first executable of that name on PATH, then in /usr/bin and /bin.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The path of the first executable file named `name` on PATH (then /usr/bin, /bin), or `undefined`. */
export function findExecutable(name: string): string | undefined {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  return [...dirs, "/usr/bin", "/bin"].map((dir) => join(dir, name)).find(isExecutable);
}

/** Whether `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
