// Policy: allow and deny layers that only narrow the tools, and what each layer removed.
import type { ToolDescriptor } from "./descriptor.js";

/** One allow/deny layer; layers only ever narrow the set. */
export interface PolicyLayer {
  readonly label: string;
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}
/** A tool a policy layer removed: which layer, and which pattern. */
export interface PolicyRemoval {
  readonly name: string;
  readonly layer: string;
  /** The deny pattern that matched, or `null` when the layer's allow list did not match the tool. */
  readonly pattern: string | null;
}
/** What `applyToolPolicy` gives: the tools kept, those removed and why, and patterns that matched no tool. */
export interface PolicyResult {
  readonly kept: ToolDescriptor[];
  readonly removed: PolicyRemoval[];
  readonly unknownPatterns: { readonly layer: string; readonly pattern: string }[];
}
