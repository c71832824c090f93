// `toolwire run --inspect` with the scripted demo, watched in headless chromium: the plan, the calls as they come, one
// call opened, the pending edit approved on the page, and the run going on to the end. A screenshot is kept in
// test-artifacts/ (not committed) for a person to look at.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { browserTestsRun, CHROMIUM, CHROMIUM_FLAGS } from "../support/chromium.js";
import { builtInspectorPage, builtScript } from "./helpers/build.js";
import { cliEnv, type RunningCli, startCli, tempWorkspace } from "./helpers/cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SCRIPT = join(ROOT, "examples", "demo-script.json");
const ARTIFACTS = join(ROOT, "test-artifacts");
const URL_LINE = /^inspector: (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/)$/m;

const runs = browserTestsRun("the inspector's browser test");
if (runs) builtInspectorPage();

let cli: RunningCli | undefined;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
  await cli?.stop("SIGKILL");
  cli = undefined;
});

async function openPage(url: string): Promise<Page> {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  await page.goto(url);
  (page as Page & { problems: string[] }).problems = problems;
  return page;
}

describe.skipIf(!runs)("toolwire run --inspect in a browser", () => {
  it("shows the plan and the calls as they happen, and goes on when the edit is approved on the page", async () => {
    const folder = await tempWorkspace();
    try {
      cli = startCli(["run", "--inspect", "--model", `scripted:${SCRIPT}`], { cwd: folder.path, env: cliEnv() });
      const url = (await cli.waitForStderr(URL_LINE))[1] as string;
      const page = await openPage(url);

      // The plan: visible, hidden with its diagnostic, removed with its layer and pattern.
      const plan = page.locator("#plan");
      await expect.poll(() => plan.locator(".plan-visible").textContent()).toContain("bash");
      expect(await plan.locator(".plan-hidden").textContent()).toContain("SHOP_DEPLOY_TOKEN");
      expect(await plan.locator(".plan-removed").textContent()).toContain('policy layer "team": denied by "write"');

      // The calls before the edit come in; the edit waits on the page.
      const approval = page.locator('.approval[data-tool="edit"]');
      await approval.waitFor({ timeout: 15_000 });
      expect(await approval.locator("pre").textContent()).toContain("item.priceCents * item.quantity");
      await cli.waitForStderr(/inspector: edit waits for your approval on the page \(\S+\)/);
      const first = page.locator('.call[data-tool-call-id="call_1"]');
      expect(await first.getAttribute("data-status")).toBe("error");
      expect(await page.locator('.call[data-tool-call-id="call_5"]').getAttribute("data-status")).toBe("approval");

      // One call, opened: its input, its result, its phases.
      await first.locator(".call-head").click();
      const detail = first.locator(".call-detail");
      await expect.poll(() => detail.textContent()).toContain("750 !== 1200");
      expect(await detail.textContent()).toContain('"command": "node test.js"');
      expect(await detail.locator(".phase-list").textContent()).toContain("execute");

      // Approved on the page, the run goes on to the end.
      await approval.getByRole("button", { name: "Approve" }).click();
      await page.locator('#run[data-status="completed"]').waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator(".call").count()).toBe(6);
      expect(await page.locator('.call[data-tool-call-id="call_5"]').getAttribute("data-status")).toBe("ok");
      expect(await page.locator('.call[data-tool-call-id="call_6"]').getAttribute("data-status")).toBe("ok");
      expect(await page.locator("#approvals").isHidden()).toBe(true);
      const turns = page.locator("#turns tbody tr");
      expect(await turns.count()).toBe(6);
      expect(await page.locator("#turns thead").textContent()).toContain("OpenAI Responses");

      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, "inspector-demo-run.png"), fullPage: true });
      expect((page as Page & { problems: string[] }).problems).toEqual([]);

      // The run is over and the page stays until the process is told to stop; it stops cleanly, exit 0 (completed).
      await cli.waitForStderr(/the page stays open at .* until Ctrl-C/);
      expect(cli.stdout()).toContain("completed after 6 turns");
      expect(await cli.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    } finally {
      await folder.remove();
    }
  });

  it("draws a program's nested calls indented under its row, which counts them", async () => {
    const toolwire = (await import(
      pathToFileURL(builtScript("dist/index.js")).href
    )) as typeof import("../../src/index.js");
    const { createInspector } = (await import(
      pathToFileURL(builtScript("dist/inspector/index.js")).href
    )) as typeof import("../../src/inspector/index.js");
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let session: ReturnType<typeof toolwire.createAgentSession> | undefined;
    const echo = toolwire.defineTool({
      name: "echo",
      description: "Echoes its text",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
      execute: ({ text }) => String(text),
    });
    const program = toolwire.defineTool({
      name: "program",
      description: "Calls echo twice through the session, once released",
      inputSchema: { type: "object" },
      execute: async (_input, context) => {
        await released;
        const uses = ["p.1", "p.2"].map((id) => ({ id, name: "echo", input: { text: id } }));
        await session?.dispatchAllDetailed(uses, context.nestedDispatchOptions?.());
        return "done";
      },
    });
    session = toolwire.createAgentSession({ registry: toolwire.createToolRegistry({ custom: [program, echo] }) });
    const inspector = await createInspector();
    try {
      inspector.watch(session);
      // The program starts, a model's call starts and ends after it, then the program's calls come: the list shows
      // them under the program, before the later call.
      const running = session.dispatch({ id: "p", name: "program", input: {} });
      await session.dispatch({ id: "a", name: "echo", input: { text: "a" } });
      release();
      await running;
      const page = await openPage(inspector.url);
      const rows = page.locator(".call");
      await expect.poll(() => rows.count()).toBe(4);
      const order: [string | null, string | null][] = [];
      for (let index = 0; index < 4; index++) {
        const row = rows.nth(index);
        order.push([await row.getAttribute("data-tool-call-id"), await row.getAttribute("data-depth")]);
      }
      expect(order).toEqual([
        ["p", "0"],
        ["p.1", "1"],
        ["p.2", "1"],
        ["a", "0"],
      ]);
      expect(await page.locator('.call[data-tool-call-id="p"] .call-nested').textContent()).toBe("2 nested calls");
      const indent = async (id: string) =>
        (await page.locator(`.call[data-tool-call-id="${id}"] .call-name`).boundingBox())?.x ?? 0;
      expect(await indent("p.1")).toBeGreaterThan(await indent("p"));
      await page.locator('.call[data-tool-call-id="p.1"] .call-head').click();
      await expect
        .poll(() => page.locator('.call[data-tool-call-id="p.1"] .call-detail').textContent())
        .toContain("made by the program ofp");
      expect((page as Page & { problems: string[] }).problems).toEqual([]);
    } finally {
      await inspector.close();
      session.close();
    }
  });

  it("draws a stored run read-only: its calls in order, the interrupted one marked, no plan and no call form", async () => {
    const { createInspector } = (await import(
      pathToFileURL(builtScript("dist/inspector/index.js")).href
    )) as typeof import("../../src/inspector/index.js");
    const inspector = await createInspector({ allowToolCalls: true });
    try {
      inspector.showRun(
        {
          status: "stopped",
          turns: [
            {
              turn: 1,
              text: "Deploying.",
              stopReason: "tool_use",
              tools: ["build", "deploy"],
              calls: [
                {
                  toolCallId: "b1",
                  toolName: "build",
                  input: {},
                  status: "ok",
                  result: { type: "tool_result", tool_use_id: "b1", content: [{ type: "text", text: "built" }] },
                },
                { toolCallId: "d1", toolName: "deploy", input: { env: "prod" }, status: "interrupted" },
              ],
            },
          ],
        },
        { label: "run deploy-1" },
      );
      const page = await openPage(inspector.url);
      await page.locator('#run[data-status="stopped"]').waitFor({ timeout: 15_000 });
      expect(await page.locator("#run").textContent()).toBe("stopped after 1 turn");
      expect(await page.locator('.call[data-tool-call-id="b1"]').getAttribute("data-status")).toBe("ok");
      const deploy = page.locator('.call[data-tool-call-id="d1"]');
      expect(await deploy.getAttribute("data-status")).toBe("interrupted");
      await deploy.locator(".call-head").click();
      await expect.poll(() => deploy.locator(".call-detail").textContent()).toContain("Interrupted: the call started");
      expect(await page.locator("#plan").textContent()).toContain("A stored run keeps no plan.");
      expect(await page.locator("#call-tool").isHidden()).toBe(true);
      expect(await page.locator("#turns tbody tr td").nth(1).getAttribute("title")).toBeNull();
      expect(await page.locator("#turns tbody tr td").nth(1).textContent()).toBe("2");
      expect((page as Page & { problems: string[] }).problems).toEqual([]);
    } finally {
      await inspector.close();
    }
  });
});
