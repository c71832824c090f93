// A call policy's request in Cedar's terms: principal, action, resource (with its entity) and context.

import type { CallPolicyRequest } from "../core/types/flow.js";
import type { JsonObject, JsonValue } from "../core/types/json.js";
import { type CedarValue, toCedarValue } from "./to-cedar-value.js";

/** Cedar's entity reference. */
export interface CedarEntityUid {
  readonly type: string;
  readonly id: string;
}

/** One call as Cedar judges it. */
export interface CedarRequest {
  readonly principal: CedarEntityUid;
  readonly action: CedarEntityUid;
  readonly resource: CedarEntityUid;
  readonly context: Record<string, CedarValue>;
  /** The tool's entity, with its attributes. */
  readonly resourceEntity: { uid: CedarEntityUid; attrs: Record<string, CedarValue>; parents: [] };
}

/** The entity types of toolwire's requests (docs/cedar.md). */
export const CEDAR_TYPES = {
  principal: "Toolwire::Principal",
  action: "Toolwire::Action",
  resource: "Toolwire::Tool",
} as const;

/**
 * Builds the Cedar request of one call for `principal`. Returns a reason instead when the input or the tool's
 * annotations hold what Cedar cannot (see `toCedarValue`), or the input is longer than `maxInputChars` as JSON.
 */
export function buildCedarRequest(
  principal: string,
  request: CallPolicyRequest,
  maxInputChars: number,
): { kind: "request"; request: CedarRequest } | { kind: "unrepresentable"; reason: string } {
  const input = toCedarValue(request.input, "the input");
  if (input.kind === "unrepresentable") return input;
  // Cedar's cost grows faster than the input (docs/cedar.md): a large input is refused rather than judged slowly.
  const size = JSON.stringify(input.value).length;
  if (size > maxInputChars) {
    return {
      kind: "unrepresentable",
      reason: `the input is ${size} characters of JSON, more than the policy's maxInputChars (${maxInputChars})`,
    };
  }
  const annotations = toCedarValue(request.descriptor.annotations ?? {}, "the tool's annotations");
  if (annotations.kind === "unrepresentable") return annotations;
  const owner = toCedarValue(request.descriptor.owner as unknown as JsonValue, "the tool's owner");
  if (owner.kind === "unrepresentable") return owner;
  const tool = { type: CEDAR_TYPES.resource, id: request.toolName };
  const context: Record<string, CedarValue> = {
    toolCallId: request.toolCallId,
    input: input.value,
    tainted: request.tainted,
    sources: request.sources.map((source) => ({ toolCallId: source.toolCallId, toolName: source.toolName })),
    sourceTools: [...new Set(request.sources.map((source) => source.toolName))],
    trust: request.trust,
    effects: request.effects,
    guarded: request.guarded,
  };
  if (request.parentToolCallId !== undefined) context.parentToolCallId = request.parentToolCallId;
  return {
    kind: "request",
    request: {
      principal: { type: CEDAR_TYPES.principal, id: principal },
      action: { type: CEDAR_TYPES.action, id: request.toolName },
      resource: tool,
      context,
      resourceEntity: {
        uid: tool,
        attrs: {
          name: request.toolName,
          trust: request.trust,
          effects: request.effects,
          guarded: request.guarded,
          owner: owner.value,
          annotations: annotations.value,
        },
        parents: [],
      },
    },
  };
}

/** Whether a user's entity (Cedar's JSON: `{ uid: { type, id } }` or `{ uid: { __entity: { type, id } } }`) is a tool. */
export function isToolEntity(entity: JsonObject): boolean {
  const uid = entity.uid as { type?: unknown; __entity?: { type?: unknown } } | undefined;
  return uid?.type === CEDAR_TYPES.resource || uid?.__entity?.type === CEDAR_TYPES.resource;
}
