// createCodeMode: run_code, a tool whose input is a program that calls the session's tools (docs/code-mode.md).

import { TOOL_SEARCH_NAME } from "../core/defer/create-tool-search-tool.js";
import { CODE_MODE_TOOL_NAME } from "../core/defer/plan-code-only.js";
import type { AgentSession } from "../core/dispatch/session.js";
import { ToolCallError } from "../core/errors.js";
import { compilePolicyPattern } from "../core/filter/policy.js";
import { defineTool } from "../core/register/define-tool.js";
import type {
  AgentTool,
  ApprovalRequest,
  JsonValue,
  LiveToolSource,
  ToolCallContext,
  ToolResult,
} from "../core/types.js";
import { createNestedCaller } from "./call-nested-tools.js";
import { type CodeModeLimits, type CodeModeOptions, readCodeModeOptions } from "./code-mode-options.js";
import { declareTools } from "./declarations/declare-tools.js";
import { describeRunCode } from "./declarations/describe-run-code.js";
import type { ToolDeclarations } from "./declarations/types.js";
import { runProgram, warmUpEngine } from "./engine/run-program.js";
import { readCheckpoints } from "./program-checkpoints.js";
import { createProgramJournal, type JournalHandle } from "./program-journal.js";
import { diverged, ledgerChars, MAX_LEDGER_CHARS, type ProgramLedger } from "./program-ledger.js";
import { createDeclarationSearch } from "./search-declarations.js";

/** The name of code mode's tool. */
export const RUN_CODE_NAME = CODE_MODE_TOOL_NAME;

/** What `createCodeMode` gives. */
export interface CodeMode {
  /**
   * run_code, described with the declarations of the tools a program may call now. A new tool object when they
   * change (the session's active tools changed): `source` hands the registry the current one.
   */
  readonly tool: AgentTool;
  /** The TypeScript declarations of the tools a program may call now, as run_code's description carries them. */
  readonly declarations: string;
  /** run_code as a live source: give it to the registry (`custom`) to keep run_code in step with the active tools. */
  readonly source: LiveToolSource;
  /** Stops following the session's active tools. run_code keeps working with the tools it had. */
  close(): void;
}

/** The tools a program may call, at one moment, and what the model is told of them. */
interface Exposure {
  readonly tools: readonly AgentTool[];
  readonly declarations: ToolDeclarations;
  readonly tool: AgentTool;
}

/**
 * Code mode over a session: run_code runs the model's program in a WebAssembly engine on a worker thread, and each
 * `await tools.<name>(input)` in it is a call through `session` (policy, validation, hooks, approvals, telemetry).
 * Throws a `TypeError` on bad options. The engine (optional peer dependencies) starts in the background at once, on a
 * worker thread that never keeps the process alive; without it run_code's calls fail, their text saying what to install.
 */
