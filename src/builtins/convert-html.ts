// convertHtml: HTML to Markdown with node-html-markdown in a worker thread, under a time limit. The library's time grows
// faster than its input (about 0.6 s for 220 KB of plain markup, 70 s for 450 KB, measured on a 2-core machine): a
// page must not hold the process, so the work runs off the main thread and is stopped when the time is up.
import { Worker } from "node:worker_threads";
import { resolveHtmlToMarkdown } from "./load-libraries.js";

/** Markdown, or why the HTML is shown as it came (a sentence for the model). */
export type HtmlConversion = { readonly markdown: string } | { readonly unavailable: string };

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { NodeHtmlMarkdown } = require(workerData.path);
parentPort.postMessage(NodeHtmlMarkdown.translate(workerData.html));
`;

/** The heap a conversion may use: a page of 1 MiB takes a few tens of MB. */
const WORKER_HEAP_MB = 256;

/**
 * Converts `html` to Markdown in a new worker. Resolves with `{ unavailable }` when node-html-markdown is not installed,
 * when it fails (a page nested deeper than its stack) or when `timeoutMs` passes (the worker is then terminated).
 * When `signal` aborts, terminates the worker and rejects with the abort's reason.
 */
export function convertHtml(html: string, timeoutMs: number, signal: AbortSignal): Promise<HtmlConversion> {
  const path = resolveHtmlToMarkdown();
  if (path === undefined) {
    return Promise.resolve({
      unavailable:
        "The HTML is shown as it came: the package node-html-markdown, which turns it into Markdown, is not installed (npm install node-html-markdown).",
    });
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path, html },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      worker.removeAllListeners();
      worker.on("error", () => {});
      void worker.terminate();
      settle();
    };
    const onAbort = () => finish(() => reject(signal.reason));
    const timer = setTimeout(
      () =>
        finish(() =>
          resolve({
            unavailable: `The HTML is shown as it came: turning it into Markdown took longer than the ${formatSeconds(timeoutMs)} left of web_fetch's time limit.`,
          }),
        ),
      timeoutMs,
    );
    signal.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (markdown: string) => finish(() => resolve({ markdown })));
    worker.once("error", (error) =>
      finish(() =>
        resolve({ unavailable: `The HTML is shown as it came: turning it into Markdown failed (${error.message}).` }),
      ),
    );
    worker.once("exit", (code) =>
      finish(() =>
        resolve({ unavailable: `The HTML is shown as it came: turning it into Markdown stopped (exit code ${code}).` }),
      ),
    );
  });
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}
