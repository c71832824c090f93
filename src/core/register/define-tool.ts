// defineTool: a typed, validated AgentTool from a name, a description, a schema and an execute function.
import { ToolDefinitionError, toolCallRefusal } from "../errors.js";
import { TOOL_NAME_PATTERN } from "../filter/descriptor.js";
import { isRecord } from "../json.js";
import type {
  AgentTool,
  JsonObject,
  ToolAvailabilityExpression,
  ToolCallContext,
  ToolDescriptor,
  ToolEffects,
  ToolExecutionMode,
  ToolExecutorRef,
  ToolOwnerRef,
  ToolResult,
  ToolTrust,
} from "../types.js";
import type { InferToolInput, StandardSchemaIssue, StandardSchemaV1, ToolSchemaInput } from "./schema-types.js";

/** Everything `defineTool` takes. Only `name`, `description`, `inputSchema` and `execute` are required. */
export interface ToolDefinition<S extends ToolSchemaInput> {
  readonly name: string;
  readonly description: string;
  /** Plain JSON Schema, a TypeBox 1.x schema, or a Standard Schema with JSON Schema output (zod 4). */
  readonly inputSchema: S;
  readonly title?: string;
  readonly outputSchema?: JsonObject;
  /** Default `{ kind: "core" }`. */
  readonly owner?: ToolOwnerRef;
  /** Default: derived from the owner and the name. */
  readonly executor?: ToolExecutorRef;
  readonly availability?: ToolAvailabilityExpression;
  readonly annotations?: JsonObject;
  /** MCP's tool icons, passed on by `serveMcp`. */
  readonly icons?: readonly JsonObject[];
  /** MCP's tool `_meta`, passed on by `serveMcp`. */
  readonly _meta?: JsonObject;
  readonly sortKey?: string;
  /**
   * `true` defers the tool: the model finds it through `tool_search` instead of getting its definition up front
   * (docs/deferred-tools.md). Calling it by name works either way. Default false.
   */
  readonly defer?: boolean;
  /**
   * `"untrusted"` when its results may carry text from outside that tries to steer the model (a web page, a message
   * from someone else): a call of it taints the session (docs/security.md). Default `"trusted"` (MCP tools: untrusted).
   */
  readonly trust?: ToolTrust;
  /**
   * What a call can change: `"none"`, `"local"` (files here) or `"external"` (commands, the network, other systems).
   * Default: `"external"`, so an undeclared tool is guarded by flow rules.
   */
  readonly effects?: ToolEffects;
  readonly executionMode?: ToolExecutionMode;
  /**
   * `true` when a second run with the same input and `context.idempotencyKey` changes nothing more: a durable run
   * whose process died during the call runs it again (docs/durable-runs.md). Default false.
   */
  readonly idempotent?: boolean;
  /**
   * `"live"`: a replayed run (docs/replay.md) runs its calls for real (a clock, a read of the files the test set up)
   * instead of answering them from the recording. Default: answered from the recording.
   */
  readonly replay?: "live";
  /** How long its executor may run, in milliseconds; `Infinity` for no limit. Default: the session's. */
  readonly timeoutMs?: number;
  /** Results with more characters of text than this are saved to a file and previewed. Default: the session's. */
  readonly maxResultChars?: number;
  /** Runs the tool. Return a string (one text block) or a `ToolResult`; throw to fail. */
  execute(input: InferToolInput<S>, context: ToolCallContext): Promise<ToolResult | string> | ToolResult | string;
}

/** Whether a value can be a result limit: a positive number of characters, or `Infinity` for none. */
export function isResultLimit(value: unknown): value is number {
  return typeof value === "number" && value > 0;
}

/** The executor ref a tool gets when its definition names none. */
function defaultExecutorRef(owner: ToolOwnerRef, name: string): ToolExecutorRef {
  switch (owner.kind) {
    case "core":
      return { kind: "core", executorId: name };
    case "plugin":
      return { kind: "plugin", pluginId: owner.pluginId, toolName: name };
    case "mcp":
      return { kind: "mcp", serverId: owner.serverId, toolName: name };
    case "channel":
      return { kind: "channel", channelId: owner.channelId, actionId: name };
  }
}

/**
 * Defines a tool. The schema is converted once to a frozen JSON Schema (a Standard Schema through
 * `~standard.jsonSchema.input`), so validators compile once and providers see stable bytes. A
 * Standard Schema also parses the input before `execute`, so its defaults and transforms apply.
 * Throws `ToolDefinitionError` on a bad name, schema, mode, timeout, result limit, `defer`, `trust` or `effects`.
 */
