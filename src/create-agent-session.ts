// The public createAgentSession: the core session with ajv as its default validator.
import {
  type AgentSession,
  type AgentSessionOptions,
  createAgentSession as createCoreSession,
} from "./core/dispatch/session.js";
import { createAjvValidator } from "./validation/ajv-validator.js";

/**
 * Creates a session over a registry (SPEC section 6). Inputs are validated with ajv, compiled once
 * per schema; pass `validator` to use another.
 */
export function createAgentSession(options: AgentSessionOptions): AgentSession {
  return createCoreSession({ ...options, validator: options.validator ?? createAjvValidator });
}
