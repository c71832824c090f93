import { describe, expect, it } from "vitest";
import type { HtmlConversion } from "./convert-html.js";
import { renderPage } from "./render-page.js";

const toMarkdown = async (html: string): Promise<HtmlConversion> => ({ markdown: `md:${html}` });
const noConverter = async (): Promise<HtmlConversion> => ({ unavailable: "not installed" });
const bytes = (text: string) => Buffer.from(text, "utf8");

describe("renderPage", () => {
  it("converts HTML and XHTML, and shows HTML as it came with the converter's reason when it cannot", async () => {
    expect(await renderPage("text/html; charset=utf-8", bytes("<p>a</p>"), toMarkdown)).toEqual({
      text: "md:<p>a</p>",
      form: "markdown",
    });
    expect((await renderPage("application/xhtml+xml", bytes("<p/>"), toMarkdown)).form).toBe("markdown");
    expect(await renderPage("text/html", bytes("<p>a</p>"), noConverter)).toEqual({
      text: "<p>a</p>",
      form: "html",
      note: "not installed",
    });
  });

  it("converts nothing but HTML", async () => {
    const never = async (): Promise<HtmlConversion> => {
      throw new Error("called");
    };
    for (const type of ["text/plain", "application/json", "application/problem+json", "image/svg+xml", "text/csv"]) {
      expect((await renderPage(type, bytes("x"), never)).form, type).toBe("text");
    }
  });

  it("decodes the declared charset, and UTF-8 for an unknown one", async () => {
    expect((await renderPage("text/plain; charset=ISO-8859-1", Buffer.from([0x63, 0xe9]), toMarkdown)).text).toBe("cé");
    expect((await renderPage('text/plain; charset="nonsense"', bytes("é"), toMarkdown)).text).toBe("é");
  });

  it("shows a body without a content type when it reads as UTF-8 text (a cut character allowed), else describes it", async () => {
    const cut = bytes("héllo").subarray(0, 2);
    expect(await renderPage(undefined, cut, toMarkdown)).toMatchObject({ form: "text" });
    const binary = await renderPage(undefined, Buffer.from([0xff, 0xfe, 0x00, 0x01]), toMarkdown);
    expect(binary).toEqual({
      text: "",
      form: "none",
      note: "The content is binary data without a content type (4 B read), not text: it is not shown.",
    });
    expect((await renderPage("image/png", Buffer.alloc(2048), toMarkdown)).note).toBe(
      "The content is image/png (2.0 KB read), not text: it is not shown.",
    );
  });
});
