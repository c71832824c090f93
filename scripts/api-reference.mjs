// The API reference, generated from the doc comments of every public entry point (package.json `exports`).
// `node scripts/api-reference.mjs` rewrites docs/reference.md; a test checks it is up to date and that every
// exported name has a doc comment. Uses the TypeScript compiler API (a dev dependency), no other tool.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const REFERENCE = join(ROOT, "docs", "reference.md");

/**
 * The source file that states an entry point's names. An entry over an optional peer (`toolwire/mcp`,
 * `toolwire/langchain`) checks the peer is installed, then loads the `api.ts` beside it and re-exports its names one
 * for one (a test keeps them equal), so that API module is where the doc comments live.
 */
function sourceOf(typesPath) {
  const source = typesPath.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts");
  const api = source.replace(/index\.ts$/, "api.ts");
  return api !== source && existsSync(join(ROOT, api)) ? api : source;
}

/** The package's entry points with a JavaScript module: `{ specifier, source }`, in package.json's order. */
export function readEntryPoints() {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === "object" && typeof target.types === "string")
    .map(([subpath, target]) => ({
      specifier: subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      source: sourceOf(target.types),
    }));
}

function kindOf(symbol) {
  const { flags } = symbol;
  if (flags & ts.SymbolFlags.Class) return "class";
  if (flags & ts.SymbolFlags.Function) return "function";
  if (flags & ts.SymbolFlags.Interface) return "interface";
  if (flags & ts.SymbolFlags.TypeAlias) return "type";
  if (flags & ts.SymbolFlags.Enum) return "enum";
  if (flags & ts.SymbolFlags.Variable) return "constant";
  return "name";
}

/** A doc comment as one line of Markdown (its paragraphs kept apart by a space). */
function docOf(symbol, checker) {
  return ts
    .displayPartsToString(symbol.getDocumentationComment(checker))
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " ").trim())
    .filter((paragraph) => paragraph !== "")
    .join(" ");
}

/** A function's call signatures, or a constant's type, as short TypeScript. */
function signatureOf(symbol, checker, kind, name) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (declaration === undefined) return undefined;
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  if (kind === "function") {
    const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
    return type
      .getCallSignatures()
      .map((signature) => `${name}${checker.signatureToString(signature, declaration, flags)}`)
      .join("\n");
  }
  if (kind === "constant") {
    const text = checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), declaration, flags);
    // A URL stays out of the page: its links must not leave the repository (the constant's doc says what it is).
    if (text.includes("://")) return `${name}: string`;
    return text.length <= 160 ? `${name}: ${text}` : undefined;
  }
  return undefined;
}

/** An interface's properties and methods with their doc comments, in declaration order. */
function membersOf(symbol, checker) {
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  return checker.getPropertiesOfType(type).map((member) => {
    const declaration = member.valueDeclaration ?? member.declarations?.[0];
    const optional = (member.flags & ts.SymbolFlags.Optional) !== 0;
    const text =
      declaration === undefined
        ? ""
        : checker.typeToString(checker.getTypeOfSymbolAtLocation(member, declaration), declaration, flags);
    return {
      name: member.name,
      type: text.length <= 100 ? text.replace(/ \| undefined$/, "") : undefined,
      optional,
      doc: docOf(member, checker),
    };
  });
}

/**
 * The section each name is listed under: the `// Heading: ...` comment above its export statement, if any. The
 * map's order of sections is the source's.
 */
function sectionsOf(sourceFile) {
  const sections = new Map();
  let current = "";
  for (const statement of sourceFile.statements) {
    for (const range of ts.getLeadingCommentRanges(sourceFile.text, statement.pos) ?? []) {
      const comment = sourceFile.text.slice(range.pos, range.end);
      const heading = /^\/\/ ([A-Z][^:.]*)[:.]/.exec(comment);
      if (heading !== null && !comment.includes("toolwire")) current = heading[1].trim();
    }
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) sections.set(element.name.text, current);
    }
  }
  return sections;
}

/** Every entry point's exported names with their kind, doc comment and signature, as data. */
export function readPublicApi() {
  const entries = readEntryPoints();
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.build.json"), {}, ts.sys);
  const program = ts.createProgram({
    rootNames: entries.map((entry) => join(ROOT, entry.source)),
    options: config.options,
  });
  const checker = program.getTypeChecker();
  return entries.map((entry) => {
    const sourceFile = program.getSourceFile(join(ROOT, entry.source));
    if (sourceFile === undefined) throw new Error(`No source file ${entry.source} for ${entry.specifier}`);
    const sections = sectionsOf(sourceFile);
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(sourceFile)).map((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const name = exported.name;
      const kind = kindOf(symbol);
      const declaration = symbol.declarations?.[0];
      return {
        name,
        kind,
        section: sections.get(name) ?? "",
        doc: docOf(symbol, checker),
        signature: signatureOf(symbol, checker, kind, name),
        members: kind === "interface" ? membersOf(symbol, checker) : [],
        file: declaration === undefined ? undefined : relative(ROOT, declaration.getSourceFile().fileName),
      };
    });
    exports.sort((a, b) => a.name.localeCompare(b.name, "en"));
    return { ...entry, order: [...new Set(sections.values())], exports };
  });
}

const KIND_ORDER = ["function", "class", "constant", "interface", "type", "enum", "name"];

/** docs/reference.md's text for the API read by `readPublicApi`. */
export function renderReference(api) {
  const lines = [
    "# API reference",
    "",
    "Every name each entry point of the package exports, with its doc comment. This page is generated from the source",
    "(`node scripts/api-reference.mjs`) and a test keeps it in step; the guides in this folder show how the parts fit.",
    "",
    ...api.map((entry) => `- [\`${entry.specifier}\`](#${anchorOf(entry.specifier)}): ${entry.exports.length} names`),
  ];
  for (const entry of api) {
    lines.push("", `## ${entry.specifier}`, "");
    const sections = [...new Set([...entry.order, ...entry.exports.map((item) => item.section)])];
    for (const section of sections) {
      if (section !== "") lines.push(`### ${section}`, "");
      const items = entry.exports
        .filter((item) => item.section === section)
        .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.name.localeCompare(b.name, "en"));
      for (const item of items) {
        lines.push(`- **\`${item.name}\`** (${item.kind}). ${item.doc}`);
        for (const member of item.members) {
          const type = member.type === undefined ? "" : `: \`${member.type.replace(/`/g, "'")}\``;
          const doc = member.doc === "" ? "" : ` ${member.doc}`;
          lines.push(`  - \`${member.name}${member.optional ? "?" : ""}\`${type}.${doc}`);
        }
        if (item.signature !== undefined) {
          lines.push("", "  ```ts", ...item.signature.split("\n").map((line) => `  ${line}`), "  ```", "");
        }
      }
      if (lines.at(-1) !== "") lines.push("");
    }
  }
  while (lines.at(-1) === "") lines.pop();
  return `${lines.join("\n")}\n`;
}

function anchorOf(heading) {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replace(/ /g, "-");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const api = readPublicApi();
  writeFileSync(REFERENCE, renderReference(api));
  const undocumented = api.flatMap((entry) =>
    entry.exports.filter((item) => item.doc === "").map((item) => `${entry.specifier}: ${item.name}`),
  );
  console.log(`docs/reference.md: ${api.reduce((sum, entry) => sum + entry.exports.length, 0)} names`);
  if (undocumented.length > 0) console.log(`Without a doc comment:\n  ${undocumented.join("\n  ")}`);
}
