// A description as a `/** … */` doc comment that no text inside can end early.

/**
 * `text` as a doc comment (`""` when it has no text): one line when it has one line, else one ` * ` line per non-blank line, continued lines
 * indented by `indent`. Every star and slash that would close the comment become `*\/`, so it ends where it should.
 */
export function docComment(text: string, indent: string): string {
  const lines = text
    .split(/\r\n|[\n\r\u2028\u2029]/)
    .map((line) => line.trim().replaceAll("*/", "*\\/"))
    .filter((line) => line !== "");
  if (lines.length === 0) return "";
  if (lines.length === 1) return `/** ${lines[0]} */`;
  return ["/**", ...lines.map((line) => `${indent} * ${line}`), `${indent} */`].join("\n");
}
