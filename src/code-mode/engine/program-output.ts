// What a program gives back as text: its console lines, then its value, cut to the output limit with a note.

/** The returned value's text from the worker's rendering: `s` + a string as JSON, `j` + JSON text, `u` for nothing. */
export function renderedValueText(rendered: string): string {
  if (rendered.startsWith("s")) return JSON.parse(rendered.slice(1)) as string;
  return rendered.startsWith("j") ? rendered.slice(1) : "";
}

/**
 * Console lines (one per `console.*` call), then the text, joined by newlines, cut to `maxChars` characters with a
 * note saying how many were cut. `droppedChars` counts console characters the worker counted but did not keep.
 */
export function formatProgramOutput(
  logs: readonly string[],
  text: string,
  droppedChars: number,
  maxChars: number,
): string {
  const parts = [...logs];
  if (text !== "") parts.push(text);
  const whole = parts.join("\n");
  const total = whole.length + droppedChars;
  if (droppedChars === 0 && total <= maxChars) return whole;
  // Console characters the worker did not keep came right after the kept lines: what follows them is cut too.
  const head = droppedChars > 0 ? logs.join("\n") : whole;
  let kept = Math.min(head.length, maxChars);
  // Never split a surrogate pair.
  if (kept > 0 && kept < head.length && isHighSurrogate(head.charCodeAt(kept - 1))) kept -= 1;
  const note = `[output cut: ${total - kept} of ${total} characters left out; the limit is ${maxChars}]`;
  return kept === 0 ? note : `${head.slice(0, kept)}\n${note}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
