// createCedarPolicy: a call policy in Cedar, parsed and checked once, judging each call in about 0.2 ms.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { CallPolicyDecision, CallPolicyRequest } from "../core/types/flow.js";
import type { JsonObject } from "../core/types/json.js";
import { CedarPolicyError } from "./cedar-policy-error.js";
import { buildCedarRequest, isToolEntity } from "./cedar-request.js";
import { type CedarWasm, loadCedar } from "./load-cedar.js";
import { type CedarRule, describeErrors, parseCedarPolicies } from "./parse-cedar-policies.js";

/** What `createCedarPolicy` takes (docs/cedar.md). */
export interface CedarPolicyOptions {
  /** Cedar policies as text. Give exactly one of `policies` and `policyFile`. */
  readonly policies?: string;
  /** A file of Cedar policies (UTF-8), read once. */
  readonly policyFile?: string;
  /** The session's principal: every request's principal is `Toolwire::Principal::"<principal>"`. */
  readonly principal: string;
  /**
   * More entities in Cedar's JSON form (`{ uid: { type, id }, attrs, parents }`), such as the principal's groups and
   * attributes. Not `Toolwire::Tool` ones: toolwire makes the tool's entity for each call.
   */
  readonly entities?: readonly JsonObject[];
  /**
   * A Cedar schema, as text or in its JSON form. The policies are validated against it (strict mode) when the policy
   * is made, and each request too: then every tool must be an action of the schema.
   */
  readonly schema?: string | JsonObject;
  /**
   * The longest input, as JSON text, that the policy judges (default `DEFAULT_MAX_CEDAR_INPUT_CHARS`); a longer one
   * is denied, since Cedar's time grows faster than the input's size.
   */
  readonly maxInputChars?: number;
}

/** The default `maxInputChars`: 64 KiB of JSON text, which Cedar judges in about 1 ms (docs/cedar.md). */
export const DEFAULT_MAX_CEDAR_INPUT_CHARS = 65_536;

/**
 * A Cedar call policy for one principal: give it to `createAgentSession({ flow: { policy } })`. It never throws or
 * rejects: a call it cannot judge is denied, with the reason.
 */
export interface CedarPolicy {
  (request: CallPolicyRequest): CallPolicyDecision;
  readonly principal: string;
  /** The same parsed policies for another principal (a gateway's sessions); parses nothing again. */
  forPrincipal(principal: string): CedarPolicy;
}

/**
 * Makes a call policy from Cedar policies: `Toolwire::Principal::"<principal>"` asks for action
 * `Toolwire::Action::"<tool>"` on resource `Toolwire::Tool::"<tool>"`, with the call's input and the session's taint
 * in the context (docs/cedar.md has the whole shape). Cedar's default holds: a call no policy permits is denied, and
 * a `forbid` that matches wins. A deny's `rule` is the deciding policy's `@id("...")` annotation, else its id
 * (`policy0`, `policy1`, … in the text's order). A policy that errors on a call (it reads an attribute the call
 * lacks) denies the call, naming that policy.
 *
 * Loads `@cedar-policy/cedar-wasm` (an optional peer dependency; `missing-peer-dependency` when it is not installed)
 * and parses and checks everything once. Rejects with `CedarPolicyError`: `invalid-cedar-options`,
 * `cedar-policy-unreadable`, `cedar-policy-invalid` (naming the file, line and Cedar's words),
 * `cedar-schema-invalid`, `cedar-entities-invalid`.
 */
