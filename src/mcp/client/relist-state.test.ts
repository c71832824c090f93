import { describe, expect, it } from "vitest";
import { nextRelistState, type RelistEvent, type RelistState } from "./relist-state.js";

const done = Promise.resolve(false);

function run(...events: RelistEvent[]): RelistState {
  return events.reduce<RelistState>(nextRelistState, { kind: "idle" });
}

describe("nextRelistState", () => {
  it("ends a relist after one pass when no change came during it", () => {
    expect(run({ kind: "started", done })).toEqual({ kind: "relisting", done, again: false });
    expect(run({ kind: "started", done }, { kind: "pass-finished" })).toEqual({ kind: "idle" });
  });

  it("runs exactly one more pass for any number of changes during a pass", () => {
    const changedTwice = run({ kind: "started", done }, { kind: "changed" }, { kind: "changed" });
    expect(changedTwice).toMatchObject({ kind: "relisting", again: true });
    const afterPass = nextRelistState(changedTwice, { kind: "pass-finished" });
    expect(afterPass).toEqual({ kind: "relisting", done, again: false });
    expect(nextRelistState(afterPass, { kind: "pass-finished" })).toEqual({ kind: "idle" });
  });

  it("keeps the running relist's promise when another start is attempted", () => {
    const other = Promise.resolve(true);
    expect(run({ kind: "started", done }, { kind: "started", done: other })).toMatchObject({ done });
  });

  it("ends on stop even when another pass was due", () => {
    expect(run({ kind: "started", done }, { kind: "changed" }, { kind: "stopped" })).toEqual({ kind: "idle" });
  });

  it("ignores a change while idle: starting a relist is the caller's move", () => {
    expect(run({ kind: "changed" })).toEqual({ kind: "idle" });
  });
});
