// docComment: a description as a doc comment, one line or many, that nothing inside can close early.
import { describe, expect, it } from "vitest";
import { docComment } from "./doc-comment.js";

describe("docComment", () => {
  it("keeps one line on one line and gives more lines one ` * ` each, blank ones dropped", () => {
    expect(docComment("  Reads a file.  ", "")).toBe("/** Reads a file. */");
    expect(docComment("First.\r\n\n  Second.\u2028Third.", "  ")).toBe(
      "/**\n   * First.\n   * Second.\n   * Third.\n   */",
    );
  });

  it("turns every star and slash that would close it into *\\/", () => {
    expect(docComment("a */ b **/ c", "")).toBe("/** a *\\/ b **\\/ c */");
  });

  it("is empty for a description without text", () => {
    expect(docComment(" \n\t ", "")).toBe("");
  });
});
