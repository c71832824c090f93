// Search terms from text: words split at non-letters and case changes, lowercased, common words dropped, endings cut.

/** Words too common to tell one tool from another; dropped from documents and queries alike. */
const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "can",
  "do",
  "does",
  "for",
  "from",
  "how",
  "i",
  "if",
  "in",
  "into",
  "is",
  "it",
  "its",
  "me",
  "my",
  "of",
  "on",
  "or",
  "so",
  "that",
  "the",
  "their",
  "them",
  "then",
  "there",
  "these",
  "this",
  "to",
  "was",
  "we",
  "what",
  "when",
  "where",
  "which",
  "who",
  "will",
  "with",
  "would",
  "you",
  "your",
]);

// A run of letters and digits; inside it, a lower-case letter or digit followed by a capital, or a capital
// followed by a capital and a lower-case letter (`HTMLParser` -> `HTML`, `Parser`), starts a new word.
const WORD_RUN = /[\p{L}\p{N}]+/gu;
const CASE_BOUNDARY = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/**
 * The search terms of a text, in order: split at everything that is not a letter or a digit (so snake_case,
 * kebab-case, a `server__tool` prefix and punctuation all separate words) and at case changes (`readFile`,
 * `HTMLParser`), lowercased, without stop words, each cut to its stem by `stemSearchTerm`. The same text always
 * gives the same terms; documents and queries go through the same function, so their terms meet. With `limit`, the
 * first `limit` terms only: the text after them is not read.
 */
export function tokenizeSearchText(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const terms: string[] = [];
  if (limit <= 0) return terms;
  for (const run of text.matchAll(WORD_RUN)) {
    for (const word of run[0].split(CASE_BOUNDARY)) {
      const lower = word.toLowerCase();
      if (lower === "" || STOP_WORDS.has(lower)) continue;
      terms.push(stemSearchTerm(lower));
      if (terms.length >= limit) return terms;
    }
  }
  return terms;
}

/**
 * A light English stemmer for lowercased words, so that `files`, `file`; `searching`, `searches`, `searched`;
 * `creation`, `create`, `created` meet. Plural and verb endings are cut, then a doubled final consonant
 * (`getting` -> `get`) and a final `e`, always leaving at least three characters; short words stay as they are.
 * It is a matching key, not a word: `create` becomes `creat`.
 */
export function stemSearchTerm(word: string): string {
  if (word.length <= 3 || !/^\p{Ll}+$/u.test(word)) return word;
  let stem = word;
  if (stem.endsWith("ies") && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith("sses")) stem = stem.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith("s") && !/(?:ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  let verb = false;
  if (stem.endsWith("ied") && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (stem.endsWith("ing") && stem.length - 3 >= 3) {
    stem = stem.slice(0, -3);
    verb = true;
  } else if (stem.endsWith("ed") && stem.length - 2 >= 3) {
    stem = stem.slice(0, -2);
    verb = true;
  } else if (/[ts]ion$/.test(stem) && stem.length - 3 >= 4) {
    stem = stem.slice(0, -3);
    verb = true;
  }
  if (verb && stem.length >= 4 && /([^aeiouls])\1$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.endsWith("e") && stem.length - 1 >= 3) stem = stem.slice(0, -1);
  return stem;
}
