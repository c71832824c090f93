// The call-policy phase's question and answer: one call judged by `flow.policy` before its approval.
import { frozenJsonCopy } from "../approve/frozen-json-copy.js";
import { cutText, describeThrown } from "../errors.js";
import { isRecord } from "../json.js";
import type { CallPolicy, CallPolicyRequest, JsonObject, ToolDescriptor } from "../types.js";
import { isThenable, settleHook } from "../wrap/hooks.js";
import type { Flow } from "./create-flow.js";
import { toolEffects } from "./tool-provenance.js";

/** The call as a policy sees it. */
interface PolicySubject {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JsonObject;
  readonly descriptor: ToolDescriptor;
  readonly parentToolCallId?: string;
}

/**
 * Asks `policy` about one call: `undefined` when it allows the call, else the refusal's message, naming the rule
 * that denied it. A throw, a rejection, an answer that is not a decision, or no answer within `timeoutMs` denies.
 * Never rejects.
 */
export async function askCallPolicy(
  policy: CallPolicy,
  flow: Flow,
  call: PolicySubject,
  timeoutMs: number,
): Promise<string | undefined> {
  const { descriptor } = call;
  const request: CallPolicyRequest = Object.freeze({
    ...call,
    input: frozenJsonCopy(call.input),
    trust: flow.isUntrusted(descriptor) ? "untrusted" : "trusted",
    effects: toolEffects(descriptor),
    guarded: flow.isGuarded(descriptor),
    tainted: flow.view.tainted,
    sources: Object.freeze(flow.view.sources),
  });
  let decision: unknown;
  try {
    decision = policy(request);
    if (isThenable(decision)) decision = await settleHook(decision, timeoutMs, "The call policy");
  } catch (error) {
    return `Tool call ${call.toolName} denied: the call policy failed (${describeThrown(error)}).`;
  }
  if (decision === undefined) return undefined;
  if (!isRecord(decision) || decision.deny !== true) {
    return `Tool call ${call.toolName} denied: the call policy answered ${describeThrown(decision)}, not a decision.`;
  }
  const { rule, reason } = decision;
  const named = typeof rule === "string" && rule !== "" ? ` by rule "${cutText(rule, 200)}"` : "";
  const why = typeof reason === "string" && reason !== "" ? `: ${cutText(reason, 1000)}` : ".";
  return `Tool call ${call.toolName} denied by the call policy${named}${why}`;
}
