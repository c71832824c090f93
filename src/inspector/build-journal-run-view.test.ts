// buildJournalRunView on journals a real journaled run wrote: a finished run, one cut off in a call, the same run
// resumed to outcome-unknown, unknown entry kinds, and any prefix of a journal.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { echoTool, sessionWith } from "../../test/support/session.js";
import { defineTool } from "../core/register/define-tool.js";
import { createFileJournal, type FileJournal } from "../journal/create-file-journal.js";
import type { JournalEntry } from "../journal/run-journal.js";
import { runAgent } from "../loop/index.js";
import { createScriptedModel, type ScriptedTurn } from "../providers/clients/scripted-model.js";
import { buildJournalRunView } from "./build-journal-run-view.js";

const failing = defineTool({
  name: "fail",
  description: "Always fails",
  inputSchema: { type: "object" },
  execute: () => {
    throw new Error("it broke");
  },
});
const SCRIPT: ScriptedTurn[] = [
  {
    text: "Looking.",
    toolCalls: [
      { id: "e1", name: "echo", input: { text: "hi" } },
      { id: "f1", name: "fail", input: {} },
    ],
    usage: { inputTokens: 100, outputTokens: 20 },
  },
  { text: "Done.", usage: { inputTokens: 150, outputTokens: 5 } },
];

let folder: string;
let journal: FileJournal;
let entries: readonly JournalEntry[];

