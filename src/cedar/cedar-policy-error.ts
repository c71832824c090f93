// CedarPolicyError: a Cedar call policy that cannot be made as asked, with a stable code.
import { ToolwireError } from "../core/errors.js";

/**
 * Why `createCedarPolicy` refused. One line each:
 * - `invalid-cedar-options`: neither or both of `policies` and `policyFile`, or a principal that is not a non-empty
 *   string.
 * - `cedar-policy-unreadable`: the policy file cannot be read.
 * - `cedar-policy-invalid`: the policies do not parse, use templates, or break the schema; the message names the
 *   file, the line and Cedar's words.
 * - `cedar-schema-invalid`: the schema does not parse.
 * - `cedar-entities-invalid`: the entities do not parse (or break the schema), or declare a `Toolwire::Tool`, which
 *   toolwire makes for each call.
 */
export type CedarPolicyErrorCode =
  | "invalid-cedar-options"
  | "cedar-policy-unreadable"
  | "cedar-policy-invalid"
  | "cedar-schema-invalid"
  | "cedar-entities-invalid";

/** A Cedar call policy's options, policies, schema or entities were wrong; the message says what and where. */
export class CedarPolicyError extends ToolwireError<CedarPolicyErrorCode> {
  override readonly name = "CedarPolicyError";
}
