// The providers' published rules for tool definitions, as checkers: each gives what a provider would refuse, one line each.
import { isRecord } from "../../src/core/json.js";

type Node = Record<string, unknown>;

// ---------------------------------------------------------------- OpenAI
// Function names: "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64".
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Structured Outputs, supported schemas: types, per-type keywords, string formats, limits.
const OPENAI_TYPES = new Set(["string", "number", "boolean", "integer", "object", "array", "null"]);
const OPENAI_COMMON = new Set(["type", "description", "title", "enum", "anyOf", "$ref"]);
const OPENAI_TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ["pattern", "format"],
  number: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  integer: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  array: ["items", "minItems", "maxItems"],
  object: ["properties", "required", "additionalProperties"],
};
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** What OpenAI refuses in a strict function's `parameters` (Structured Outputs' supported-schema rules). */
export function openAIStrictViolations(schema: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(schema)) return ["#: not a schema object"];
  if (schema.type !== "object") problems.push("#: the root must be an object");
  if (schema.anyOf !== undefined) problems.push("#: the root must not be anyOf");
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const counts = { properties: 0, enumValues: 0, stringLength: 0 };
  const visit = (node: unknown, path: string, objectDepth: number) => {
    if (!isRecord(node)) {
      problems.push(`${path}: not a schema object`);
      return;
    }
    if (typeof node.$ref === "string") {
      const match = /^#\/\$defs\/(.+)$/.exec(node.$ref);
      if (node.$ref !== "#" && (match === null || !Object.hasOwn(defs, decodeURIComponent(match[1] as string)))) {
        problems.push(`${path}: $ref ${node.$ref} does not resolve into $defs`);
      }
      for (const key of Object.keys(node)) {
        if (key !== "$ref" && key !== "description") problems.push(`${path}: ${key} beside $ref`);
      }
      return;
    }
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.length === 0 && !Array.isArray(node.anyOf)) problems.push(`${path}: no type`);
    const allowed = new Set(OPENAI_COMMON);
    for (const type of types) {
      if (!OPENAI_TYPES.has(type)) problems.push(`${path}: type ${JSON.stringify(type)} is not supported`);
      for (const key of OPENAI_TYPE_KEYWORDS[type] ?? []) allowed.add(key);
    }
    if (path === "#") allowed.add("$defs");
    for (const key of Object.keys(node)) if (!allowed.has(key)) problems.push(`${path}: ${key} is not permitted`);
    if (node.format !== undefined && !OPENAI_FORMATS.has(node.format as string)) {
      problems.push(`${path}: format ${JSON.stringify(node.format)} is not supported`);
    }
    if (Array.isArray(node.enum)) {
      const length = node.enum.reduce((sum: number, value) => sum + (typeof value === "string" ? value.length : 0), 0);
      counts.enumValues += node.enum.length;
      counts.stringLength += length;
      if (node.enum.length > 250 && length > 15_000) problems.push(`${path}: a long enum over 15,000 characters`);
    }
    if (Array.isArray(node.anyOf)) {
      for (const [index, child] of node.anyOf.entries()) visit(child, `${path}/anyOf/${index}`, objectDepth);
    }
    if (types.includes("object")) {
      if (objectDepth + 1 > 10) problems.push(`${path}: more than 10 levels of nesting`);
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const properties = isRecord(node.properties) ? node.properties : undefined;
      if (properties === undefined) problems.push(`${path}: an object without properties`);
      const names = Object.keys(properties ?? {});
      const required = Array.isArray(node.required) ? node.required : [];
      if (names.length !== required.length || names.some((name) => !required.includes(name))) {
        problems.push(`${path}: every property must be required`);
      }
      counts.properties += names.length;
      for (const name of names) {
        counts.stringLength += name.length;
        visit(properties?.[name], `${path}/properties/${name}`, objectDepth + 1);
      }
    }
    if (types.includes("array")) {
      if (node.items === undefined || Array.isArray(node.items)) problems.push(`${path}: items must be one schema`);
      else visit(node.items, `${path}/items`, objectDepth);
    }
  };
  visit(schema, "#", 0);
  for (const [name, definition] of Object.entries(defs)) {
    counts.stringLength += name.length;
    visit(definition, `#/$defs/${name}`, 0);
  }
  if (counts.properties > 5000) problems.push("#: more than 5,000 properties");
  if (counts.enumValues > 1000) problems.push("#: more than 1,000 enum values");
  if (counts.stringLength > 120_000) problems.push("#: names and enum values over 120,000 characters");
  return problems;
}

/**
 * What OpenAI refuses in a function tool (Chat's `function`, or a Responses function tool): its name, its
 * `parameters` an object schema, an array schema without `items` (refused even without strict), and with
 * `strict: true` the strict rules.
 */
