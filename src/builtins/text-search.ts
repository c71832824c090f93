// Exact substring search in time linear in the text, whatever the needle (V8's indexOf can be quadratic).

/** Needles up to this length use indexOf, whose cost is then at most this factor over linear. */
const SHORT_NEEDLE = 64;

/** Finds `needle` in a text from an offset; -1 when absent. */
type TextSearch = (text: string, from?: number) => number;

/**
 * A search for one needle that takes time linear in the text searched: indexOf for short needles,
 * Knuth-Morris-Pratt (its table built once here) for long ones, where indexOf can cost the text's
 * length times the needle's (a needle of 100,000 "a", a "b", then 100,000 "a" in a file of "a").
 */
export function createTextSearch(needle: string): TextSearch {
  if (needle.length <= SHORT_NEEDLE) return (text, from = 0) => text.indexOf(needle, from);
  const failure = new Int32Array(needle.length); // the longest proper border of each prefix
  for (let at = 1, border = 0; at < needle.length; at++) {
    while (border > 0 && needle.charCodeAt(at) !== needle.charCodeAt(border)) border = failure[border - 1] as number;
    if (needle.charCodeAt(at) === needle.charCodeAt(border)) border++;
    failure[at] = border;
  }
  return (text, from = 0) => {
    if (text.length - from < needle.length) return -1;
    let matched = 0;
    for (let at = from; at < text.length; at++) {
      const code = text.charCodeAt(at);
      while (matched > 0 && code !== needle.charCodeAt(matched)) matched = failure[matched - 1] as number;
      if (code === needle.charCodeAt(matched) && ++matched === needle.length) return at - needle.length + 1;
    }
    return -1;
  };
}

/** The offsets of the non-overlapping occurrences of `needle` in `text`, left to right, in linear time. */
export function findAllOccurrences(text: string, needle: string): number[] {
  const search = createTextSearch(needle);
  const positions: number[] = [];
  for (let from = 0; ; ) {
    const index = search(text, from);
    if (index === -1) return positions;
    positions.push(index);
    from = index + needle.length;
  }
}
