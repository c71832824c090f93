// cutEchoes: an error message that repeats a huge tool name or input from the command line shows it cut, not whole.

/** Longer pieces of the command line are cut to this many characters where an error repeats them. */
export const MAX_ECHO_CHARS = 200;
/** The most strings of the input that are looked for (the longest ones win). */
const MAX_PIECES = 100;

/**
 * The long pieces of what `toolwire call` was given that an error message could repeat: the tool
 * name, the input text, and the keys and strings inside the input when it is JSON, each longer than
 * `MAX_ECHO_CHARS`, also as they look JSON-escaped. Walks the input without recursion.
 */
export function longPieces(tool: string, input: string | undefined): string[] {
  const found = new Set<string>();
  const add = (text: string) => {
    if (text.length <= MAX_ECHO_CHARS) return;
    found.add(text);
    found.add(JSON.stringify(text).slice(1, -1));
  };
  add(tool);
  if (input !== undefined) {
    add(input);
    let value: unknown;
    try {
      value = JSON.parse(input);
    } catch {
      value = undefined;
    }
    const pending = [value];
    while (pending.length > 0) {
      const next = pending.pop();
      if (typeof next === "string") add(next);
      else if (typeof next === "object" && next !== null) {
        for (const [key, child] of Object.entries(next)) {
          add(key);
          pending.push(child);
        }
      }
    }
  }
  // The longest first: a piece that holds a shorter one is cut whole before the shorter one is looked for.
  return [...found].sort((a, b) => b.length - a.length).slice(0, MAX_PIECES);
}

/** `text` with every piece in it replaced by its first `MAX_ECHO_CHARS` characters and how long it was. */
export function cutEchoes(text: string, pieces: readonly string[]): string {
  let cut = text;
  for (const piece of pieces) {
    if (cut.includes(piece))
      cut = cut.split(piece).join(`${piece.slice(0, MAX_ECHO_CHARS)}… (${piece.length} characters)`);
  }
  return cut;
}
