// pi's tool, as toolwire/pi reads and writes it: the shape pi 0.73 and pi 1 share, so no pi package is named here.

/** pi's tool result content: text and images. */
export type PiContent = (
  | { type: "text"; text: string; textSignature?: string }
  | { type: "image"; data: string; mimeType: string }
)[];

/** What a pi tool's `execute` resolves to (and what its `onUpdate` gets). `isError` is pi 1's. */
export interface PiToolResult<TDetails = unknown> {
  content: PiContent;
  details: TDetails;
  isError?: boolean;
}

/**
 * A pi `AgentTool`, of `@mariozechner/pi-agent-core` 0.73 or `@earendil-works/pi-agent-core` 1 (pi's name since 1.0):
 * what `toPiTools` gives and `fromPiTools` takes. A test keeps it assignable to both packages' `AgentTool`, both ways.
 */
export interface PiAgentTool {
  name: string;
  label: string;
  description: string;
  /** A JSON Schema (a TypeBox schema in pi 0.73, pi's own schema in pi 1: both are JSON Schema). */
  parameters: object;
  executionMode?: "sequential" | "parallel";
  prepareArguments?: (args: unknown) => unknown;
  // A method, so that a pi tool typed for its own parameters and details fits.
  execute(
    toolCallId: string,
    params: unknown,
    signal?: AbortSignal,
    onUpdate?: (partial: PiToolResult) => void,
  ): Promise<PiToolResult>;
}