export function openAIFunctionViolations(tool: { name: unknown; parameters?: unknown; strict?: unknown }): string[] {
  const name = String(tool.name);
  const problems = OPENAI_NAME.test(name) ? [] : [`${name}: the name does not match ${OPENAI_NAME}`];
  if (!isRecord(tool.parameters) || tool.parameters.type !== "object") {
    problems.push(`${name}: parameters must be an object schema`);
  }
  for (const [path, node] of schemaNodes(tool.parameters)) {
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.includes("array") && node.items === undefined)
      problems.push(`${name} ${path}: array schema missing items`);
  }
  if (tool.strict === true) problems.push(...openAIStrictViolations(tool.parameters).map((line) => `${name} ${line}`));
  return problems;
}

// Responses input (openai@7.59 responses.d.ts): a function_call_output answers a function_call of the input; a call
// a program made (`caller: { type: "program", caller_id }`) comes after that program item, whose `fingerprint` "must be
// round-tripped"; the output of such a call names the same caller (what the official Agents SDK sends).

/** What OpenAI refuses in a Responses request's `input` list around tool calls and programmatic tool calling. */
export function openAIResponsesInputViolations(input: unknown): string[] {
  if (!Array.isArray(input)) return ["input is not a list"];
  const problems: string[] = [];
  const programs = new Set<unknown>();
  const calls = new Map<unknown, Node>();
  for (const [index, item] of input.entries()) {
    if (!isRecord(item)) continue;
    if (item.type === "program") {
      if (typeof item.fingerprint !== "string" || item.fingerprint === "") {
        problems.push(`input[${index}]: a program item without its fingerprint`);
      }
      programs.add(item.call_id);
    } else if (item.type === "function_call") {
      if (isRecord(item.caller) && item.caller.type === "program" && !programs.has(item.caller.caller_id)) {
        problems.push(`input[${index}]: ${String(item.call_id)} names a program not before it in the input`);
      }
      calls.set(item.call_id, item);
    } else if (item.type === "function_call_output") {
      const call = calls.get(item.call_id);
      if (call === undefined) problems.push(`input[${index}]: ${String(item.call_id)} answers no function_call`);
      else if (JSON.stringify(call.caller ?? null) !== JSON.stringify(item.caller ?? call.caller ?? null)) {
        problems.push(`input[${index}]: ${String(item.call_id)} names another caller than its call`);
      } else if (isRecord(call.caller) && call.caller.type === "program" && item.caller === undefined) {
        problems.push(`input[${index}]: ${String(item.call_id)} answers a program's call without its caller`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- Anthropic
// Tool names: ^[a-zA-Z0-9_-]{1,128}$; input_schema: a JSON Schema of type object whose property keys match
// ^[a-zA-Z0-9_.-]{1,64}$ (the API's own 400 messages).
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const ANTHROPIC_PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;

/** What Anthropic refuses in a tool definition. */
export function anthropicToolViolations(tool: { name: unknown; input_schema?: unknown }): string[] {
  const name = String(tool.name);
  const problems = ANTHROPIC_NAME.test(name) ? [] : [`${name}: the name does not match ${ANTHROPIC_NAME}`];
  if (!isRecord(tool.input_schema) || tool.input_schema.type !== "object") {
    problems.push(`${name}: input_schema must be of type object`);
  }
  for (const [path, node] of schemaNodes(tool.input_schema)) {
    if (!isRecord(node.properties)) continue;
    for (const key of Object.keys(node.properties)) {
      if (!ANTHROPIC_PROPERTY_KEY.test(key)) problems.push(`${name} ${path}: property key ${JSON.stringify(key)}`);
    }
  }
  return problems;
}

// Programmatic tool calling (platform.claude.com, "Programmatic tool calling"; @anthropic-ai/sdk 1.10 Tool and
// ToolUseBlock types): allowed_callers values; a code execution caller needs that code execution tool in the request;
// not with strict tools, nor a tool_choice forcing a tool only programs may call; answering a program's calls, the
// user message holds tool_result blocks only; while a program waits, the request names its container ("container_id
// is required when there are pending tool uses generated by code execution with tools").
const ANTHROPIC_CALLERS = new Set([
  "direct",
  "code_execution_20250825",
  "code_execution_20260120",
  "code_execution_20260521",
]);

/** Whether a tool_use block was made by a code execution program (its `caller` names a code execution version). */
function isProgramCall(block: unknown): boolean {
  return (
    isRecord(block) &&
    block.type === "tool_use" &&
    isRecord(block.caller) &&
    String(block.caller.type).startsWith("code_execution_")
  );
}

/**
 * What Anthropic refuses in a Messages request body beyond its tool definitions: programmatic tool calling's rules
 * (above), and every tool_use answered by a tool_result in the user message right after it.
 */
export function anthropicRequestViolations(body: unknown): string[] {
  if (!isRecord(body)) return ["the body is not an object"];
  const problems: string[] = [];
  const tools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  const serverTools = new Set(tools.map((tool) => tool.type).filter((type) => typeof type === "string"));
  const programOnly = new Set<unknown>();
  for (const tool of tools) {
    if (tool.allowed_callers === undefined) continue;
    const name = String(tool.name);
    const callers = Array.isArray(tool.allowed_callers) ? tool.allowed_callers : [];
    if (callers.length === 0) problems.push(`${name}: allowed_callers must be a non-empty list`);
    for (const caller of callers) {
      if (!ANTHROPIC_CALLERS.has(caller as string)) problems.push(`${name}: allowed_callers ${JSON.stringify(caller)}`);
      else if (caller !== "direct" && !serverTools.has(caller)) {
        problems.push(`${name}: allowed_callers ${caller} without the ${caller} tool`);
      }
    }
    const programmatic = callers.some((caller) => caller !== "direct");
    if (programmatic && tool.strict === true) problems.push(`${name}: strict with programmatic callers`);
    if (programmatic && !callers.includes("direct")) programOnly.add(tool.name);
  }
  if (isRecord(body.tool_choice) && body.tool_choice.type === "tool" && programOnly.has(body.tool_choice.name)) {
    problems.push(`tool_choice forces ${String(body.tool_choice.name)}, which only programs may call`);
  }
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  for (const [index, message] of messages.entries()) {
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    const uses = message.content.filter((block) => isRecord(block) && block.type === "tool_use") as Node[];
    if (uses.length === 0) continue;
    const serverUses = new Set(
      message.content.filter((block) => isRecord(block) && block.type === "server_tool_use").map((block) => block.id),
    );
    for (const use of uses) {
      if (isProgramCall(use) && !serverUses.has((use.caller as Node).tool_id)) {
        problems.push(`messages[${index}]: ${String(use.id)} names a program that is not in the message`);
      }
    }
    const next = messages[index + 1];
    const answers = next?.role === "user" && Array.isArray(next.content) ? next.content : [];
    const answered = new Set(
      answers.filter((block) => isRecord(block) && block.type === "tool_result").map((block) => block.tool_use_id),
    );
    if (next === undefined) {
      if (uses.some(isProgramCall) && (typeof body.container !== "string" || body.container === "")) {
        problems.push(`messages[${index}]: a program waits for results and the request names no container`);
      }
      continue;
    }
    for (const use of uses) {
      if (!answered.has(use.id)) problems.push(`messages[${index + 1}]: no tool_result for ${String(use.id)}`);
    }
    if (!uses.some(isProgramCall)) continue;
    // Consecutive user messages are joined into one turn: whatever follows the results joins them.
    const following = messages[index + 2];
    if (answers.some((block) => !isRecord(block) || block.type !== "tool_result") || following?.role === "user") {
      problems.push(`messages[${index + 1}]: answering a program's calls, only tool_result blocks may be sent`);
    }
    const waiting = index + 2 >= messages.length;
    if (waiting && (typeof body.container !== "string" || body.container === "")) {
      problems.push(`messages[${index + 1}]: a program waits for these results and the request names no container`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------- Gemini
// FunctionDeclaration.name: "Must start with a letter or an underscore. Must be a-z, A-Z, 0-9, or contain
// underscores, dots, colons and dashes, with a maximum length of 64." parameters: the Schema object's fields.
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const GEMINI_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);
const GEMINI_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

/** What Gemini refuses in a function declaration. */
export function geminiDeclarationViolations(declaration: { name: unknown; parameters?: unknown }): string[] {
  const name = String(declaration.name);
  const problems = GEMINI_NAME.test(name) ? [] : [`${name}: the name does not match ${GEMINI_NAME}`];
  if (declaration.parameters === undefined) return problems;
  if (!isRecord(declaration.parameters) || declaration.parameters.type !== "object") {
    problems.push(`${name}: parameters must be of type object`);
  }
  for (const [path, node] of schemaNodes(declaration.parameters)) {
    for (const key of Object.keys(node)) if (!GEMINI_FIELDS.has(key)) problems.push(`${name} ${path}: ${key}`);
    if (node.type !== undefined && !GEMINI_TYPES.has(node.type as string)) {
      problems.push(`${name} ${path}: type ${JSON.stringify(node.type)}`);
    }
    if (Array.isArray(node.enum) && !node.enum.every((value) => typeof value === "string")) {
      problems.push(`${name} ${path}: enum values must be strings`);
    }
    if (Array.isArray(node.required)) {
      for (const key of node.required) {
        if (!isRecord(node.properties) || !Object.hasOwn(node.properties, key as string)) {
          problems.push(`${name} ${path}: required ${JSON.stringify(key)} is not a property`);
        }
      }
    }
  }
  return problems;
}

/** Every schema node with its path: properties, items, anyOf/oneOf/allOf, additionalProperties and $defs children. */
export function* schemaNodes(schema: unknown, path = "#"): Generator<[string, Node]> {
  if (!isRecord(schema)) return;
  yield [path, schema];
  for (const key of ["properties", "$defs", "definitions"]) {
    const children = schema[key];
    if (isRecord(children)) {
      for (const [name, child] of Object.entries(children)) yield* schemaNodes(child, `${path}/${key}/${name}`);
    }
  }
  for (const key of ["items", "anyOf", "oneOf", "allOf", "additionalProperties"]) {
    const children = schema[key];
    if (Array.isArray(children)) {
      for (const [index, child] of children.entries()) yield* schemaNodes(child, `${path}/${key}/${index}`);
    } else if (isRecord(children)) yield* schemaNodes(children, `${path}/${key}`);
  }
}
