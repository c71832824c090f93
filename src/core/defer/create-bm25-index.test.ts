import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Bm25Document, createBm25Index } from "./create-bm25-index.js";

const ONE_FIELD = { fields: [{ weight: 1, typicalLength: 4 }] };
const THREE_FIELDS = {
  fields: [
    { weight: 3, typicalLength: 2 },
    { weight: 1, typicalLength: 4 },
    { weight: 0.5, typicalLength: 4 },
  ],
};

describe("createBm25Index", () => {
  it("scores a term in a field of typical length or shorter as idf * weight / (k1 + weight) (k1 1.2, Lucene idf)", () => {
    const index = createBm25Index([[["a", "b"]], [["b", "c", "d"]]], ONE_FIELD);
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    expect(index.idf("c")).toBeCloseTo(idf, 12);
    expect(index.scores(["c"])).toEqual([0, expect.closeTo(idf / 2.2, 12)]);
  });

  it("counts a term once per field, however often the field repeats it", () => {
    const index = createBm25Index([[["c", "x"]], [["c", "c", "c", "c"]], [["y"]]], ONE_FIELD);
    const [once, repeated] = index.scores(["c"]) as [number, number];
    expect(repeated).toBeCloseTo(once, 12);
  });

  it("gives each term of a field longer than typical (typical / length)² of the field's weight", () => {
    const docs: Bm25Document[] = [[["a", "b", "c", "d", "e", "f", "g", "h"]], [["z"]]];
    const index = createBm25Index(docs, { fields: [{ weight: 2, typicalLength: 4 }], k1: 1 });
    const tf = 2 * (4 / 8) ** 2;
    expect(index.scores(["a"])[0]).toBeCloseTo((index.idf("a") * tf) / (1 + tf), 12);
  });

  it("combines the fields' weighted presence before saturating it once (BM25F)", () => {
    const options = {
      fields: [
        { weight: 3, typicalLength: 1 },
        { weight: 1, typicalLength: 2 },
      ],
      k1: 1,
    };
    const docs: Bm25Document[] = [
      [["x"], ["x", "y", "z"]],
      [[], ["y"]],
    ];
    const index = createBm25Index(docs, options);
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    // field 0: 3, in full; field 1: 1 * (2 / 3)², three terms where two are typical
    const tf = 3 + (2 / 3) ** 2;
    expect(index.scores(["x"])[0]).toBeCloseTo((idf * tf) / (1 + tf), 12);
  });

  it("gives a term found in no document an idf of 0 and no score", () => {
    const index = createBm25Index([[["a"]]], ONE_FIELD);
    expect(index.idf("zzz")).toBe(0);
    expect(index.scores(["zzz"])).toEqual([0]);
    expect(index.search(["zzz"], 5)).toEqual([]);
  });

  it("refuses a document with another number of fields than the options", () => {
    expect(() => createBm25Index([[["a"], ["b"]]], ONE_FIELD)).toThrow(TypeError);
  });

  it("indexes nothing without complaint", () => {
    const index = createBm25Index([], ONE_FIELD);
    expect(index.size).toBe(0);
    expect(index.search(["a"], 3)).toEqual([]);
  });
});

const TERMS = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"];
const term: fc.Arbitrary<string> = fc.constantFrom(...TERMS);
const field = fc.array(term, { maxLength: 12 });
const document: fc.Arbitrary<Bm25Document> = fc.tuple(field, field, field);
const corpus = fc.array(document, { minLength: 1, maxLength: 12 });
const query = fc.array(term, { minLength: 1, maxLength: 4 });
const fields = fc.tuple(
  ...[0, 1, 2].map(() =>
    fc.record({
      weight: fc.double({ min: 0.1, max: 5, noNaN: true }),
      typicalLength: fc.integer({ min: 4, max: 8 }),
    }),
  ),
);

/** `docs` with the document at `target` changed by `change`. */
const withDocument = (docs: readonly Bm25Document[], target: number, change: (doc: Bm25Document) => Bm25Document) =>
  docs.map((doc, i) => (i === target ? change(doc) : doc));
const withField = (doc: Bm25Document, f: number, terms: readonly string[]) =>
  doc.map((old, i) => (i === f ? terms : old));

