import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stemSearchTerm, tokenizeSearchText } from "./tokenize-search-text.js";

describe("tokenizeSearchText", () => {
  it("splits snake_case, kebab-case, camelCase and an MCP server__ prefix into words", () => {
    expect(tokenizeSearchText("github__create_pull-requestReview")).toEqual([
      "github",
      "creat",
      "pull",
      "request",
      "review",
    ]);
  });

  it("splits a run of capitals before a capitalised word (HTMLParser) and after a digit (v2Api)", () => {
    expect(tokenizeSearchText("HTMLParser v2Api")).toEqual(["html", "parser", "v2", "api"]);
  });

  it("drops stop words and punctuation", () => {
    expect(tokenizeSearchText("What is the size of a file?")).toEqual(["siz", "fil"]);
  });

  it("keeps letters of other scripts and digits", () => {
    expect(tokenizeSearchText("Größe ändern, base64 façade")).toEqual(["größ", "ändern", "base64", "façad"]);
  });

  it("with a limit, gives the first terms only, stop words not counted", () => {
    expect(tokenizeSearchText("Read the file and then write it", 2)).toEqual(["read", "fil"]);
    expect(tokenizeSearchText("read file", 0)).toEqual([]);
  });

  it("with a limit, gives the first terms of what it gives without one", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.nat({ max: 20 }), (text, limit) => {
        expect(tokenizeSearchText(text, limit)).toEqual(tokenizeSearchText(text).slice(0, limit));
      }),
    );
  });

  it("gives no terms for text without letters or digits", () => {
    expect(tokenizeSearchText("  -- __ !! ")).toEqual([]);
  });

  it("gives lowercase terms of letters and digits only, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (text) => {
        for (const term of tokenizeSearchText(text)) {
          expect(term).toMatch(/^[\p{L}\p{N}\p{M}]+$/u);
          expect(term).toBe(term.toLowerCase());
        }
      }),
    );
  });

  it("treats any run of separators alike: words joined by one or by many give the same terms", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    const separator = fc.stringMatching(/^[ _\-.,:/]{1,4}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), separator, (words, between) => {
        expect(tokenizeSearchText(words.join(between))).toEqual(tokenizeSearchText(words.join(" ")));
      }),
    );
  });

  it("gives the terms of two texts joined by a space as the first's terms then the second's", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (a, b) => {
        expect(tokenizeSearchText(`${a} ${b}`)).toEqual([...tokenizeSearchText(a), ...tokenizeSearchText(b)]);
      }),
    );
  });
});

describe("stemSearchTerm", () => {
  it.each([
    ["files", "fil"],
    ["file", "fil"],
    ["searching", "search"],
    ["searches", "search"],
    ["searched", "search"],
    ["directories", "directory"],
    ["directory", "directory"],
    ["creation", "creat"],
    ["created", "creat"],
    ["getting", "get"],
    ["added", "add"],
    ["status", "status"],
    ["processes", "process"],
    ["run", "run"],
  ])("stems %s to %s", (word, stem) => {
    expect(stemSearchTerm(word)).toBe(stem);
  });

  it("leaves a stem of at least three characters, and short words as they are", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,14}$/), (word) => {
        const stem = stemSearchTerm(word);
        expect(stem.length).toBeGreaterThanOrEqual(Math.min(3, word.length));
        if (word.length <= 3) expect(stem).toBe(word);
      }),
    );
  });

  it("leaves words with digits or capitals alone", () => {
    expect(stemSearchTerm("mp3s")).toBe("mp3s");
    expect(stemSearchTerm("Files")).toBe("Files");
  });
});
