// BM25F over documents with several weighted fields: a term counts once per field, and a field longer than its
// typical length counts less the longer it is.

/**
 * One field: how much a term found in it counts (`weight`), and the length in terms up to which it counts in full
 * (`typicalLength`, at least 1). A longer field's terms count `(typicalLength / length)²` of the weight each.
 */
export interface Bm25Field {
  readonly weight: number;
  readonly typicalLength: number;
}

/** The index's parameters: the fields every document has, in order, and term-frequency saturation `k1`. */
interface Bm25Options {
  readonly fields: readonly Bm25Field[];
  /** Default 1.2. */
  readonly k1?: number;
}

/** A document: the terms of each of its fields, in the order of `Bm25Options.fields`. */
export type Bm25Document = readonly (readonly string[])[];

/** A scored document: its place in the indexed list, and its score (above 0). */
interface Bm25Hit {
  readonly index: number;
  readonly score: number;
}

/** A built index. */
interface Bm25Index {
  readonly size: number;
  /** The inverse document frequency of a term: `ln(1 + (N - n + 0.5) / (n + 0.5))`, 0 for a term in no document. */
  idf(term: string): number;
  /** Every document's score for the query terms (duplicates count once), in document order. */
  scores(query: readonly string[]): number[];
  /** The documents with a score above 0, best first, ties in document order; at most `limit`. */
  search(query: readonly string[], limit: number): Bm25Hit[];
}

/**
 * Builds a BM25F index (Robertson and Zaragoza's simple BM25F) in which a field holds a term or does not: how often
 * it repeats the term does not count. For a query term t and a document d, the fields that hold t are combined first,
 * `tf(t, d) = sum over fields f holding t of weight_f * min(1, typicalLength_f / len(f, d))²`, where `len` counts the
 * field's terms, repeats included; then saturated once, `idf(t) * tf / (k1 + tf)`, and summed over the query's
 * distinct terms. `idf` counts the documents that hold t in any field (the Lucene form, never negative).
 *
 * So a field made longer than typical, by repeats or by more words, gives each of its terms less, and all its terms
 * together less than a field of typical length: at most `weight * typicalLength² / length`. A field longer than
 * typical never scores more for a query than a field of typical length holding the same query terms. Throws
 * `TypeError` when a document has a different number of fields than the options.
 */
export function createBm25Index(documents: readonly Bm25Document[], options: Bm25Options): Bm25Index {
  const { fields } = options;
  const k1 = options.k1 ?? 1.2;
  const count = documents.length;
  // term -> per document holding it, its combined weighted frequency tf(t, d)
  const postings = new Map<string, Map<number, number>>();
  documents.forEach((document, index) => {
    if (document.length !== fields.length) {
      throw new TypeError(
        `createBm25Index: document ${index} has ${document.length} fields, the options name ${fields.length}`,
      );
    }
    document.forEach((terms, f) => {
      const field = fields[f] as Bm25Field;
      const weight = field.weight * Math.min(1, field.typicalLength / terms.length) ** 2;
      for (const term of new Set(terms)) {
        let byDocument = postings.get(term);
        if (byDocument === undefined) {
          byDocument = new Map();
          postings.set(term, byDocument);
        }
        byDocument.set(index, (byDocument.get(index) ?? 0) + weight);
      }
    });
  });
  const idf = (term: string): number => {
    const holders = postings.get(term)?.size ?? 0;
    return holders === 0 ? 0 : Math.log(1 + (count - holders + 0.5) / (holders + 0.5));
  };
  const scores = (query: readonly string[]): number[] => {
    const totals = new Array<number>(count).fill(0);
    for (const term of new Set(query)) {
      const byDocument = postings.get(term);
      if (byDocument === undefined) continue;
      const weight = idf(term);
      for (const [index, tf] of byDocument) {
        if (tf > 0) totals[index] = (totals[index] as number) + (weight * tf) / (k1 + tf);
      }
    }
    return totals;
  };
  return {
    size: count,
    idf,
    scores,
    search(query, limit) {
      const hits: Bm25Hit[] = [];
      scores(query).forEach((score, index) => {
        if (score > 0) hits.push({ index, score });
      });
      hits.sort((a, b) => b.score - a.score || a.index - b.index);
      return hits.slice(0, Math.max(0, limit));
    },
  };
}
