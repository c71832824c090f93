// The public createAgentSession: the core session with ajv as its default validator, and OpenTelemetry for `telemetry`.
import {
  type AgentSession,
  type AgentSessionOptions,
  createAgentSession as createCoreSession,
} from "./core/dispatch/session.js";
import { createOtelTelemetry } from "./telemetry/create-otel-telemetry.js";
import { createAjvValidator } from "./validation/ajv-validator.js";

/**
 * Creates a session over a registry (docs/core.md). Inputs are validated with ajv, compiled once
 * per schema; pass `validator` to use another. With `telemetry`, every call is an OpenTelemetry span
 * (docs/telemetry.md); `@opentelemetry/api` must then be installed.
 */
export function createAgentSession(options: AgentSessionOptions): AgentSession {
  return createCoreSession({
    ...options,
    validator: options.validator ?? createAjvValidator,
    createTelemetry: createOtelTelemetry,
  });
}
