// Availability: the conditions a tool needs before a model may see it, and why it is hidden when one fails.
import type { JsonObject, JsonPrimitive, JsonValue } from "./json.js";

/** One condition a tool needs before a model may see it. */
export type ToolAvailabilitySignal =
  | { readonly kind: "always" }
  | { readonly kind: "auth"; readonly providerId: string }
  | {
      readonly kind: "config";
      readonly path: readonly string[];
      /** Default `"exists"`. */
      readonly check?: "exists" | "non-empty" | "available";
    }
  | { readonly kind: "env"; readonly name: string }
  | { readonly kind: "plugin-enabled"; readonly pluginId: string }
  | { readonly kind: "context"; readonly key: string; readonly equals?: JsonPrimitive }
  /**
   * Something the host can do, such as `"sandbox"` (bubblewrap usable); judged against `capabilities`. `explanation`,
   * when given, says why the tool needs it or why it is missing here; the diagnostic's message repeats it.
   */
  | { readonly kind: "capability"; readonly name: string; readonly explanation?: string };

/** A tiny boolean language over signals. */
export type ToolAvailabilityExpression =
  | ToolAvailabilitySignal
  | { readonly allOf: readonly ToolAvailabilityExpression[] }
  | { readonly anyOf: readonly ToolAvailabilityExpression[] };

/** What availability is judged against. Every part is optional; a missing part fails the signals that need it. */
export interface ToolAvailabilityContext {
  readonly authProviderIds?: ReadonlySet<string>;
  readonly config?: JsonObject;
  readonly isConfigValueAvailable?: (query: {
    value: JsonValue;
    path: readonly string[];
    signal: ToolAvailabilitySignal;
  }) => boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly enabledPluginIds?: ReadonlySet<string>;
  readonly values?: Readonly<Record<string, JsonPrimitive | undefined>>;
  /** What this host can do (for example `"sandbox"` when bubblewrap works here); read by `capability` signals. */
  readonly capabilities?: ReadonlySet<string>;
}

/**
 * Why a tool is hidden: the kind of availability signal that failed (each diagnostic carries one), or
 * `definition-changed` (an MCP tool's listed definition no longer matches its pin, docs/pins.md).
 */
type ToolUnavailableReason =
  | "auth-missing"
  | "capability-missing"
  | "config-missing"
  | "context-mismatch"
  | "definition-changed"
  | "env-missing"
  | "plugin-disabled"
  | "unsupported-signal";

/** Why a tool is not available, in words a person can act on. */
export interface ToolAvailabilityDiagnostic {
  readonly reason: ToolUnavailableReason;
  readonly signal?: ToolAvailabilitySignal;
  readonly message: string;
}
