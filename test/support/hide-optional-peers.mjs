// `node --import ./hide-optional-peers.mjs`: the optional peer dependencies (the MCP SDK, the provider SDKs, the AI SDK,
// the OpenAI Agents SDK, BullMQ, ioredis, code mode's engine and pg) resolve as if not installed, with Node's own error (ERR_MODULE_NOT_FOUND, "Cannot find
// package 'name' imported from …").
import { register } from "node:module";

const hook = `
const HIDDEN = /^(openai|ai|@openai\\/agents-core|@anthropic-ai\\/sdk|@modelcontextprotocol\\/(?:client|server|node)|bullmq|ioredis|quickjs-emscripten-core|@jitl\\/quickjs-ng-wasmfile-release-sync|@swc\\/wasm-typescript|@cedar-policy\\/cedar-wasm|pg)(?:\\/|$)/;
export async function resolve(specifier, context, next) {
  const match = HIDDEN.exec(specifier);
  if (match === null) return next(specifier, context);
  const error = new Error("Cannot find package '" + match[1] + "' imported from " + context.parentURL);
  error.code = "ERR_MODULE_NOT_FOUND";
  throw error;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
