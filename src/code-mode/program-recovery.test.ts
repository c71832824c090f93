// A program in a durable run keeps each nested call's start and answer; when its process dies mid-way, the resumed
// run goes on from that record: answered calls are not run again, an interrupted one runs again only if idempotent.
import { describe, expect, it } from "vitest";
import { drain } from "../../test/support/agent-harness.js";
import { memoryJournal } from "../../test/support/memory-journal.js";
import { sessionWith, textOf } from "../../test/support/session.js";
import { defineTool } from "../core/register/define-tool.js";
import type { JournalEntry } from "../journal/run-journal.js";
import { runAgent } from "../loop/run-agent.js";
import { createScriptedModel } from "../providers/clients/scripted-model.js";
import { createCodeMode } from "./create-code-mode.js";

/**
 * A code-mode session as each process builds it: `send` (a side effect), `fetch` (idempotent) and `deploy` (not),
 * counted; `hang` names the tool whose call never ends in this process (it stands for the process dying there).
 */
function codeSession(runs: string[], hang?: string, started?: () => void) {
  const counted = (name: string, idempotent: boolean) =>
    defineTool({
      name,
      description: `${name}: records its input`,
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
      idempotent,
      execute: (input, context) => {
        runs.push(`${name}${String(input.n)}`);
        if (name === hang) {
          started?.();
          return new Promise((_resolve, reject) =>
            context.signal.addEventListener("abort", () => reject(new Error("stopped"))),
          );
        }
        return `${name} ${String(input.n)} (${context.idempotencyKey})`;
      },
    });
  const tools = [counted("send", false), counted("fetch", true), counted("deploy", false)];
  const session = sessionWith(tools);
  session.registry.refresh({ custom: [...tools, createCodeMode(session).source] });
  return session;
}

const CODE = `
  const t = Date.now();
  const a = await tools.send({ n: 1 });
  const b = await tools.fetch({ n: 2 });
  let c;
  try { c = await tools.deploy({ n: 3 }); } catch (error) { c = error.code; }
  const d = await tools.deploy({ n: 4 });
  return { a, b, c, d, t };
`;

/** The journal a process leaves when it dies once `hang`'s call started: what was appended up to then. */
async function journalLeftWhenDying(hang: string): Promise<{ entries: JournalEntry[]; runs: string[] }> {
  const journal = memoryJournal();
  const runs: string[] = [];
  const controller = new AbortController();
  let died!: () => void;
  const dying = new Promise<void>((resolve) => {
    died = resolve;
  });
  const session = codeSession(runs, hang, died);
  const model = createScriptedModel([{ toolCalls: [{ id: "r1", name: "run_code", input: { code: CODE } }] }]);
  const run = drain(runAgent({ session, model, prompt: "go", journal, runId: "p1", signal: controller.signal }));
  await dying;
  await new Promise((resolve) => setTimeout(resolve, 20)); // the start's append lands
  const entries = structuredClone(journal.runs.get("p1") ?? []);
  controller.abort();
  await run;
  return { entries, runs };
}

/** Resumes run p1 from `entries` in a new session; the runs it made and run_code's value. */
async function resume(entries: JournalEntry[]) {
  const journal = memoryJournal();
  journal.runs.set("p1", entries);
  const runs: string[] = [];
  const model = createScriptedModel([{ text: "done" }]);
  const { events, done } = await drain(
    runAgent({ session: codeSession(runs), model, prompt: "", journal, runId: "p1" }),
  );
  const result = events.find((event) => event.type === "tool_result" && event.call.id === "r1");
  const value =
    result?.type === "tool_result" && result.errorCode === undefined ? JSON.parse(textOf(result.result)) : result;
  return { runs, done, value, entries: journal.runs.get("p1") ?? [] };
}

/** The clock values the program read, as its kept record has them. */
const keptNow = (entries: readonly JournalEntry[]) =>
  entries.flatMap((entry) =>
    entry.kind === "call-checkpoint" && Array.isArray((entry.item as { now?: unknown }).now)
      ? (entry.item as { now: number[] }).now
      : [],
  );

describe("a durable program whose process died", () => {
  it("replays the answered calls, ends an interrupted call that is not idempotent outcome-unknown inside the program, and goes on", async () => {
    const left = await journalLeftWhenDying("deploy");
    expect(left.runs).toEqual(["send1", "fetch2", "deploy3"]);
    const { runs, done, value } = await resume(left.entries);
    expect(done.reason).toBe("completed");
    expect(runs).toEqual(["deploy4"]); // send1 and fetch2 are not run again, nor is deploy3
    expect(value).toMatchObject({
      a: "send 1 (p1:r1.1)",
      b: "fetch 2 (p1:r1.2)",
      c: "outcome-unknown",
      d: "deploy 4 (p1:r1.4)",
    });
    expect(value.t).toBe(keptNow(left.entries)[0]); // the clock it read before it died
  });

  it("runs an interrupted idempotent call again with the same idempotency key", async () => {
    const left = await journalLeftWhenDying("fetch");
    expect(left.runs).toEqual(["send1", "fetch2"]);
    const { runs, value, entries } = await resume(left.entries);
    expect(runs).toEqual(["fetch2", "deploy3", "deploy4"]);
    expect(value).toMatchObject({ a: "send 1 (p1:r1.1)", b: "fetch 2 (p1:r1.2)", c: "deploy 3 (p1:r1.3)" });
    // Resumed once more (say it died again after the run ended): nothing runs.
    const again = await resume(entries);
    expect(again.done.reason).toBe("completed");
    expect(again.runs).toEqual([]);
  });
});
