// The tools a skill-triggered call may use: the session's policy, narrowed by the skill's allowed-tools, failing
// closed.
import type { PolicyLayer, ToolDescriptor } from "../types.js";
import { applyToolPolicy } from "./policy.js";

/** What `resolveSkillDispatchTools` takes. */
export interface SkillDispatchRequest {
  /** Every tool the session could offer. */
  readonly tools: readonly ToolDescriptor[];
  /** The session's policy layers. */
  readonly layers: readonly PolicyLayer[];
  /** The skill behind the call. `allowedTools` uses policy-pattern syntax; an empty list allows none. */
  readonly skill: { readonly name: string; readonly allowedTools?: readonly string[] };
  /** Who vouches for the call; absent, or for another session, means no tools. */
  readonly authority?: { readonly sessionId: string };
  /** The session the call runs in. */
  readonly sessionId: string;
}

/**
 * The tools a call triggered by a skill may use: those the session's layers keep and, when the skill
 * lists `allowedTools`, only those it lists. Fails closed, returning no tools, when `authority` is
 * absent, names another session, or either session id is not a non-empty string, and when
 * `allowedTools` is present but not a list of strings.
 */
export function resolveSkillDispatchTools(request: SkillDispatchRequest): { tools: ToolDescriptor[] } {
  const { authority, sessionId, skill } = request;
  if (typeof sessionId !== "string" || sessionId === "") return { tools: [] };
  if (typeof authority !== "object" || authority === null || authority.sessionId !== sessionId) return { tools: [] };
  const allowedTools = skill?.allowedTools;
  if (allowedTools !== undefined) {
    if (!Array.isArray(allowedTools) || !allowedTools.every((pattern) => typeof pattern === "string")) {
      return { tools: [] };
    }
    if (allowedTools.length === 0) return { tools: [] };
  }
  const layers: PolicyLayer[] = [...request.layers];
  if (allowedTools !== undefined) layers.push({ label: `skill:${skill.name}`, allow: allowedTools });
  return { tools: applyToolPolicy(request.tools, layers).kept };
}
