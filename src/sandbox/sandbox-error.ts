// SandboxError: why the sandbox (docs/sandbox.md) could not be set up or started, with a stable kebab-case code.
import { ToolwireError } from "../core/errors.js";

/**
 * Why a sandbox failed. One line each:
 * - `invalid-sandbox-option`: the options are malformed (an unknown mode, a path that is not a string, a bad limit).
 * - `sandbox-unavailable`: `mode: "required"` and bubblewrap is not usable on this machine.
 * - `sandbox-failed`: bubblewrap was usable when probed but could not start this command (its message says why).
 */
export type SandboxErrorCode = "invalid-sandbox-option" | "sandbox-unavailable" | "sandbox-failed";

/** A sandbox that could not be set up or started; the message says what happened and what to change. */
export class SandboxError extends ToolwireError<SandboxErrorCode> {
  override readonly name = "SandboxError";
}
