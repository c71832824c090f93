// What a program gives back as text: its console lines, then its value, cut to the output limit with a note.

/** What the worker left out: console characters past the kept lines, and the value's characters past its kept start. */
export interface LeftOut {
  readonly logChars: number;
  readonly valueChars: number;
}

/**
 * Console lines (one per `console.*` call), then the text, joined by newlines, cut to `maxChars` characters with a
 * note saying how many were cut, counting what the worker left out.
 */
export function formatProgramOutput(logs: readonly string[], text: string, leftOut: LeftOut, maxChars: number): string {
  const droppedChars = leftOut.logChars;
  const parts = [...logs];
  if (text !== "") parts.push(text);
  const whole = parts.join("\n");
  const total = whole.length + droppedChars + leftOut.valueChars;
  if (total === whole.length && total <= maxChars) return whole;
  // Console characters the worker did not keep came right after the kept lines: what follows them is cut too.
  const head = droppedChars > 0 ? logs.join("\n") : whole;
  const kept = cutPoint(head, maxChars);
  const note = `[output cut: ${total - kept} of ${total} characters left out; the limit is ${maxChars}]`;
  return kept === 0 ? note : `${head.slice(0, kept)}\n${note}`;
}

/** Where to cut `text` to at most `maxChars` characters without splitting a surrogate pair. */
export function cutPoint(text: string, maxChars: number): number {
  const kept = Math.min(text.length, maxChars);
  return kept > 0 && kept < text.length && isHighSurrogate(text.charCodeAt(kept - 1)) ? kept - 1 : kept;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
