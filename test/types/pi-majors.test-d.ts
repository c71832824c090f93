// Compiled, never run (`npm run typecheck`): toolwire/pi's types fit pi 0.73 (`@mariozechner/pi-agent-core`) and pi 1
// (`@earendil-works/pi-agent-core`) alike, both ways, with no cast.
import type { AgentTool as Pi1AgentTool } from "@earendil-works/pi-agent-core";
import type { AgentTool as Pi073AgentTool } from "@mariozechner/pi-agent-core";
import type { AgentSession } from "../../src/core/dispatch/session.js";
import { fromPiTools, toPiTools } from "../../src/frameworks/pi/index.js";

/** Compiles only when `value` is assignable to `T`. */
declare function accepts<T>(value: T): void;
declare const session: AgentSession;
declare const pi1Tools: Pi1AgentTool[];
declare const pi073Tools: Pi073AgentTool[];

accepts<Pi1AgentTool[]>(toPiTools(session));
accepts<Pi073AgentTool[]>(toPiTools(session));
fromPiTools(pi1Tools);
fromPiTools(pi073Tools);
