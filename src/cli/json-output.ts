// The shape of everything the CLI prints with --json: a schema version a program can check, and errors as JSON too.

/** The version of the CLI's `--json` output; it changes when a field is renamed or removed (not when one is added). */
const JSON_SCHEMA_VERSION = 1;

/** `value` with `schemaVersion` first. */
export function versioned<T extends object>(value: T): { schemaVersion: number } & T {
  return { schemaVersion: JSON_SCHEMA_VERSION, ...value };
}

/** A failed command as `--json` prints it on stdout: its exit code, a stable code, and the message. */
export function jsonError(exitCode: number, code: string, message: string): string {
  return JSON.stringify(versioned({ error: { exitCode, code, message } }));
}

/** A duration as `--json` prints it: milliseconds to two decimals (a timer's last digits are noise, not data). */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}
