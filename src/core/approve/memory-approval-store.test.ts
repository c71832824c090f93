import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryApprovalStore } from "./memory-approval-store.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createMemoryApprovalStore", () => {
  it("claims an id once while its approval has not expired", () => {
    const store = createMemoryApprovalStore();
    const expiresAt = Date.now() + 60_000;
    expect(store.claim("a", expiresAt)).toBe(true);
    expect(store.claim("a", expiresAt)).toBe(false);
    // Another expiry named with the same id changes nothing: the first claim holds.
    expect(store.claim("a", Date.now() - 1)).toBe(false);
    expect(store.claim("b", expiresAt)).toBe(true);
  });

  it("remembers an id claimed without an expiry for good", async () => {
    const store = createMemoryApprovalStore();
    expect(store.claim("forever")).toBe(true);
    for (let index = 0; index < 3_000; index++) store.claim(`old-${index}`, Date.now() - 1);
    await sleep(5);
    expect(store.claim("forever")).toBe(false);
  });

  it("forgets an id once its approval expired (a decision then is expired anyway)", async () => {
    const store = createMemoryApprovalStore();
    expect(store.claim("soon", Date.now() + 20)).toBe(true);
    await sleep(40);
    expect(store.claim("soon", Date.now() + 60_000)).toBe(true);
    expect(store.claim("soon", Date.now() + 60_000)).toBe(false);
  });

  it("drops expired ids: claims of short-lived approvals keep it small however many there are", async () => {
    const store = createMemoryApprovalStore();
    for (let round = 0; round < 5; round++) {
      const expiresAt = Date.now() + 10;
      for (let index = 0; index < 2_000; index++) expect(store.claim(`r${round}-${index}`, expiresAt)).toBe(true);
      await sleep(20);
    }
    // Without sweeping it would hold 10 000.
    expect(store.size).toBeLessThanOrEqual(4_000);
    const live = Date.now() + 60_000;
    for (let index = 0; index < 5_000; index++) store.claim(`live-${index}`, live);
    // Live ids are never dropped.
    for (let index = 0; index < 5_000; index++) expect(store.claim(`live-${index}`, live)).toBe(false);
  });

  it("any sequence of claims: true exactly once per id among live approvals", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 200 }), (ids) => {
        const store = createMemoryApprovalStore();
        const expiresAt = Date.now() + 60_000;
        const seen = new Set<string>();
        for (const id of ids) {
          expect(store.claim(id, expiresAt)).toBe(!seen.has(id));
          seen.add(id);
        }
      }),
    );
  });
});
