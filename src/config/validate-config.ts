// validateConfig: every way a value breaks the config schema, and the repeated ids and half-given credentials it
// cannot catch.
import { readFileSync } from "node:fs";
import type { ValidateFunction } from "ajv";
import type { JsonObject } from "../core/types.js";
import { loadAjv } from "../validation/load-ajv.js";
import { type ConfigIssue, configIssuesOf, joinPath } from "./config-issue.js";
import { explainForeignKey, mcpServerEntries, mcpServerEntryIssues } from "./mcp-server-entries.js";
import type { McpServerConfig, ToolwireConfig } from "./toolwire-config.js";

/** How deeply arrays and objects may nest in a config. */
export const MAX_CONFIG_DEPTH = 64;

const SCHEMA_URL = new URL("../../schema/toolwire.config.schema.json", import.meta.url);
let schema: JsonObject | undefined;
let validate: ValidateFunction | undefined;

/** The JSON Schema the config is validated against (shipped in the package as `schema/toolwire.config.schema.json`). */
export function readConfigSchema(): JsonObject {
  schema ??= JSON.parse(readFileSync(SCHEMA_URL, "utf8")) as JsonObject;
  return schema;
}

/**
 * Every way a value breaks the config schema, plus repeated ids and labels, half-given credentials, and
 * `mcpServers` entries whose `id` differs from their key or whose `type` contradicts them. Empty when it is a valid
 * config (`mcpServers` may be a list or an object keyed by id). A value nested deeper than `MAX_CONFIG_DEPTH` gets that
 * one issue (found without recursion).
 */
export function validateConfig(value: unknown): ConfigIssue[] {
  const deep = tooDeepPath(value, MAX_CONFIG_DEPTH);
  if (deep !== undefined) {
    return [
      {
        path: deep,
        message: `nests deeper than ${MAX_CONFIG_DEPTH} levels of lists and objects; flatten this value`,
      },
    ];
  }
  if (validate === undefined) {
    const Ajv = loadAjv();
    validate = new Ajv({ allErrors: true, strict: false, verbose: true, logger: false }).compile(readConfigSchema());
  }
  // Judged whatever the rest of the value is, so they show beside the schema's issues.
  const entryIssues = mcpServerEntryIssues((value as { mcpServers?: unknown } | null)?.mcpServers);
  if (!validate(value)) {
    // A bad property name is reported by its "pattern" error; the "propertyNames" one after it says no more.
    const errors = (validate.errors ?? []).filter((e) => e.keyword !== "if" && e.keyword !== "propertyNames");
    return [...configIssuesOf(errors).map(explainForeignKey), ...entryIssues];
  }
  return [...duplicateIssues(value as ToolwireConfig), ...authIssues(value as ToolwireConfig), ...entryIssues];
}

/** What the schema cannot say well: client credentials take exactly one of a secret and a private key. */
function authIssues(config: ToolwireConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const { path, entry } of mcpServerEntries(config.mcpServers)) {
    const server = entry as McpServerConfig;
    const auth = "url" in server ? server.auth : undefined;
    if (auth?.type !== "client_credentials") continue;
    if ((auth.clientSecretEnv === undefined) === (auth.privateKeyEnv === undefined)) {
      issues.push({
        path: `${path}.auth`,
        message:
          "needs exactly one of clientSecretEnv (the variable with a client secret) or privateKeyEnv (with a PEM private key)",
      });
    }
  }
  return issues;
}

function duplicateIssues(config: ToolwireConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const check = (
    list: readonly { readonly [k: string]: unknown }[] | undefined,
    key: string,
    what: string,
    at: string,
  ) => {
    const first = new Map<string, number>();
    list?.forEach((item, index) => {
      const id = item[key];
      if (typeof id !== "string") return;
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, index);
      else
        issues.push({
          path: `${at}[${index}].${key}`,
          message: `duplicate ${what} "${id}" (also at ${at}[${earlier}])`,
        });
    });
  };
  check(config.policy as never, "label", "layer label", "policy");
  check(config.plugins as never, "id", "plugin id", "plugins");
  // In the object form, the keys are the ids: JSON keeps one entry per key.
  if (Array.isArray(config.mcpServers)) check(config.mcpServers as never, "id", "server id", "mcpServers");
  check(config.executors as never, "id", "executor id", "executors");
  return issues;
}

const MAX_PATH_CHARS = 120;

/** The path (cut to `MAX_PATH_CHARS`) of the first list or object nested deeper than `limit`, or `undefined`. */
function tooDeepPath(value: unknown, limit: number): string | undefined {
  if (!isContainer(value)) return undefined;
  // An explicit stack of the open containers: no recursion, so no nesting overflows the call stack.
  const frames = [{ node: value as Record<string, unknown>, keys: Object.keys(value), next: 0 }];
  while (frames.length > 0) {
    const top = frames[frames.length - 1] as (typeof frames)[number];
    if (top.next >= top.keys.length) {
      frames.pop();
      continue;
    }
    const child = top.node[top.keys[top.next++] as string];
    if (!isContainer(child)) continue;
    if (frames.length >= limit) {
      let path = "(root)";
      for (const frame of frames) {
        const key = frame.keys[frame.next - 1] as string;
        path = Array.isArray(frame.node) ? `${path === "(root)" ? "" : path}[${key}]` : joinPath(path, key);
        if (path.length > MAX_PATH_CHARS) return `${path.slice(0, MAX_PATH_CHARS)}…`;
      }
      return path;
    }
    frames.push({ node: child as Record<string, unknown>, keys: Object.keys(child), next: 0 });
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
