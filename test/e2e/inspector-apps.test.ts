// An MCP App in the inspector, in headless chromium: `toolwire inspect` over a config whose MCP server's tool names a
// ui:// app; a call of it, opened on the page, shows the app in a sandboxed frame that gets the call's input and
// result over postMessage and cannot reach the page, its server or its cookies.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { browserTestsRun, CHROMIUM, CHROMIUM_FLAGS } from "../support/chromium.js";
import { builtInspectorPage } from "./helpers/build.js";
import { cliEnv, type RunningCli, startCli, tempWorkspace } from "./helpers/cli.js";
import { snapshotOf } from "./helpers/inspector-snapshot.js";
import { minimalEnv } from "./helpers/mcp-servers.js";

const SERVER = fileURLToPath(new URL("./helpers/mcp-app-server.mjs", import.meta.url));
const APP = fileURLToPath(new URL("./helpers/inspector-app.html", import.meta.url));
const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/)$/m;

const runs = browserTestsRun("the inspector's MCP Apps browser test");
if (runs) builtInspectorPage();

let cli: RunningCli | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await cli?.stop("SIGKILL");
  cli = undefined;
});

describe.skipIf(!runs)("an MCP App in the inspector", () => {
  it("frames a call's app sandboxed, gives it the call's input and result, and keeps it from the page", async () => {
    const folder = await tempWorkspace();
    try {
      const server = { id: "apps", command: process.execPath, args: [SERVER], env: { ...minimalEnv(), APP_HTML: APP } };
      await writeFile(
        join(folder.path, "toolwire.config.json"),
        JSON.stringify({ builtins: { enabled: false }, mcpServers: [server] }),
      );
      cli = startCli(["inspect"], { cwd: folder.path, env: cliEnv() });
      const [, url = "", port, token = ""] = await cli.waitForStderr(URL_LINE);
      await cli.waitForStderr(/the page follows the config's session/);
      const snapshot = await snapshotOf(url);
      const called = await fetch(`${url}calls`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://127.0.0.1:${port}` },
        body: JSON.stringify({
          sessionId: snapshot.sessions[0]?.id,
          name: "apps__show_chart",
          input: { bars: [2, 3] },
        }),
      });
      expect(called.status).toBe(200);

      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
      const page = await browser.newPage();
      await page.goto(url);
      const call = page.locator('.call[data-tool-call-id="inspector-1"]');
      await call.locator(".call-head").click();
      const frameElement = call.locator(".call-app iframe");
      await frameElement.waitFor({ timeout: 15_000 });
      expect(await frameElement.getAttribute("sandbox")).toBe("allow-scripts");
      // The app's document has a URL of its own: the page's token is not in it.
      expect(await frameElement.getAttribute("src")).not.toContain(token);

      const app = call.frameLocator(".call-app iframe");
      await expect
        .poll(() => app.locator("#result").textContent(), { timeout: 15_000 })
        .toBe('{"bars":[2,3],"total":5} | drew 2 bars');
      expect(await app.locator("#input").textContent()).toBe('{"bars":[2,3]}');
      expect(await app.locator("#host").textContent()).toBe("toolwire inspector / apps__show_chart");
      const probe = (name: string) => app.locator(`[data-probe="${name}"]`).textContent();
      await expect.poll(() => probe("fetch")).toBe("fetch: blocked");
      expect(await probe("cookie")).toBe("cookie: blocked");
      expect(await probe("parent")).toBe("parent: blocked");
      await expect.poll(() => probe("tools/call")).toBe("tools/call: refused (-32601)");
    } finally {
      await folder.remove();
    }
  }, 60_000);
});
