// The planner: descriptors in, visible and hidden buckets out. Pure: no I/O, no logging, no executor loaded.
import { ToolPlanContractError } from "../errors.js";
import type {
  HiddenToolPlanEntry,
  ToolAvailabilityContext,
  ToolDescriptor,
  ToolPlan,
  ToolPlanEntry,
} from "../types.js";
import { evaluateToolAvailability } from "./availability.js";
import { describeDescriptorProblem } from "./descriptor.js";

/** Orders by `sortKey ?? name`, ties by `name`, comparing UTF-16 code units (the same on every machine and locale). */
export function compareDescriptors(a: ToolDescriptor, b: ToolDescriptor): number {
  const keyA = a.sortKey ?? a.name;
  const keyB = b.sortKey ?? b.name;
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * Sorts descriptors, checks the contract (valid, unique names, an executor for every visible one)
 * and splits them by availability. Contract breaks throw `ToolPlanContractError`; unavailability
 * never throws, it produces hidden entries with diagnostics. Does not mutate its input.
 */
export function buildToolPlan(options: {
  descriptors: readonly ToolDescriptor[];
  availability?: ToolAvailabilityContext;
}): ToolPlan {
  for (const descriptor of options.descriptors) {
    const problem = describeDescriptorProblem(descriptor);
    if (problem !== undefined) {
      throw new ToolPlanContractError("invalid-descriptor", String(descriptor?.name), problem);
    }
  }
  const sorted = [...options.descriptors].sort(compareDescriptors);
  const seen = new Set<string>();
  for (const descriptor of sorted) {
    if (seen.has(descriptor.name)) {
      throw new ToolPlanContractError(
        "duplicate-tool-name",
        descriptor.name,
        `Duplicate tool descriptor name: ${descriptor.name}`,
      );
    }
    seen.add(descriptor.name);
  }
  const visible: ToolPlanEntry[] = [];
  const hidden: HiddenToolPlanEntry[] = [];
  for (const descriptor of sorted) {
    const diagnostics =
      descriptor.availability === undefined
        ? []
        : evaluateToolAvailability({ descriptor, context: options.availability });
    if (diagnostics.length > 0) {
      hidden.push({ descriptor, diagnostics });
    } else if (descriptor.executor === undefined) {
      throw new ToolPlanContractError(
        "missing-executor",
        descriptor.name,
        `Visible tool descriptor has no executor ref: ${descriptor.name}`,
      );
    } else {
      visible.push({ descriptor, executor: descriptor.executor });
    }
  }
  return { visible, hidden };
}
