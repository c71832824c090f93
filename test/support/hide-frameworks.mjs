// `node --import ./hide-frameworks.mjs`: the agent frameworks toolwire/langchain and toolwire/pi work with (LangChain,
// LangGraph, pi) resolve as if not installed, with Node's own error (ERR_MODULE_NOT_FOUND, "Cannot find package …").
import { register } from "node:module";

const hook = `
const HIDDEN = /^(@langchain\\/[^/]+|langchain|@mariozechner\\/[^/]+)(?:\\/|$)/;
export async function resolve(specifier, context, next) {
  const match = HIDDEN.exec(specifier);
  if (match === null) return next(specifier, context);
  const error = new Error("Cannot find package '" + match[1] + "' imported from " + context.parentURL);
  error.code = "ERR_MODULE_NOT_FOUND";
  throw error;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
