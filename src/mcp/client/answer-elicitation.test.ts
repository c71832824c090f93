import { describe, expect, it } from "vitest";
import { answerElicitation, type McpElicitationHandler } from "./answer-elicitation.js";

const FORM = {
  type: "object",
  properties: {
    name: { type: "string", default: "Ada" },
    age: { type: "integer", default: 36 },
    note: { type: "string" },
  },
};
const request = { serverId: "s", params: { message: "Who?", requestedSchema: FORM } };
const ask = (handler: McpElicitationHandler | undefined) =>
  answerElicitation(handler, request, new AbortController().signal);

describe("answerElicitation", () => {
  it("fills what an accept leaves out from the form's defaults, the answer's own values first", async () => {
    expect(await ask(() => ({ action: "accept", content: { name: "Grace" } }))).toEqual({
      kind: "answered",
      result: { action: "accept", content: { name: "Grace", age: 36 } },
    });
  });

  it("tells the server cancel when there is no handler", async () => {
    expect(await ask(undefined)).toEqual({ kind: "unanswered", result: { action: "cancel" } });
  });

  it("passes a decline and a cancel on", async () => {
    expect(await ask(() => ({ action: "decline" }))).toEqual({ kind: "declined", result: { action: "decline" } });
    expect(await ask(async () => ({ action: "cancel" }))).toEqual({ kind: "cancelled", result: { action: "cancel" } });
  });

  it("counts a throwing handler or a malformed answer as failed, and tells the server cancel", async () => {
    const thrown = await ask(() => {
      throw new Error("no terminal");
    });
    expect(thrown).toMatchObject({ kind: "failed", result: { action: "cancel" } });
    expect(thrown.kind === "failed" && thrown.problem).toContain("no terminal");
    const odd = await ask(() => ({ action: "yes" }) as never);
    expect(odd).toMatchObject({ kind: "failed", result: { action: "cancel" } });
    expect(odd.kind === "failed" && odd.problem).toContain('"yes"');
  });
});
