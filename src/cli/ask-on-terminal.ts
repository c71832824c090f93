// `toolwire run` on a terminal: asks the person at it to approve each call the config's approvals cover.
import { createInterface } from "node:readline";
import { describeQuestion } from "../core/approve/describe-question.js";
import { describeFlowReason } from "../core/flow/describe-flow-reason.js";
import type { ApprovalDecision, ApprovalRequest } from "../core/types.js";
import { approveAhead } from "./approve-ahead.js";
import { holdProgressLine, type Output, paint } from "./output.js";

/** The most characters of a call's input a question shows. */
const MAX_SHOWN_INPUT = 2_000;

/**
 * An approver that asks on the terminal, one question at a time: the tool, its input and its digest,
 * then `y` (approve), `a` (approve this tool for the rest of the run) or `n` with an optional reason
 * (decline). Tools that `--approve` names, and tools answered `a`, are approved without a question, except calls
 * flow rules ask about (untrusted content in the session): those are always asked, with the reason. A question the
 * call stops waiting for (it expired or was aborted) is withdrawn.
 */
export function askOnTerminal(
  output: Output,
  approved: readonly string[],
): (request: ApprovalRequest, context: { signal: AbortSignal }) => Promise<ApprovalDecision> {
  const ahead = approveAhead(approved);
  const always = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  return (request, { signal }) => {
    // Flow rules ask a person at the moment untrusted content may steer a call, and a running call's own question is
    // asked as it comes: nothing answers ahead for them.
    const flow = request.reason === "untrusted-content" || request.question !== undefined;
    if (!flow && approved.length > 0 && ahead(request).approve) return Promise.resolve({ approve: true });
    const asked = queue.then(async (): Promise<ApprovalDecision> => {
      if (!flow && always.has(request.toolName)) return { approve: true };
      if (signal.aborted) return { approve: false, reason: "the call stopped waiting" };
      const answer = await question(output, request, signal);
      const [word = "", ...rest] = answer.trim().split(/\s+/);
      const choice = word.toLowerCase();
      if (choice === "y" || choice === "yes") return { approve: true };
      if (choice === "a" || choice === "always") {
        always.add(request.toolName);
        return { approve: true };
      }
      const reason = rest.join(" ").trim();
      return { approve: false, reason: reason === "" ? "declined on the terminal" : reason };
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
}

function question(output: Output, request: ApprovalRequest, signal: AbortSignal): Promise<string> {
  const release = holdProgressLine();
  const why = describeQuestion(request) ?? describeFlowReason(request);
  const input = JSON.stringify(request.input);
  const shown =
    input.length > MAX_SHOWN_INPUT ? `${input.slice(0, MAX_SHOWN_INPUT)}… (${input.length} characters)` : input;
  process.stderr.write(
    `${paint(output, "yellow", "approve?")} ${request.toolName} ${shown}\n` +
      `         ${paint(output, "dim", request.inputDigest)}\n` +
      (why === undefined ? "" : `         ${paint(output, "yellow", why)}\n`) +
      `         y: approve   a: approve ${request.toolName} for the rest of the run   n [reason]: decline\n> `,
  );
  // Not in terminal mode: the terminal keeps echoing and editing the line, and Ctrl-C stays the process's SIGINT.
  const lines = createInterface({ input: process.stdin, terminal: false });
  return new Promise<string>((resolve) => {
    let settled = false;
    const finish = (answer: string) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      lines.close();
      release();
      resolve(answer);
    };
    const onAbort = () => {
      // A string reason says why (`answered elsewhere`: the inspector's page answered first).
      const why = typeof signal.reason === "string" ? signal.reason : "the call stopped waiting";
      process.stderr.write(`\n(withdrawn: ${why})\n`);
      finish(`n ${why}`);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    lines.once("line", finish);
    lines.once("close", () => finish("n no answer"));
  });
}