export function defineTool<const S extends ToolSchemaInput>(definition: ToolDefinition<S>): AgentTool {
  const { name } = definition;
  const fail = (code: "invalid-tool-definition" | "invalid-schema", message: string): never => {
    throw new ToolDefinitionError(code, String(name), message);
  };
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    fail(
      "invalid-tool-definition",
      `Invalid tool name ${JSON.stringify(name)}: a name must match ${TOOL_NAME_PATTERN}`,
    );
  }
  if (typeof definition.description !== "string") fail("invalid-tool-definition", `Tool ${name} needs a description`);
  if (typeof definition.execute !== "function")
    fail("invalid-tool-definition", `Tool ${name} needs an execute function`);
  const { executionMode, timeoutMs, maxResultChars, defer } = definition;
  if (defer !== undefined && typeof defer !== "boolean") {
    fail("invalid-tool-definition", `Tool ${name} has defer ${String(defer)}, expected true or false`);
  }
  const { trust, effects, idempotent } = definition;
  if (definition.replay !== undefined && definition.replay !== "live") {
    fail("invalid-tool-definition", `Tool ${name} has replay ${JSON.stringify(definition.replay)}, expected "live"`);
  }
  if (idempotent !== undefined && typeof idempotent !== "boolean") {
    fail("invalid-tool-definition", `Tool ${name} has idempotent ${String(idempotent)}, expected true or false`);
  }
  if (trust !== undefined && trust !== "trusted" && trust !== "untrusted") {
    fail(
      "invalid-tool-definition",
      `Tool ${name} has trust ${JSON.stringify(trust)}, expected "trusted" or "untrusted"`,
    );
  }
  if (effects !== undefined && effects !== "none" && effects !== "local" && effects !== "external") {
    fail(
      "invalid-tool-definition",
      `Tool ${name} has effects ${JSON.stringify(effects)}, expected "none", "local" or "external"`,
    );
  }
  if (executionMode !== undefined && executionMode !== "parallel" && executionMode !== "sequential") {
    fail(
      "invalid-tool-definition",
      `Tool ${name} has executionMode ${JSON.stringify(executionMode)}, expected "parallel" or "sequential"`,
    );
  }
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
    fail(
      "invalid-tool-definition",
      `Tool ${name} has timeoutMs ${String(timeoutMs)}, expected a positive number (or Infinity for no limit)`,
    );
  }
  const standard = asStandardSchema(definition.inputSchema);
  const inputSchema = toFrozenJsonSchema(name, definition.inputSchema);
  const owner = definition.owner ?? { kind: "core" };
  const descriptor: ToolDescriptor = Object.freeze(
    dropUndefined({
      name,
      title: definition.title,
      description: definition.description,
      inputSchema,
      outputSchema: definition.outputSchema,
      owner,
      executor: definition.executor ?? defaultExecutorRef(owner, name),
      availability: definition.availability,
      annotations: definition.annotations,
      icons: definition.icons,
      _meta: definition._meta,
      sortKey: definition.sortKey,
      defer: defer === true ? true : undefined,
      trust,
      effects,
    }),
  );
  const run = definition.execute as (input: unknown, context: ToolCallContext) => Promise<ToolResult | string>;
  const execute =
    standard === undefined
      ? (input: JsonObject, context: ToolCallContext) => run(input, context)
      : async (input: JsonObject, context: ToolCallContext) => run(await parseStandard(name, standard, input), context);
  if (maxResultChars !== undefined && !isResultLimit(maxResultChars)) {
    fail(
      "invalid-tool-definition",
      `Tool ${name} has maxResultChars ${String(maxResultChars)}, expected a positive number (or Infinity for no limit)`,
    );
  }
  return Object.freeze(
    dropUndefined({
      descriptor,
      executionMode,
      timeoutMs,
      maxResultChars,
      idempotent: idempotent === true || undefined,
      replay: definition.replay,
      execute,
    }),
  ) as AgentTool;
}

function asStandardSchema(schema: unknown): StandardSchemaV1 | undefined {
  if (!isRecord(schema)) return undefined;
  const standard = schema["~standard"];
  return isRecord(standard) && typeof standard.validate === "function"
    ? (schema as unknown as StandardSchemaV1)
    : undefined;
}

function toFrozenJsonSchema(name: string, schema: unknown): JsonObject {
  let json: unknown = schema;
  const standard = isRecord(schema) ? schema["~standard"] : undefined;
  if (isRecord(standard)) {
    const converter = isRecord(standard.jsonSchema) ? standard.jsonSchema.input : undefined;
    if (typeof converter !== "function") {
      throw new ToolDefinitionError(
        "invalid-schema",
        name,
        `Tool ${name}: this Standard Schema (${String(standard.vendor)}) has no JSON Schema output (~standard.jsonSchema); use a library that provides it, such as zod 4`,
      );
    }
    try {
      json = converter({ target: "draft-07" });
    } catch (error) {
      throw new ToolDefinitionError(
        "invalid-schema",
        name,
        `Tool ${name}: its schema cannot be converted to JSON Schema: ${(error as Error).message}`,
      );
    }
  }
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(json));
  } catch (error) {
    throw new ToolDefinitionError(
      "invalid-schema",
      name,
      `Tool ${name}: its inputSchema is not JSON: ${(error as Error).message}`,
    );
  }
  if (!isRecord(copy) || copy.type !== "object") {
    throw new ToolDefinitionError(
      "invalid-schema",
      name,
      `Tool ${name}: inputSchema must be a JSON Schema with type "object", got ${isRecord(copy) ? `type ${JSON.stringify(copy.type) ?? "missing"}` : typeof copy}`,
    );
  }
  return deepFreeze(copy) as JsonObject;
}

async function parseStandard(name: string, schema: StandardSchemaV1, input: JsonObject): Promise<unknown> {
  const outcome = await schema["~standard"].validate(input);
  if (outcome.issues === undefined) return outcome.value;
  const lines = outcome.issues.map((issue) => `- ${formatIssuePath(issue)}: ${issue.message}`);
  throw toolCallRefusal(
    "invalid-input",
    name,
    `Invalid input for tool ${name}:\n${lines.join("\n")}\nFix these fields and call ${name} again.`,
  );
}

function formatIssuePath(issue: StandardSchemaIssue): string {
  let path = "input";
  for (const segment of issue.path ?? []) {
    const key = typeof segment === "object" ? segment.key : segment;
    path += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  }
  return path;
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * A copy with only the defined keys, built by adding them (deleting keys from an object would put it in
 * V8's slow dictionary mode, and descriptors are read on every refresh, plan and call).
 */
function dropUndefined<T extends object>(record: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
  return out as T;
}
