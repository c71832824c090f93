// `toolwire run --inspect` on a terminal: a question asked on the terminal and on the page at once; the first answer
// counts.
import type { ApprovalDecision, ApprovalOptions } from "../core/types.js";

type Approver = NonNullable<ApprovalOptions["approver"]>;

/**
 * An approver that asks every one of `approvers` at once and takes the first answer; the others are withdrawn (their
 * signal aborts with the reason `answered elsewhere`). An approver that throws is left out of the race; when all
 * throw, the call is declined. The call's own signal still withdraws every question.
 */
export function firstAnswer(approvers: readonly Approver[]): Approver {
  return (request, { signal }) => {
    const controllers = approvers.map(() => new AbortController());
    return new Promise<ApprovalDecision>((resolve) => {
      let settled = false;
      let failed = 0;
      const settle = (winner: number, decision: ApprovalDecision) => {
        if (settled) return;
        settled = true;
        controllers.forEach((controller, index) => {
          if (index !== winner) controller.abort("answered elsewhere");
        });
        resolve(decision);
      };
      approvers.forEach((approver, index) => {
        const own = AbortSignal.any([signal, (controllers[index] as AbortController).signal]);
        Promise.resolve()
          .then(() => approver(request, { signal: own }))
          .then(
            (decision) => settle(index, decision),
            () => {
              failed++;
              if (failed === approvers.length) settle(-1, { approve: false, reason: "no approver could answer" });
            },
          );
      });
    });
  };
}
