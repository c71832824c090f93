// isNear: one slip apart (added, dropped, changed, swapped), case ignored; anything more is not near.
import { describe, expect, it } from "vitest";
import { isNear } from "./is-near.js";

describe("isNear", () => {
  it("takes one added, dropped or changed character, two swapped neighbours, and case", () => {
    expect(isNear("bash", "bsh")).toBe(true);
    expect(isNear("bash", "bashh")).toBe(true);
    expect(isNear("bash", "bosh")).toBe(true);
    expect(isNear("bash", "absh")).toBe(true);
    expect(isNear("bash", "BASH")).toBe(true);
  });

  it("refuses two slips, and names of other lengths", () => {
    expect(isNear("bash", "bs")).toBe(false);
    expect(isNear("bash", "bxsx")).toBe(false);
    expect(isNear("read", "write")).toBe(false);
  });
});
