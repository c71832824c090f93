// Helpers shared by the core tests: small tools, a session over them, and a deferred promise.
import type { AgentSessionOptions } from "../../src/core/dispatch/session.js";
import { defineTool } from "../../src/core/register/define-tool.js";
import { createToolRegistry } from "../../src/core/register/registry.js";
import type { AgentTool, ToolResultBlock } from "../../src/core/types.js";
import { createAgentSession } from "../../src/create-agent-session.js";

/** A tool `echo` whose input `{ text: string }` comes back as its result. */
export function echoTool(name = "echo"): AgentTool {
  return defineTool({
    name,
    description: "Echoes its text back",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
    execute: (input) => input.text,
  });
}

/** A session over the given tools (as custom tools) with the default ajv validator. */
export function sessionWith(tools: AgentTool[], options: Omit<AgentSessionOptions, "registry"> = {}) {
  return createAgentSession({ registry: createToolRegistry({ custom: tools }), ...options });
}

/** The text of a tool result's first block. */
export function textOf(result: ToolResultBlock): string {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

/** A promise with its resolve function outside. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
