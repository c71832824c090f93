// The seam between code mode and its declaration generator: tools' schemas in, TypeScript for the model out.
import type { JsonObject } from "../../core/types.js";

/** What a declaration is made from: a tool's name, description and schemas (a `ToolDescriptor` fits). */
export interface DeclarableTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
}

/** The declarations of a program's `tools`, as run_code's description carries them. */
export interface ToolDeclarations {
  /** The text for the model: full declarations, then one line each for the tools left over the budget. */
  readonly text: string;
  /** Each tool's full declaration (its doc comment and signature), whether or not `text` holds it in full. */
  readonly byName: ReadonlyMap<string, string>;
  /** The tools `text` gives one line each (over the budget), largest first; a program finds them with `tool_search`. */
  readonly summarized: readonly string[];
}
