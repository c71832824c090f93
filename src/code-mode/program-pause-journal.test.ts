// A program paused for approval in a journaled run: its ledger waits in the journal, and another process resumes it.
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import { modelCalling, SECRET } from "../../test/support/approval-run.js";
import { memoryJournal } from "../../test/support/memory-journal.js";
import { sessionWith, textOf } from "../../test/support/session.js";
import { defineTool } from "../core/register/define-tool.js";
import type { JournalEntry } from "../journal/run-journal.js";
import { runAgent } from "../loop/run-agent.js";
import { createScriptedModel } from "../providers/clients/scripted-model.js";
import { createCodeMode } from "./create-code-mode.js";

/** A code-mode session, as each process builds it: `note` (free) and `danger` (needs approval), counted. */
function codeSession(runs: string[]) {
  const counted = (name: string) =>
    defineTool({
      name,
      description: `${name}: records its input`,
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      execute: (input) => {
        runs.push(`${name}${String(input.n)}`);
        return `${name} ${String(input.n)}`;
      },
    });
  const tools = [counted("note"), counted("danger")];
  const session = sessionWith(tools, { approvals: { require: ["danger"], secret: SECRET } });
  session.registry.refresh({ custom: [...tools, createCodeMode(session).source] });
  return session;
}

const CODE = `
  const a = await tools.note({ n: 1 });
  const b = await tools.danger({ n: 2 });
  const c = await tools.note({ n: 3 });
  return [a, b, c].join(", ");
`;

describe("a journaled program paused for approval", () => {
  it("keeps its ledger in the journal; a new process given the decision replays the answered calls and runs the rest once", async () => {
    const journal = memoryJournal();
    const runs: string[] = [];
    const model = modelCalling([{ id: "r1", name: "run_code", input: { code: CODE } }]);
    const paused = await drain(runAgent({ session: codeSession(runs), model, prompt: "go", journal, runId: "p1" }));
    expect(paused.done.reason).toBe("awaiting_approval");
    expect(runs).toEqual(["note1"]);
    const pause = journal.runs.get("p1")?.find((entry) => entry.kind === "run-paused") as Extract<
      JournalEntry,
      { kind: "run-paused" }
    >;
    expect(pause.pending).toMatchObject([{ toolName: "danger", parentToolCallId: "r1", input: { n: 2 } }]);
    const approvalId = pause.pending[0]?.approvalId as string;
    expect(pause.continuations?.[approvalId]).toMatchObject({ v: 1, paused: { tool: "danger" } });

    const resumed = await drain(
      runAgent({
        session: codeSession(runs),
        model: createScriptedModel([{ text: "done" }]),
        prompt: "",
        journal,
        runId: "p1",
        decisions: { [approvalId]: { approve: true } },
      }),
    );
    expect(resumed.done.reason).toBe("completed");
    expect(runs).toEqual(["note1", "danger2", "note3"]);
    const result = resumed.events.find((event) => event.type === "tool_result" && event.call.id === "r1");
    expect(result?.type === "tool_result" && textOf(result.result)).toBe("note 1, danger 2, note 3");
  });
});
