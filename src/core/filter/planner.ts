// The planner: descriptors in, visible and hidden buckets out. Pure: no I/O, no logging, no executor loaded.
import { ToolPlanContractError } from "../errors.js";
import { sameItems } from "../same-items.js";
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
function compareDescriptors(a: ToolDescriptor, b: ToolDescriptor): number {
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
  return splitByAvailability(orderToolDescriptors(options.descriptors).sorted, options.availability);
}

/** Descriptors in the planner's order, checked (valid, unique names); what `buildToolPlan` sorts before it splits. */
export interface OrderedDescriptors {
  /** The list that was ordered, as given. */
  readonly input: readonly ToolDescriptor[];
  readonly sorted: readonly ToolDescriptor[];
  /** Every descriptor is frozen and was found valid, so the same list in the same order gives the same answer. */
  readonly fixed: boolean;
  /** Some descriptor has an availability expression: only then does the split depend on the context. */
  readonly conditional: boolean;
}

/**
 * Checks and sorts descriptors as `buildToolPlan` does (throwing the same `ToolPlanContractError`s). Given the
 * answer for an earlier list (`previous`) that is `fixed` and holds the same descriptor objects in the same
 * order, returns that answer without checking or sorting again: a registry refreshed with unchanged sources
 * then costs one comparison per tool here instead of a sort. Does not mutate its input, but keeps it: pass a
 * list nobody changes afterwards.
 */
export function orderToolDescriptors(
  descriptors: readonly ToolDescriptor[],
  previous?: OrderedDescriptors,
): OrderedDescriptors {
  if (previous?.fixed === true && sameItems(previous.input, descriptors)) return previous;
  let fixed = true;
  let conditional = false;
  for (const descriptor of descriptors) {
    if (!checkDescriptor(descriptor)) fixed = false;
    if (descriptor.availability !== undefined) conditional = true;
  }
  const sorted = [...descriptors].sort(compareDescriptors);
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
  return { input: descriptors, sorted, fixed, conditional };
}

/**
 * Sorted, checked descriptors split into visible and hidden by availability (evaluated anew on every call: the
 * context may have changed). Throws `ToolPlanContractError` `missing-executor` for a visible one with no executor.
 */
export function splitByAvailability(
  sorted: readonly ToolDescriptor[],
  availability: ToolAvailabilityContext | undefined,
): ToolPlan {
  const visible: ToolPlanEntry[] = [];
  const hidden: HiddenToolPlanEntry[] = [];
  for (const descriptor of sorted) {
    const diagnostics =
      descriptor.availability === undefined ? [] : evaluateToolAvailability({ descriptor, context: availability });
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

/**
 * Descriptors found valid that cannot change: frozen, with a frozen schema (what `defineTool` makes). Their
 * check (the name pattern among it) is not run again on every refresh.
 */
const validFrozen = new WeakSet<ToolDescriptor>();

/** Throws for a descriptor that breaks the contract; whether it is valid for good (frozen) otherwise. */
function checkDescriptor(descriptor: ToolDescriptor): boolean {
  if (validFrozen.has(descriptor)) return true;
  const problem = describeDescriptorProblem(descriptor);
  if (problem !== undefined) {
    throw new ToolPlanContractError("invalid-descriptor", String(descriptor?.name), problem);
  }
  if (!Object.isFrozen(descriptor) || !Object.isFrozen(descriptor.inputSchema)) return false;
  validFrozen.add(descriptor);
  return true;
}
