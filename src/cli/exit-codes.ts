// Exit codes scripts can rely on.

/** The command did what it was asked. */
export const EXIT_OK = 0;
/** The work failed: a tool returned an error, a run did not complete, a tool is not available. */
export const EXIT_FAILED = 1;
/** The command line was wrong: an unknown command or option, a bad model spec. */
export const EXIT_USAGE = 2;
/**
 * The config file is missing (when named), not a regular file, too large, not JSON, or invalid, or its workspace is not
 * a folder.
 */
export const EXIT_CONFIG = 3;

/** An error that ends the command with a given exit code and a message for the user. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}
