// docs/core.md's table of hook event fields lists exactly the fields of BeforeToolCallEvent and AfterToolCallEvent.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** The property names of an interface of src/core/types/hooks.ts. */
function fieldsOf(name: string): string[] {
  const path = resolve(root, "src/core/types/hooks.ts");
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest);
  const declaration = file.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  );
  if (declaration === undefined) throw new Error(`no interface ${name} in hooks.ts`);
  return declaration.members.flatMap((member) =>
    member.name && ts.isIdentifier(member.name) ? [member.name.text] : [],
  );
}

/** The rows of the table whose header starts `| field | before | after |`: each field with its two marks. */
function tableRows(): { field: string; before: boolean; after: boolean }[] {
  const lines = readFileSync(resolve(root, "docs/core.md"), "utf8").split("\n");
  const start = lines.findIndex((line) => line.startsWith("| field | before | after |"));
  expect(start).toBeGreaterThan(-1);
  const rows: { field: string; before: boolean; after: boolean }[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const [field = "", before = "", after = ""] = line
      .split("|")
      .slice(1)
      .map((cell) => cell.trim());
    rows.push({ field: field.replace(/`/g, ""), before: before !== "", after: after !== "" });
  }
  return rows;
}

describe("docs/core.md hook event fields", () => {
  it("lists every field of both hook events, marked for the events that have it", () => {
    const rows = tableRows();
    const marked = (side: "before" | "after") =>
      rows
        .filter((row) => row[side])
        .map((row) => row.field)
        .sort();
    expect(marked("before")).toEqual(fieldsOf("BeforeToolCallEvent").sort());
    expect(marked("after")).toEqual(fieldsOf("AfterToolCallEvent").sort());
  });
});
