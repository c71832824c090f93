// BM25F: Okapi BM25 over documents with several weighted fields, each field normalised by its own average length.

/** One field's weight (how much a term occurrence in it counts) and length normalisation `b` (0 none, 1 full). */
export interface Bm25Field {
  readonly weight: number;
  readonly b: number;
}

/** The index's parameters: the fields every document has, in order, and term-frequency saturation `k1`. */
export interface Bm25Options {
  readonly fields: readonly Bm25Field[];
  /** Default 1.2. */
  readonly k1?: number;
}

/** A document: the terms of each of its fields, in the order of `Bm25Options.fields`. */
export type Bm25Document = readonly (readonly string[])[];

/** A scored document: its place in the indexed list, and its score (above 0). */
export interface Bm25Hit {
  readonly index: number;
  readonly score: number;
}

/** A built index. */
export interface Bm25Index {
  readonly size: number;
  /** The inverse document frequency of a term: `ln(1 + (N - n + 0.5) / (n + 0.5))`, 0 for a term in no document. */
  idf(term: string): number;
  /** Every document's score for the query terms (duplicates count once), in document order. */
  scores(query: readonly string[]): number[];
  /** The documents with a score above 0, best first, ties in document order; at most `limit`. */
  search(query: readonly string[], limit: number): Bm25Hit[];
}

/**
 * Builds a BM25F index (Robertson and Zaragoza's simple BM25F). For a query term t and a document d, the fields'
 * frequencies are combined first, `tf(t, d) = sum over fields f of weight_f * tf(t, f, d) / (1 - b_f + b_f * len(f, d)
 * / avglen_f)`, then saturated once, `idf(t) * tf / (k1 + tf)`, and summed over the query's distinct terms. `idf`
 * counts the documents that hold t in any field (the Lucene form, never negative). A field empty in every document
 * counts for nothing. Throws `TypeError` when a document has a different number of fields than the options.
 */
export function createBm25Index(documents: readonly Bm25Document[], options: Bm25Options): Bm25Index {
  const { fields } = options;
  const k1 = options.k1 ?? 1.2;
  const count = documents.length;
  const lengths = documents.map((document, index) => {
    if (document.length !== fields.length) {
      throw new TypeError(
        `createBm25Index: document ${index} has ${document.length} fields, the options name ${fields.length}`,
      );
    }
    return document.map((terms) => terms.length);
  });
  const averages = fields.map((_, f) =>
    count === 0 ? 0 : lengths.reduce((sum, row) => sum + (row[f] as number), 0) / count,
  );
  // term -> per document, per field, how often it occurs (only documents that hold it)
  const postings = new Map<string, Map<number, number[]>>();
  documents.forEach((document, index) => {
    document.forEach((terms, f) => {
      for (const term of terms) {
        let byDocument = postings.get(term);
        if (byDocument === undefined) {
          byDocument = new Map();
          postings.set(term, byDocument);
        }
        let frequencies = byDocument.get(index);
        if (frequencies === undefined) {
          frequencies = new Array<number>(fields.length).fill(0);
          byDocument.set(index, frequencies);
        }
        frequencies[f] = (frequencies[f] as number) + 1;
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
      for (const [index, frequencies] of byDocument) {
        const row = lengths[index] as number[];
        let tf = 0;
        fields.forEach((field, f) => {
          const frequency = frequencies[f] as number;
          if (frequency === 0) return;
          const average = averages[f] as number;
          const norm = 1 - field.b + (field.b * (row[f] as number)) / average;
          tf += (field.weight * frequency) / norm;
        });
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
