// The loopback redirect listener on 127.0.0.1: the right state ends the wait, a wrong one does not, time runs out.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type LoopbackRedirect, listenForRedirect } from "./loopback-redirect.js";

let listener: LoopbackRedirect | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe("listenForRedirect", () => {
  it("listens on 127.0.0.1 at a free port and resolves to the redirect's query", async () => {
    listener = await listenForRedirect();
    expect(listener.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const waiting = listener.waitForRedirect({ state: "s1", timeoutMs: 5_000 });
    const response = await fetch(`${listener.redirectUrl}?code=abc&state=s1&iss=https%3A%2F%2Fas.example`);
    expect(response.status).toBe(200);
    const params = await waiting;
    expect(params.get("code")).toBe("abc");
    expect(params.get("iss")).toBe("https://as.example");
  });

  it("answers a wrong or missing state with 400 and goes on waiting for the right one", async () => {
    listener = await listenForRedirect();
    const waiting = listener.waitForRedirect({ state: "right", timeoutMs: 5_000 });
    expect((await fetch(`${listener.redirectUrl}?code=forged&state=wrong`)).status).toBe(400);
    expect((await fetch(`${listener.redirectUrl}?code=forged`)).status).toBe(400);
    expect((await fetch(`${listener.redirectUrl.replace("/callback", "/other")}?state=right`)).status).toBe(404);
    await fetch(`${listener.redirectUrl}?code=real&state=right`);
    expect((await waiting).get("code")).toBe("real");
  });

  it("without a state to wait for (the request sent none), a redirect without state ends the wait", async () => {
    listener = await listenForRedirect({ path: "/oauth/callback" });
    const waiting = listener.waitForRedirect({ state: undefined, timeoutMs: 5_000 });
    expect((await fetch(`${listener.redirectUrl}?code=forged&state=unasked`)).status).toBe(400);
    expect((await fetch(`${listener.redirectUrl}?code=real`)).status).toBe(200);
    expect((await waiting).get("code")).toBe("real");
  });

  it("rejects with authorization-timeout when no redirect comes in time", async () => {
    listener = await listenForRedirect();
    await expect(listener.waitForRedirect({ state: "s", timeoutMs: 50 })).rejects.toMatchObject({
      name: "McpOAuthError",
      code: "authorization-timeout",
      message: expect.stringContaining(listener.redirectUrl),
    });
  });

  it("rejects with authorization-denied when the server sends the user back with an error", async () => {
    listener = await listenForRedirect();
    const outcome = expect(listener.waitForRedirect({ state: "s", timeoutMs: 5_000 })).rejects.toMatchObject({
      code: "authorization-denied",
      message: "The authorization server refused the authorization: access_denied (it said: user said no)",
    });
    await fetch(`${listener.redirectUrl}?error=access_denied&error_description=user%20said%20no&state=s`);
    await outcome;
  });

  it("rejects with the signal's reason when aborted", async () => {
    listener = await listenForRedirect();
    const controller = new AbortController();
    const waiting = listener.waitForRedirect({ state: "s", timeoutMs: 5_000, signal: controller.signal });
    controller.abort(new Error("interrupted"));
    await expect(waiting).rejects.toThrow("interrupted");
  });

  it("fails with redirect-listen-failed when the port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(listenForRedirect({ port })).rejects.toMatchObject({
        code: "redirect-listen-failed",
        message: expect.stringContaining("EADDRINUSE"),
      });
    } finally {
      blocker.close();
    }
  });
});
