// Appends to one run: written one at a time, in order; those that arrive during a write share the next one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deferred } from "../../test/support/session.js";
import { groupAppends } from "./group-appends.js";
import type { JournalEntry } from "./run-journal.js";

const entry = (turns: number): JournalEntry => ({ kind: "run-ended", reason: "done", turns });

describe("groupAppends", () => {
  it("writes the appends made during a write together in the next one, in the order they were made", async () => {
    const writes: number[][] = [];
    const gate = deferred();
    const groups = groupAppends(async (_runId, entries) => {
      writes.push(entries.map((one) => (one.kind === "run-ended" ? one.turns : -1)));
      if (writes.length === 1) await gate.promise;
    });
    const first = groups.append("r", [entry(1)]);
    await Promise.resolve(); // the first write starts
    await Promise.resolve();
    const later = [
      groups.append("r", [entry(2)]),
      groups.append("r", [entry(3), entry(4)]),
      groups.append("r", [entry(5)]),
    ];
    gate.resolve();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[1], [2, 3, 4, 5]]);
  });

  it("rejects the appends of a failed write only; the next group is written", async () => {
    let calls = 0;
    const gate = deferred();
    const groups = groupAppends(async () => {
      calls++;
      if (calls === 1) {
        await gate.promise;
        throw new Error("disk full");
      }
    });
    const first = groups.append("r", [entry(1)]);
    first.catch(() => undefined);
    await Promise.resolve();
    await Promise.resolve();
    const second = groups.append("r", [entry(2)]);
    gate.resolve();
    await expect(first).rejects.toThrow("disk full");
    await expect(second).resolves.toBeUndefined();
    await groups.settled("r");
  });

  it("keeps every run's entries in append order, whatever the timing of writes (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom("a", "b"), fc.nat(3), fc.boolean()), { minLength: 1, maxLength: 30 }),
        async (steps) => {
          const written = new Map<string, number[]>();
          const groups = groupAppends(async (runId, entries) => {
            await new Promise((resolve) => setTimeout(resolve, entries.length % 2));
            const list = written.get(runId) ?? [];
            list.push(...entries.map((one) => (one.kind === "run-ended" ? one.turns : -1)));
            written.set(runId, list);
          });
          const made = new Map<string, number[]>();
          const pending: Promise<void>[] = [];
          for (const [index, [runId, wait, awaitIt]] of steps.entries()) {
            made.set(runId, [...(made.get(runId) ?? []), index]);
            const appended = groups.append(runId, [entry(index)]);
            if (awaitIt) await appended;
            else pending.push(appended);
            for (let tick = 0; tick < wait; tick++) await Promise.resolve();
          }
          await Promise.all(pending);
          expect(written).toEqual(made);
        },
      ),
      { numRuns: 60 },
    );
  });
});
