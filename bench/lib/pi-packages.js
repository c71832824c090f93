// pi's two releases the benchmark runs: 0.73 (`@mariozechner/*`, what toolwire/pi is tested with) and the current one
// (`@earendil-works/*`, the same project renamed; Node 22.19 or later).
import { packageVersion } from "./package-version.js";
import { NOOP_SCHEMA } from "./workload.js";

/** Whether this Node runs pi's current release (its `engines`: Node 22.19 or later). */
export function runsCurrentPi(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 19);
}

/** pi 0.73: the no-op tool's schema in TypeBox, as that release's users write it. */
export async function loadPi073() {
  const core = await import("@mariozechner/pi-agent-core");
  const ai = await import("@mariozechner/pi-ai");
  return {
    version: `@mariozechner/pi-agent-core@${packageVersion("@mariozechner/pi-agent-core")}`,
    runAgentLoop: core.runAgentLoop,
    createAssistantMessageEventStream: ai.createAssistantMessageEventStream,
    fauxAssistantMessage: ai.fauxAssistantMessage,
    fauxToolCall: ai.fauxToolCall,
    parameters: ai.Type.Object({ id: ai.Type.Integer(), label: ai.Type.String() }, { additionalProperties: false }),
    stopAfterTurn: { shouldStopAfterTurn: () => true },
    toolsSeen: (context) => context.tools?.length ?? 0,
  };
}

/** pi's current release: it takes any JSON Schema for a tool's parameters, so the same plain one the others get. */
export async function loadPiCurrent() {
  const core = await import("@earendil-works/pi-agent-core");
  const ai = await import("@earendil-works/pi-ai");
  return {
    version: `@earendil-works/pi-agent-core@${packageVersion("@earendil-works/pi-agent-core")}`,
    runAgentLoop: core.runAgentLoop,
    createAssistantMessageEventStream: ai.createAssistantMessageEventStream,
    fauxAssistantMessage: ai.fauxAssistantMessage,
    fauxToolCall: ai.fauxToolCall,
    parameters: structuredClone(NOOP_SCHEMA),
    stopAfterTurn: { finishTurn: () => ({ action: "end" }) }, // 1.x's name for 0.73's shouldStopAfterTurn
    // 1.x declares the tools to the model in the transcript's system messages, not beside it.
    toolsSeen: (context) => ai.getCurrentTools(context.messages).length,
  };
}

/** Every pi release this Node runs, the oldest first. */
export async function loadPi() {
  return runsCurrentPi() ? [await loadPi073(), await loadPiCurrent()] : [await loadPi073()];
}