export function createCodeMode(session: AgentSession, options?: CodeModeOptions): CodeMode {
  const { patterns, limits, declarationTokens } = readCodeModeOptions(options);
  const matchers = patterns?.map(compilePolicyPattern);
  const listeners = new Set<() => void>();
  let exposure: Exposure | undefined;

  const exposedNow = (): AgentTool[] =>
    [...session.activeTools.values()].filter((tool) => {
      const { name } = tool.descriptor;
      if (name === RUN_CODE_NAME || name === TOOL_SEARCH_NAME) return false;
      return matchers === undefined || matchers.some((matches) => matches(tool.descriptor, name.toLowerCase()));
    });

  const current = (): Exposure => {
    const tools = exposedNow();
    if (exposure !== undefined && sameTools(exposure.tools, tools)) return exposure;
    const declarations = declareTools(
      tools.map((tool) => tool.descriptor),
      { budgetTokens: declarationTokens },
    );
    if (exposure !== undefined && exposure.declarations.text === declarations.text) {
      exposure = { ...exposure, tools };
      return exposure;
    }
    const description = describeRunCode(declarations, limits);
    exposure = { tools, declarations, tool: defineRunCode(description, (code, context) => run(code, context)) };
    return exposure;
  };

  const run = async (code: string, context: ToolCallContext): Promise<ToolResult> => {
    const { tools, declarations } = current();
    const descriptors = tools.map((tool) => tool.descriptor);
    // A run after a pause replays the run that paused (docs/approvals.md#approvals-inside-programs); in a durable run,
    // one whose process died goes on from what it kept (docs/durable-runs.md).
    const { checkpoint, recovered } = context;
    const durable =
      checkpoint === undefined
        ? undefined
        : recovered === undefined
          ? { keep: checkpoint }
          : { keep: checkpoint, recovered: readCheckpoints(recovered, code) };
    const journal = createProgramJournal(code, context.resumption, context.suspend !== undefined, durable);
    await journal.begin();
    const callTools = createNestedCaller({
      session,
      context,
      exposedNames: descriptors.map((descriptor) => descriptor.name),
      searchTools: createDeclarationSearch(descriptors, (name) => declarations.byName.get(name)),
      journal,
    });
    return runOneProgram(session, context, { code, limits, callTools, journal });
  };

  // The engine starts now, in the background, so the model's first program does not wait for it; a missing engine is
  // reported when a program runs.
  warmUpEngine({ memoryBytes: limits.memoryBytes }).catch(() => undefined);

  const unsubscribe = session.onActiveToolsChange(() => {
    const before = exposure?.tool;
    if (before === undefined || current().tool === before) return;
    for (const listener of listeners) listener();
  });

  return {
    get tool() {
      return current().tool;
    },
    get declarations() {
      return current().declarations.text;
    },
    source: {
      get tools() {
        return [current().tool];
      },
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    close() {
      unsubscribe();
      listeners.clear();
    },
  };
}

/**
 * One program, its clock held while a nested call waits for a person's approval. When a nested call waits with
 * nobody to ask and run_code's call can pause, the program stops and run_code's call pauses with its ledger.
 */
async function runOneProgram(
  session: AgentSession,
  context: ToolCallContext,
  request: {
    code: string;
    limits: CodeModeLimits;
    callTools: Parameters<typeof runProgram>[0]["callTools"];
    journal: JournalHandle;
  },
): Promise<ToolResult> {
  const { journal, code, limits, callTools } = request;
  const prefix = `${context.toolCallId}.`;
  const held = new Map<string, () => void>();
  // The program ends when run_code's call is aborted, or when its journal stops it (a pause, a divergence).
  const stopper = new AbortController();
  const replay = journal.replay === undefined ? {} : { replay: journal.replay };
  const program = runProgram({
    code,
    limits,
    callTools,
    signal: AbortSignal.any([context.signal, stopper.signal]),
    ...replay,
  });
  journal.attach(program.clock, () => stopper.abort());
  const stopAsking = session.on("approval_requested", (event) => {
    if (event.toolCallId.startsWith(prefix)) held.set(event.approvalId, program.holdClock());
  });
  const stopHearing = session.on("approval_resolved", (event) => {
    held.get(event.approvalId)?.();
    held.delete(event.approvalId);
  });
  try {
    const outcome = await program.outcome;
    const ending = journal.ending(outcome.clock, outcome.kind === "returned");
    if (ending.kind === "diverged") throw diverged(ending.why);
    if (ending.kind === "unkept") {
      throw new ToolCallError(
        "execution-failed",
        RUN_CODE_NAME,
        `The program stopped: what it did could not be kept in the run's journal (${ending.why}).`,
      );
    }
    if (ending.kind === "paused") return pause(context, ending.request, ending.ledger);
    if (outcome.kind === "returned") return { content: [{ type: "text", text: outcome.output }] };
    throw new ToolCallError(outcome.code, RUN_CODE_NAME, outcome.message);
  } finally {
    stopAsking();
    stopHearing();
    for (const release of held.values()) release();
  }
}

/** run_code's call paused with the program's ledger; `approval-required` when the ledger cannot be kept. */
function pause(context: ToolCallContext, request: ApprovalRequest, ledger: ProgramLedger): ToolResult {
  const fits = ledgerChars(ledger) <= MAX_LEDGER_CHARS;
  if (fits && context.suspend?.({ request, continuation: ledger as unknown as JsonValue }) === true) {
    return { content: [{ type: "text", text: `Paused for approval ${request.approvalId}.` }] };
  }
  throw new ToolCallError(
    "approval-required",
    RUN_CODE_NAME,
    `Tool call ${request.toolName} needs a person's approval, and this program could not pause for it (its record is too large to keep). It was not run.`,
  );
}

function defineRunCode(
  description: string,
  run: (code: string, context: ToolCallContext) => Promise<ToolResult>,
): AgentTool {
  return defineTool({
    name: RUN_CODE_NAME,
    description,
    // A program changes nothing itself: each of its calls meets the flow rules as the model's own calls do.
    effects: "none",
    inputSchema: {
      type: "object",
      properties: { code: { type: "string", description: "The program: the body of an async function." } },
      required: ["code"],
      additionalProperties: false,
    },
    // The program's own limit is its clock, which stops while a person is asked: the session's must not cut it.
    timeoutMs: Infinity,
    // The engine already cut the output to the program's maxOutputChars.
    maxResultChars: Infinity,
    execute: (input, context) => run(input.code as string, context),
  });
}

/** Whether two lists hold the same descriptors in the same order (a refresh keeps an unchanged tool's descriptor). */
function sameTools(before: readonly AgentTool[], after: readonly AgentTool[]): boolean {
  return (
    before.length === after.length && before.every((tool, position) => tool.descriptor === after[position]?.descriptor)
  );
}
