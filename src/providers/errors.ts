// Errors of the provider layer: a misuse of an adapter, and a model turn that failed.
import { ToolwireError } from "../core/errors.js";

/** Codes of `ProviderFormatError`. */
export type ProviderFormatErrorCode = "unmatched-tool-result";

/** An adapter was given something it cannot put on the wire (a provider would answer it with HTTP 400). */
export class ProviderFormatError extends ToolwireError<ProviderFormatErrorCode> {
  override readonly name = "ProviderFormatError";
}

/**
 * Codes of `ModelError`:
 * - `request-failed`: the provider answered with an error status, or could not be reached.
 * - `invalid-response`: the provider answered with something that is not a model turn.
 * - `sdk-missing`: the provider's SDK package is not installed.
 * - `script-unreadable`: a scripted model's file could not be read or is not JSON.
 * - `invalid-script`: a scripted model's turns are malformed (the message names the path).
 * - `script-exhausted`: a scripted model was asked for more turns than it has.
 * - `expectation-failed`: a scripted turn's expectation did not hold for the request it got.
 * - `invalid-model-spec`: `createModelFromSpec` was given a spec it does not know.
 * - `invalid-model-options`: a model client was given an option its provider would refuse (the message says which).
 */
export type ModelErrorCode =
  | "request-failed"
  | "invalid-response"
  | "sdk-missing"
  | "script-unreadable"
  | "invalid-script"
  | "script-exhausted"
  | "expectation-failed"
  | "invalid-model-spec"
  | "invalid-model-options";

/** A model turn that could not be had. `status` is the HTTP status when the provider sent one. */
export class ModelError extends ToolwireError<ModelErrorCode> {
  override readonly name = "ModelError";
  readonly status?: number;
  constructor(
    code: ModelErrorCode,
    readonly model: string,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.status !== undefined) this.status = options.status;
  }
}
