// Which pi runs the tools, as far as failures go: pi 1 reads a result's `isError`, pi 0.73 only a throw.

let answer: Promise<boolean> | undefined;

/**
 * Whether the pi installed here takes a tool's failure as a result with `isError: true`: true when pi 1
 * (`@earendil-works/pi-agent-core`) is installed and pi 0.73 (`@mariozechner/pi-agent-core`, which ignores `isError`
 * and reads only a throw) is not. With both, or neither, false: a throw fails the call under either pi. Loads pi's
 * agent core once per process (the loop that calls the tools has loaded it already).
 */
export function piReadsErrorResults(): Promise<boolean> {
  answer ??= (async () => {
    const old = await import("@mariozechner/pi-agent-core").catch(() => undefined);
    // pi 1 is the one with `runToolCall` (a test maps the 0.73 name to pi 1 to run pi 1's loop).
    if (old !== undefined && !("runToolCall" in old)) return false;
    return (await import("@earendil-works/pi-agent-core").catch(() => undefined)) !== undefined;
  })();
  return answer;
}