export async function createCedarPolicy(options: CedarPolicyOptions): Promise<CedarPolicy> {
  checkOptions(options);
  const source = options.policyFile ?? "policies";
  const text = options.policyFile === undefined ? (options.policies ?? "") : await readPolicyFile(options.policyFile);
  const cedar = await loadCedar();
  const parsed = parseCedarPolicies(cedar, text, source);
  const policySetId = `toolwire:${digest(parsed.policies)}`;
  const schemaName = options.schema === undefined ? undefined : prepareSchema(cedar, options.schema, parsed, source);
  const entities = prepareEntities(cedar, options.entities ?? [], options.schema);
  const prepared = cedar.preparsePolicySet(policySetId, { staticPolicies: parsed.policies });
  if (prepared.type === "failure") {
    throw new CedarPolicyError("cedar-policy-invalid", `${source}: ${describeErrors(prepared.errors, text, source)}`);
  }
  const maxInputChars = options.maxInputChars ?? DEFAULT_MAX_CEDAR_INPUT_CHARS;
  const judge = { cedar, policySetId, schemaName, entities, rules: parsed.rules, maxInputChars };
  return bindPrincipal(judge, options.principal);
}

interface Judge {
  readonly cedar: CedarWasm;
  readonly policySetId: string;
  readonly schemaName: string | undefined;
  readonly entities: readonly JsonObject[];
  readonly rules: ReadonlyMap<string, CedarRule>;
  readonly maxInputChars: number;
}

function bindPrincipal(judge: Judge, principal: string): CedarPolicy {
  const policy = (request: CallPolicyRequest) => decide(judge, principal, request);
  return Object.assign(policy, {
    principal,
    forPrincipal(other: string) {
      checkPrincipal(other);
      return bindPrincipal(judge, other);
    },
  });
}

function decide(judge: Judge, principal: string, call: CallPolicyRequest): CallPolicyDecision {
  const built = buildCedarRequest(principal, call, judge.maxInputChars);
  if (built.kind === "unrepresentable") return { deny: true, reason: `Cedar cannot judge this call: ${built.reason}` };
  const { request } = built;
  let answer: ReturnType<CedarWasm["statefulIsAuthorized"]>;
  try {
    answer = judge.cedar.statefulIsAuthorized({
      principal: request.principal,
      action: request.action,
      resource: request.resource,
      context: request.context as Record<string, never>,
      entities: [...judge.entities, request.resourceEntity] as never,
      preparsedPolicySetId: judge.policySetId,
      ...(judge.schemaName === undefined ? {} : { preparsedSchemaName: judge.schemaName, validateRequest: true }),
    });
  } catch (error) {
    // Cedar's wasm throws on input past its own limits; the call is denied and the next one is judged as usual.
    return {
      deny: true,
      reason: `Cedar could not judge this call: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (answer.type === "failure") {
    return {
      deny: true,
      reason: `Cedar refused the request: ${answer.errors.map((error) => error.message).join("; ")}`,
    };
  }
  const { decision, diagnostics } = answer.response;
  const failed = diagnostics.errors[0];
  if (failed !== undefined) {
    const rule = ruleOf(judge, failed.policyId);
    return {
      deny: true,
      rule: rule.name,
      reason: `the policy${lineOf(rule)} failed on this call: ${failed.error.message} (a policy tests an attribute with \`has\` before reading it)`,
    };
  }
  if (decision === "allow") return undefined;
  const [first, ...others] = diagnostics.reason.map((id) => ruleOf(judge, id)).sort((a, b) => a.offset - b.offset);
  if (first === undefined) return { deny: true, reason: "no policy permits it" };
  const also = others.length === 0 ? "" : `; ${others.map((rule) => `"${rule.name}"${lineOf(rule)}`).join(", ")} too`;
  return { deny: true, rule: first.name, reason: `the policy${lineOf(first)} forbids it${also}` };
}

function ruleOf(judge: Judge, id: string): CedarRule {
  return judge.rules.get(id) ?? { id, name: id, line: 0, offset: Number.MAX_SAFE_INTEGER, text: "" };
}

function lineOf(rule: CedarRule): string {
  return rule.line > 0 ? ` at line ${rule.line}` : "";
}

function checkOptions(options: CedarPolicyOptions): void {
  if (typeof options !== "object" || options === null) {
    throw new CedarPolicyError("invalid-cedar-options", "createCedarPolicy takes an options object");
  }
  const given = [options.policies, options.policyFile].filter((value) => value !== undefined).length;
  if (given !== 1) {
    throw new CedarPolicyError(
      "invalid-cedar-options",
      "createCedarPolicy needs exactly one of policies and policyFile",
    );
  }
  if (options.policies !== undefined && typeof options.policies !== "string") {
    throw new CedarPolicyError("invalid-cedar-options", "policies must be Cedar policy text (a string)");
  }
  if (options.policyFile !== undefined && (typeof options.policyFile !== "string" || options.policyFile === "")) {
    throw new CedarPolicyError("invalid-cedar-options", "policyFile must be a path (a non-empty string)");
  }
  if (options.entities !== undefined && !Array.isArray(options.entities)) {
    throw new CedarPolicyError("invalid-cedar-options", "entities must be an array of Cedar entities");
  }
  const max = options.maxInputChars;
  if (max !== undefined && (!Number.isSafeInteger(max) || max < 1)) {
    throw new CedarPolicyError("invalid-cedar-options", "maxInputChars must be a positive integer");
  }
  checkPrincipal(options.principal);
}

function checkPrincipal(principal: unknown): void {
  if (typeof principal !== "string" || principal === "") {
    throw new CedarPolicyError("invalid-cedar-options", 'principal must be a non-empty string, such as "local"');
  }
}

async function readPolicyFile(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new CedarPolicyError("cedar-policy-unreadable", `cannot read the Cedar policy file ${path} (${code})`, {
      cause: error,
    });
  }
}

