// A real TypeScript type check (no emit) of files held in memory, for tests of generated TypeScript.
import ts from "typescript";

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  // Each file is its own module, so every file may declare its own `tools`.
  moduleDetection: ts.ModuleDetectionKind.Force,
};

const defaultHost = ts.createCompilerHost(OPTIONS);
/** The standard library's files, parsed once per process and shared by every program. */
const libraryFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * The diagnostics (`file:line: message`) of one program made of `files` (name to text; names end in `.ts`) and the
 * ES2022 library, strict, without emit. Empty when everything type-checks.
 */
export function typeCheck(files: Readonly<Record<string, string>>): string[] {
  const host: ts.CompilerHost = {
    ...defaultHost,
    fileExists: (name) => Object.hasOwn(files, name) || defaultHost.fileExists(name),
    readFile: (name) => (Object.hasOwn(files, name) ? files[name] : defaultHost.readFile(name)),
    getSourceFile: (name, languageVersion) => {
      const text = Object.hasOwn(files, name) ? files[name] : undefined;
      if (text !== undefined) return ts.createSourceFile(name, text, languageVersion, true);
      if (!libraryFiles.has(name)) libraryFiles.set(name, defaultHost.getSourceFile(name, languageVersion));
      return libraryFiles.get(name);
    },
  };
  const program = ts.createProgram(Object.keys(files), OPTIONS, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}:${line + 1}: ${message}`;
  });
}
