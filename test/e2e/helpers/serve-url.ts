// The URL `toolwire serve --http` prints on stderr once it listens, read from a child process the test started.
import type { ChildProcess } from "node:child_process";

/**
 * Resolves with the MCP URL `toolwire serve --http` prints (`at http://127.0.0.1:PORT/mcp`), once `ready(stderr)`
 * holds too (say, a later line is out); rejects, with what it printed, when the process exits first.
 */
export function serveUrlOf(child: ChildProcess, ready: (stderr: string) => boolean = () => true): Promise<string> {
  let stderr = "";
  return new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/.exec(stderr);
      if (found?.[1] !== undefined && ready(stderr)) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}
