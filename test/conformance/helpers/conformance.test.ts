// The conformance tests' bookkeeping: which runs a scenario gets, and the rule that every run is sorted exactly once.
import { describe, expect, it } from "vitest";
import { judgeScenario, runKeys, sortingProblems } from "./conformance.js";

const listed = [
  { name: "tools-list", versions: ["2025-06-18", "2025-11-25", "2026-07-28"] },
  { name: "ping", versions: ["2025-06-18", "2025-11-25"] },
  { name: "tasks-lifecycle", versions: ["extension"] },
  { name: "auth/old", versions: ["2025-03-26"] },
];

describe("conformance bookkeeping", () => {
  it("gives a scenario one run per era it applies to, and one run by its tags when it applies to neither", () => {
    expect(listed.map(runKeys)).toEqual([
      ["tools-list@2025-11-25", "tools-list@2026-07-28"],
      ["ping@2025-11-25"],
      ["tasks-lifecycle@extension"],
      ["auth/old@2025-03-26"],
    ]);
  });

  it("finds a run sorted nowhere, a run sorted twice and an entry naming no run", () => {
    const problems = sortingProblems(listed, {
      passing: ["tools-list@2025-11-25", "ping@2025-11-25", "ping@2026-07-28"],
      knownFailing: ["tasks-lifecycle@extension", "ping@2025-11-25"],
      notApplicable: ["auth/old"],
    });
    expect(problems).toEqual([
      "tools-list@2026-07-28 is in no list: sort it",
      "ping@2025-11-25 is in passing and known failing",
      "ping@2026-07-28 names no run of the suite",
    ]);
  });

  it("accepts every run sorted once, a whole scenario counting for all its runs", () => {
    const lists = {
      passing: ["tools-list@2025-11-25", "ping@2025-11-25"],
      knownFailing: ["tasks-lifecycle@extension", "tools-list@2026-07-28"],
      notApplicable: ["auth/old"],
    };
    expect(sortingProblems(listed, lists)).toEqual([]);
  });

  it("does not count the wire-schema checks as a scenario having tested something", () => {
    const wireOnly = judgeScenario([
      { id: "wire-schema-valid", name: "WireSchemaValid", description: "valid", status: "SUCCESS" },
    ]);
    expect(wireOnly.passed).toBe(false);
    const real = judgeScenario([
      { id: "tools-list", name: "ToolsList", description: "listed", status: "SUCCESS" },
      { id: "wire-schema-valid", name: "WireSchemaValid", description: "valid", status: "SUCCESS" },
    ]);
    expect(real.passed).toBe(true);
  });
});