describe("createBm25Index, properties", () => {
  it("scores a document above 0 exactly when it holds a query term", () => {
    fc.assert(
      fc.property(corpus, query, fields, (docs, terms, weights) => {
        const scores = createBm25Index(docs, { fields: weights }).scores(terms);
        docs.forEach((doc, index) => {
          const holds = doc.some((f) => f.some((t) => terms.includes(t)));
          expect((scores[index] as number) > 0).toBe(holds);
        });
      }),
    );
  });

  it("does not depend on the documents' order", () => {
    fc.assert(
      fc.property(corpus, query, fc.infiniteStream(fc.nat()), (docs, terms, random) => {
        const order = docs.map((_, index) => index);
        for (let i = order.length - 1; i > 0; i--) {
          const j = (random.next().value as number) % (i + 1);
          [order[i], order[j]] = [order[j] as number, order[i] as number];
        }
        const before = createBm25Index(docs, THREE_FIELDS).scores(terms);
        const after = createBm25Index(
          order.map((index) => docs[index] as Bm25Document),
          THREE_FIELDS,
        ).scores(terms);
        order.forEach((from, to) => {
          expect(after[to]).toBeCloseTo(before[from] as number, 9);
        });
      }),
    );
  });

  it("counts a repeated query term once, and does not depend on the query's order", () => {
    fc.assert(
      fc.property(corpus, query, (docs, terms) => {
        const index = createBm25Index(docs, THREE_FIELDS);
        const base = index.scores(terms);
        const doubled = index.scores([...terms, ...terms]);
        const reversed = index.scores([...terms].reverse());
        base.forEach((score, i) => {
          expect(doubled[i]).toBeCloseTo(score, 9);
          expect(reversed[i]).toBeCloseTo(score, 9);
        });
      }),
    );
  });

  it("gives a term in more documents a lower idf", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 1, max: 29 }), (count, holders) => {
        fc.pre(holders < count);
        const docs = (holders: number) =>
          Array.from({ length: count }, (_, i): Bm25Document => [i < holders ? ["t"] : ["u"]]);
        const fewer = createBm25Index(docs(holders), ONE_FIELD).idf("t");
        const more = createBm25Index(docs(holders + 1), ONE_FIELD).idf("t");
        expect(more).toBeLessThan(fewer);
        expect(more).toBeGreaterThan(0);
      }),
    );
  });

  it("never lowers a document's score when a field holding the query term weighs more", () => {
    fc.assert(
      fc.property(corpus, query, fields, fc.integer({ min: 0, max: 2 }), (docs, terms, weights, which) => {
        const heavier = weights.map((f, i) => (i === which ? { ...f, weight: f.weight * 2 } : f));
        const before = createBm25Index(docs, { fields: weights }).scores(terms);
        const after = createBm25Index(docs, { fields: heavier }).scores(terms);
        before.forEach((score, i) => {
          expect(after[i] as number).toBeGreaterThanOrEqual(score - 1e-12);
        });
      }),
    );
  });

  it("never raises a document's score when a field repeats a term it holds", () => {
    fc.assert(
      fc.property(corpus, query, fields, fc.nat(), fc.integer({ min: 0, max: 2 }), (docs, terms, weights, pick, f) => {
        const target = pick % docs.length;
        const held = (docs[target] as Bm25Document)[f] as readonly string[];
        fc.pre(held.length > 0);
        const repeated = withDocument(docs, target, (doc) => withField(doc, f, [...held, ...held]));
        const before = createBm25Index(docs, { fields: weights }).scores(terms)[target] as number;
        const after = createBm25Index(repeated, { fields: weights }).scores(terms)[target] as number;
        expect(after).toBeLessThanOrEqual(before + 1e-12);
      }),
    );
  });

  it("never raises a document's score when a field gains terms the query does not ask for", () => {
    fc.assert(
      fc.property(
        corpus,
        query,
        fields,
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.constantFrom("other", "words", "entirely"), { minLength: 1, maxLength: 40 }),
        (docs, terms, weights, pick, f, extra) => {
          const target = pick % docs.length;
          const longer = withDocument(docs, target, (doc) => withField(doc, f, [...(doc[f] as string[]), ...extra]));
          const before = createBm25Index(docs, { fields: weights }).scores(terms)[target] as number;
          const after = createBm25Index(longer, { fields: weights }).scores(terms)[target] as number;
          expect(after).toBeLessThanOrEqual(before + 1e-12);
        },
      ),
    );
  });

  it("never scores a field longer than typical above a field of typical length holding the same query terms", () => {
    fc.assert(
      fc.property(corpus, query, fields, fc.nat(), fc.integer({ min: 0, max: 2 }), (docs, terms, weights, pick, f) => {
        const target = pick % docs.length;
        const long = (docs[target] as Bm25Document)[f] as readonly string[];
        const typical = (weights[f] as { typicalLength: number }).typicalLength;
        fc.pre(long.length > typical);
        // The query terms the long field holds, at most 4, padded to the typical length with a term of no query.
        const held = [...new Set(long.filter((t) => terms.includes(t)))];
        const short = [...held, ...Array<string>(typical - held.length).fill("padding")];
        const shorter = withDocument(docs, target, (doc) => withField(doc, f, short));
        const before = createBm25Index(docs, { fields: weights }).scores(terms)[target] as number;
        const after = createBm25Index(shorter, { fields: weights }).scores(terms)[target] as number;
        expect(before).toBeLessThanOrEqual(after + 1e-12);
      }),
    );
  });

  it("searches best first, ties in document order, only scores above 0, at most limit", () => {
    fc.assert(
      fc.property(corpus, query, fc.integer({ min: 0, max: 15 }), (docs, terms, limit) => {
        const index = createBm25Index(docs, THREE_FIELDS);
        const hits = index.search(terms, limit);
        const scores = index.scores(terms);
        expect(hits.length).toBe(Math.min(limit, scores.filter((score) => score > 0).length));
        for (let i = 1; i < hits.length; i++) {
          const [a, b] = [hits[i - 1], hits[i]] as [{ index: number; score: number }, { index: number; score: number }];
          expect(a.score > b.score || (a.score === b.score && a.index < b.index)).toBe(true);
        }
        for (const hit of hits) expect(hit.score).toBe(scores[hit.index]);
      }),
    );
  });
});
