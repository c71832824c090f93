// The login URL display: always printed, a browser tried only on a terminal and never with TOOLWIRE_NO_BROWSER.
import { describe, expect, it } from "vitest";
import { createAuthorizationUrlShower } from "./show-authorization-url.js";

const url = new URL("https://as.example/authorize?client_id=c&state=s");

function shower(interactive: boolean, env: Record<string, string> = {}) {
  const written: string[] = [];
  const opened: string[] = [];
  const { show, release } = createAuthorizationUrlShower({
    write: (text) => written.push(text),
    interactive,
    env,
    openBrowser: async (href) => {
      opened.push(href);
      return true;
    },
  });
  return { show, release, written, opened };
}

describe("createAuthorizationUrlShower", () => {
  it("prints the URL with the server id and opens no browser when not on a terminal", async () => {
    const { show, release, written, opened } = shower(false);
    await show("remote", url);
    release();
    expect(written.join("")).toBe(
      `toolwire: MCP server remote needs you to log in. Open this URL in a browser:\n  ${url.href}\n`,
    );
    expect(opened).toEqual([]);
  });

  it("on a terminal, tries the browser too", async () => {
    const { show, written, opened } = shower(true);
    await show("remote", url);
    expect(opened).toEqual([url.href]);
    expect(written.at(-1)).toBe("toolwire: opened it in your browser; waiting for the login\n");
  });

  it("TOOLWIRE_NO_BROWSER keeps the browser closed even on a terminal", async () => {
    const { show, opened } = shower(true, { TOOLWIRE_NO_BROWSER: "1" });
    await show("remote", url);
    expect(opened).toEqual([]);
  });
});