/** Parses the schema once and validates the policies against it; returns the name Cedar keeps it under. */
function prepareSchema(
  cedar: CedarWasm,
  schema: string | JsonObject,
  parsed: ReturnType<typeof parseCedarPolicies>,
  source: string,
): string {
  const name = `toolwire:${digest(schema)}`;
  const prepared = cedar.preparseSchema(name, schema as never);
  if (prepared.type === "failure") {
    const text = typeof schema === "string" ? schema : "";
    throw new CedarPolicyError(
      "cedar-schema-invalid",
      `the Cedar schema does not parse: ${describeErrors(prepared.errors, text, "schema")}`,
    );
  }
  const validated = cedar.validate({
    schema: schema as never,
    policies: { staticPolicies: parsed.policies },
    validationSettings: { mode: "strict" },
  });
  if (validated.type === "failure") {
    throw new CedarPolicyError(
      "cedar-schema-invalid",
      `the Cedar schema is not usable: ${validated.errors.map((error) => error.message).join("; ")}`,
    );
  }
  const invalid = validated.validationErrors;
  if (invalid.length > 0) {
    const lines = invalid.slice(0, 3).map(({ policyId, error }) => {
      const rule = parsed.rules.get(policyId);
      const where = rule === undefined ? source : `${source}:${rule.line}`;
      return `${where}: ${rule === undefined ? policyId : JSON.stringify(rule.name)} breaks the schema: ${error.message}`;
    });
    const more = invalid.length > 3 ? `; and ${invalid.length - 3} more` : "";
    throw new CedarPolicyError("cedar-policy-invalid", `${lines.join("; ")}${more}`);
  }
  return name;
}

function prepareEntities(
  cedar: CedarWasm,
  entities: readonly JsonObject[],
  schema: string | JsonObject | undefined,
): readonly JsonObject[] {
  if (entities.some((entity) => typeof entity === "object" && entity !== null && isToolEntity(entity))) {
    throw new CedarPolicyError(
      "cedar-entities-invalid",
      "entities may not declare a Toolwire::Tool: toolwire makes the tool's entity for each call",
    );
  }
  const checked = cedar.checkParseEntities({
    entities: entities as never,
    ...(schema === undefined ? {} : { schema: schema as never }),
  });
  if (checked.type === "failure") {
    throw new CedarPolicyError(
      "cedar-entities-invalid",
      `the Cedar entities do not parse: ${checked.errors.map((error) => error.message).join("; ")}`,
    );
  }
  return entities;
}

/** Names what Cedar keeps parsed (per process) by its content, so making the same policy again replaces, not adds. */
function digest(value: unknown): string {
  return createHash("sha256")
    .update(typeof value === "string" ? value : JSON.stringify(value))
    .digest("hex");
}
