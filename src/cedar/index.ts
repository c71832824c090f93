// toolwire/cedar: call policies written in Cedar, judging each call before its approval (docs/cedar.md).

export { CedarPolicyError, type CedarPolicyErrorCode } from "./cedar-policy-error.js";
export {
  type CedarPolicy,
  type CedarPolicyOptions,
  createCedarPolicy,
  DEFAULT_MAX_CEDAR_INPUT_CHARS,
} from "./create-cedar-policy.js";
