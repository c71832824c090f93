// A session that is another session with some members replaced: the recorder's and the replay's dispatch.
import type { AgentSession } from "../core/dispatch/session.js";

/** `session` as it is, except `overrides`; its own methods stay bound to it (its getters read its own state). */
export function overrideSession(session: AgentSession, overrides: Partial<AgentSession>): AgentSession {
  return new Proxy(session, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof AgentSession];
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
