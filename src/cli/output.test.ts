// Colour decisions and table layout of the CLI's output.
import { describe, expect, it } from "vitest";
import { colorEnabled, formatTable, paint } from "./output.js";

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe("colorEnabled", () => {
  it("is on for a terminal and off for a pipe when nothing else says", () => {
    expect(colorEnabled({}, tty)).toBe(true);
    expect(colorEnabled({}, pipe)).toBe(false);
    expect(colorEnabled({ TERM: "dumb" }, tty)).toBe(false);
  });

  it("FORCE_COLOR turns it on when piped, and 0 or false turn it off on a terminal", () => {
    expect(colorEnabled({ FORCE_COLOR: "1" }, pipe)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: "" }, pipe)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: "0" }, tty)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: "false" }, tty)).toBe(false);
  });

  it("NO_COLOR (non-empty) and --no-color win over FORCE_COLOR and a terminal", () => {
    expect(colorEnabled({ NO_COLOR: "1", FORCE_COLOR: "1" }, tty)).toBe(false);
    expect(colorEnabled({ NO_COLOR: "" }, tty)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: "1" }, tty, false)).toBe(false);
  });
});

describe("formatTable", () => {
  it("pads columns to their widest cell, counting painted cells without their escape codes", () => {
    const on = { color: true };
    const table = formatTable(
      ["TOOL", "WHY"],
      [
        [paint(on, "green", "read"), "visible"],
        ["ops_deploy", "hidden"],
      ],
      on,
    );
    expect(table.split("\n")).toEqual([
      "\u001b[1mTOOL        WHY\u001b[22m",
      "\u001b[32mread\u001b[39m        visible",
      "ops_deploy  hidden",
    ]);
    expect(formatTable(["A", "B"], [["x", ""]], { color: false })).toBe("A  B\nx");
  });
});

describe("formatTable on a terminal", () => {
  const rows = [["read", "core", "Reads a file with line numbers, from an offset, up to a limit of lines"]];

  it("cuts the last column with … so every line fits the terminal's width", () => {
    const table = formatTable(["TOOL", "OWNER", "DESCRIPTION"], rows, { color: false, columns: 40 });
    for (const line of table.split("\n")) expect(line.length).toBeLessThanOrEqual(40);
    expect(table).toContain("Reads a file with line nu…");
  });

  it("never cuts piped output, and keeps at least 20 characters on a very narrow terminal", () => {
    expect(formatTable(["TOOL", "OWNER", "DESCRIPTION"], rows, { color: false })).toContain("up to a limit of lines");
    const narrow = formatTable(["TOOL", "OWNER", "DESCRIPTION"], rows, { color: false, columns: 10 });
    expect(narrow.split("\n")[1]).toBe(`read  core   ${rows[0]?.[2]?.slice(0, 19)}…`);
  });
});