async function drain(run: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of run);
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "journal-view-"));
  journal = createFileJournal(folder);
  const session = sessionWith([echoTool(), failing]);
  await drain(runAgent({ session, model: createScriptedModel(SCRIPT), prompt: "say hi", journal, runId: "whole" }));
  entries = await journal.read("whole");
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("buildJournalRunView", () => {
  it("shows a finished run's turns, calls with inputs, results and error codes, and its end", () => {
    const view = buildJournalRunView(entries);
    expect(view.status).toBe("completed");
    expect(view.prompt).toBe("say hi");
    expect(view.startedAt).toEqual(expect.any(Number));
    expect(view.turns.map((turn) => [turn.turn, turn.text, turn.stopReason, turn.usage])).toEqual([
      [1, "Looking.", "tool_use", { inputTokens: 100, outputTokens: 20 }],
      [2, "Done.", "end", { inputTokens: 150, outputTokens: 5 }],
    ]);
    const [echo, fail] = view.turns[0]?.calls ?? [];
    expect(echo).toMatchObject({ toolCallId: "e1", toolName: "echo", input: { text: "hi" }, status: "ok" });
    expect(echo?.result?.content).toEqual([{ type: "text", text: "hi" }]);
    expect(fail).toMatchObject({ toolCallId: "f1", toolName: "fail", status: "error", errorCode: "execution-failed" });
  });

  it("shows a journal cut off in a call as stopped, the call interrupted and the one never started as such", () => {
    const cut = entries.slice(0, entries.findIndex((entry) => entry.kind === "call-started") + 1);
    const view = buildJournalRunView(cut);
    expect(view.status).toBe("stopped");
    expect(view.turns[0]?.calls.map((call) => [call.toolCallId, call.status, call.result])).toEqual([
      ["e1", "interrupted", undefined],
      ["f1", "not-started", undefined],
    ]);
  });

  it("shows outcome-unknown once a resume has said so", async () => {
    const cut = entries.slice(0, entries.findIndex((entry) => entry.kind === "call-started") + 1);
    await journal.append("resumed", cut);
    const session = sessionWith([echoTool(), failing]);
    await drain(
      runAgent({
        session,
        model: createScriptedModel([SCRIPT[1] as ScriptedTurn]),
        prompt: "say hi",
        journal,
        runId: "resumed",
      }),
    );
    const view = buildJournalRunView(await journal.read("resumed"));
    expect(view.status).toBe("completed");
    expect(view.turns[0]?.calls.map((call) => [call.toolCallId, call.status, call.errorCode])).toEqual([
      ["e1", "error", "outcome-unknown"],
      ["f1", "error", "execution-failed"],
    ]);
  });

  // The entries a paused run journals, as the loop writes them (run-paused, approval-decided, flow-tainted).
  it("shows a run paused for approval as waiting, then the decision, the call's outcome and the taint it brought", () => {
    const [started, turn, callStarted, callEnded] = [
      entries[0],
      entries[1],
      entries.find((entry) => entry.kind === "call-started" && entry.toolCallId === "e1"),
      entries.find((entry) => entry.kind === "call-ended" && entry.toolCallId === "e1"),
    ];
    const request = (approvalId: string, toolCallId: string, parentToolCallId?: string) => ({
      approvalId,
      toolCallId,
      toolName: "echo",
      input: {},
      inputDigest: "sha256:0",
      expiresAt: 0,
      ...(parentToolCallId === undefined ? {} : { parentToolCallId }),
    });
    const paused = [
      started,
      turn,
      // e1 waits itself; f1 is a program whose nested call p1 waits (its ledger in continuations).
      {
        kind: "run-paused",
        turn: 1,
        pending: [request("a1", "e1"), request("a2", "p1", "f1")],
        continuations: { a2: { ledger: [] } },
      },
    ] as unknown as JournalEntry[];
    const waiting = buildJournalRunView(paused);
    expect(waiting.status).toBe("awaiting_approval");
    expect(waiting.turns[0]?.calls.map((call) => [call.toolCallId, call.status, call.approval])).toEqual([
      ["e1", "awaiting-approval", { approvalId: "a1" }],
      ["f1", "awaiting-approval", { approvalId: "a2" }],
    ]);
    const decided = [
      ...paused,
      { kind: "approval-decided", turn: 1, approvalId: "a1", decision: { approve: true } },
      { kind: "approval-decided", turn: 1, approvalId: "a2", decision: { approve: false, reason: "no" } },
      callStarted,
      callEnded,
      { kind: "flow-tainted", source: { toolCallId: "e1", toolName: "echo" } },
    ] as unknown as JournalEntry[];
    const after = buildJournalRunView(decided);
    expect(after.turns[0]?.calls.map((call) => [call.toolCallId, call.status, call.approval, call.flow])).toEqual([
      ["e1", "ok", { approvalId: "a1", outcome: "approved" }, "source"],
      ["f1", "awaiting-approval", { approvalId: "a2", outcome: "declined" }, undefined],
    ]);
  });

  it("skips entries of kinds it does not know", () => {
    const mixed = [
      ...entries.slice(0, 2),
      { kind: "run-forked", into: "elsewhere" },
      { kind: "flow-tainted", toolCallId: "e1" },
      ...entries.slice(2),
    ] as unknown as JournalEntry[];
    expect(buildJournalRunView(mixed)).toEqual(buildJournalRunView(entries));
  });

  it("converts any prefix of a journal, with unknown or odd entries mixed in, without throwing", () => {
    const odd = fc.oneof(
      fc.record({ kind: fc.string() }),
      fc.record({
        kind: fc.constantFrom("model-turn", "call-started", "call-ended", "run-paused", "approval-decided"),
        turn: fc.anything(),
        toolCallId: fc.constantFrom("e1", "f1", 7),
        pending: fc.anything(),
        decision: fc.anything(),
        source: fc.anything(),
      }),
      fc.record({ kind: fc.constant("flow-tainted"), source: fc.anything() }),
      fc.anything(),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: entries.length }),
        fc.array(fc.tuple(fc.nat(), odd), { maxLength: 4 }),
        (length, inserts) => {
          const prefix: unknown[] = entries.slice(0, length);
          for (const [at, entry] of inserts) prefix.splice(at % (prefix.length + 1), 0, entry);
          const view = buildJournalRunView(prefix as JournalEntry[]);
          expect(["completed", "max_turns", "awaiting_approval", "stopped"]).toContain(view.status);
          expect(JSON.parse(JSON.stringify(view))).toBeTruthy();
        },
      ),
    );
  });
});
