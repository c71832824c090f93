// The tools the framework adapters' tests run under each framework's loop: one of each kind of outcome.
import { defineTool } from "../../src/core/register/define-tool.js";
import type { BeforeToolCall } from "../../src/core/types.js";

/** Succeeds with text and details. */
export const add = defineTool({
  name: "add",
  title: "Add numbers",
  description: "Adds two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  execute: async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } }),
});

/** Its executor throws. */
export const fail = defineTool({
  name: "fail",
  description: "Always fails",
  inputSchema: { type: "object", properties: {} },
  execute: async () => {
    throw new Error("the disk is full");
  },
});

/** Blocked by `blockRemove`. */
export const remove = defineTool({
  name: "remove",
  description: "Removes a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  execute: async () => "removed",
});

/** For a policy layer to deny. */
export const secret = defineTool({
  name: "secret",
  description: "Reads a secret",
  inputSchema: { type: "object", properties: {} },
  execute: async () => "hunter2",
});

/** For approvals to require. */
export const deploy = defineTool({
  name: "deploy",
  description: "Deploys",
  inputSchema: { type: "object", properties: {} },
  execute: async () => "deployed",
});

/** A before hook that blocks `remove`. */
export const blockRemove: BeforeToolCall = (event) =>
  event.toolName === "remove" ? { block: true, reason: "removing files needs a ticket" } : undefined;
