// A tool plan: the tools a model may see, with the executor of each, and those availability hid.
import type { ToolAvailabilityDiagnostic } from "./availability.js";
import type { ToolDescriptor, ToolExecutorRef } from "./descriptor.js";

/** A visible tool of a plan, with the executor that will run it. */
export interface ToolPlanEntry {
  readonly descriptor: ToolDescriptor;
  readonly executor: ToolExecutorRef;
}
/** A tool the plan hides, with every diagnostic that says why. */
export interface HiddenToolPlanEntry {
  readonly descriptor: ToolDescriptor;
  readonly diagnostics: readonly ToolAvailabilityDiagnostic[];
}
/** What `buildToolPlan` gives: the tools a model may see, and the ones hidden with their reasons. */
export interface ToolPlan {
  readonly visible: readonly ToolPlanEntry[];
  readonly hidden: readonly HiddenToolPlanEntry[];
}
