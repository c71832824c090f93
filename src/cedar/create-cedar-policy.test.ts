import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, onTestFinished } from "vitest";
import { readDocBlocks } from "../../test/support/doc-blocks.js";
import type { CallPolicyRequest, FlowSource } from "../core/types/flow.js";
import type { JsonObject } from "../core/types/json.js";
import { createCedarPolicy } from "./create-cedar-policy.js";

/** A call of `toolName` as the session would hand it to the policy; fields overridable. */
function call(toolName: string, input: JsonObject = {}, more: Partial<CallPolicyRequest> = {}): CallPolicyRequest {
  const tainted = more.tainted ?? (more.sources ?? []).length > 0;
  return {
    toolName,
    toolCallId: "call-1",
    input,
    descriptor: { name: toolName, description: "", inputSchema: { type: "object" }, owner: { kind: "core" } },
    trust: "trusted",
    effects: "external",
    guarded: true,
    tainted,
    sources: [],
    ...more,
  };
}

const web: FlowSource = { toolCallId: "call-0", toolName: "web_fetch" };

const BASE = `@id("allow-all")
permit(principal, action, resource);
`;

describe("createCedarPolicy", () => {
  it("permits what a permit covers and denies a tool a forbid names, with the forbid's @id as the rule", async () => {
    const policy = await createCedarPolicy({
      principal: "local",
      policies: `${BASE}@id("no-bash")\nforbid(principal, action == Toolwire::Action::"bash", resource);\n`,
    });
    expect(policy(call("read"))).toBeUndefined();
    expect(policy(call("bash"))).toEqual({ deny: true, rule: "no-bash", reason: "the policy at line 3 forbids it" });
  });

  it("denies a call no policy permits, saying so", async () => {
    const policy = await createCedarPolicy({
      principal: "local",
      policies: 'permit(principal, action == Toolwire::Action::"read", resource);',
    });
    expect(policy(call("read"))).toBeUndefined();
    expect(policy(call("write"))).toEqual({ deny: true, reason: "no policy permits it" });
  });

  it("names a forbid without @id by its policy id in the text's order", async () => {
    let policies = BASE;
    for (let n = 1; n <= 11; n++)
      policies += `forbid(principal, action, resource) when { context.input has n && context.input.n == ${n} };\n`;
    const policy = await createCedarPolicy({ principal: "local", policies });
    expect(policy(call("x", { n: 10 }))).toMatchObject({
      deny: true,
      rule: "policy10",
      reason: "the policy at line 12 forbids it",
    });
    expect(policy(call("x", { n: 2 }))).toMatchObject({ rule: "policy2" });
  });

  it("forbids guarded tools while the session is tainted, and names the sources' tools in the context", async () => {
    const policy = await createCedarPolicy({
      principal: "local",
      policies: `${BASE}@id("no-guarded-when-tainted")
forbid(principal, action, resource) when { context.tainted && resource.guarded };
@id("nothing-after-web")
forbid(principal, action == Toolwire::Action::"send_mail", resource) when { context.sourceTools.contains("web_fetch") };
`,
    });
    expect(policy(call("bash"))).toBeUndefined();
    expect(policy(call("bash", {}, { sources: [web] }))).toMatchObject({ rule: "no-guarded-when-tainted" });
    expect(policy(call("read", {}, { sources: [web], guarded: false, effects: "none" }))).toBeUndefined();
    expect(policy(call("send_mail", {}, { sources: [web], guarded: false }))).toMatchObject({
      rule: "nothing-after-web",
    });
  });

  it("judges a field of the input", async () => {
    const policy = await createCedarPolicy({
      principal: "local",
      policies: `${BASE}@id("no-etc")
forbid(principal, action == Toolwire::Action::"write", resource) when { context.input.path like "/etc/*" };
`,
    });
    expect(policy(call("write", { path: "notes/a.md" }))).toBeUndefined();
    expect(policy(call("write", { path: "/etc/passwd" }))).toMatchObject({ rule: "no-etc" });
  });

  it("judges by principal, and forPrincipal gives the same policies another principal", async () => {
    const policy = await createCedarPolicy({
      principal: "alice",
      policies: `permit(principal == Toolwire::Principal::"alice", action, resource);
permit(principal in Toolwire::Group::"ops", action == Toolwire::Action::"deploy", resource);`,
      entities: [
        {
          uid: { type: "Toolwire::Principal", id: "bob" },
          attrs: {},
          parents: [{ type: "Toolwire::Group", id: "ops" }],
        },
      ],
    });
    expect(policy.principal).toBe("alice");
    expect(policy(call("deploy"))).toBeUndefined();
    const bob = policy.forPrincipal("bob");
    expect(bob.principal).toBe("bob");
    expect(bob(call("deploy"))).toBeUndefined();
    expect(bob(call("bash"))).toEqual({ deny: true, reason: "no policy permits it" });
    expect(policy.forPrincipal("carol")(call("deploy"))).toEqual({ deny: true, reason: "no policy permits it" });
  });

  it("gives the tool's owner, trust, effects and annotations as the resource's attributes", async () => {
    const policy = await createCedarPolicy({
      principal: "local",
      policies: `${BASE}@id("untrusted-github-writes")
forbid(principal, action, resource) when {
  resource.owner.kind == "mcp" && resource.owner.serverId == "github" &&
  resource.trust == "untrusted" && !(resource.annotations has readOnlyHint && resource.annotations.readOnlyHint)
};`,
    });
    const mcp = (annotations: JsonObject) =>
      call(
        "create_issue",
        {},
        {
          trust: "untrusted",
          descriptor: {
            name: "create_issue",
            description: "",
            inputSchema: { type: "object" },
            owner: { kind: "mcp", serverId: "github" },
            annotations,
          },
        },
      );
    expect(policy(mcp({}))).toMatchObject({ rule: "untrusted-github-writes" });
    expect(policy(mcp({ readOnlyHint: true, title: null }))).toBeUndefined();
  });

  it("denies, naming the rule, when a policy errors on a call (an attribute the input lacks)", async () => {
    const policy = await createCedarPolicy({
      principal: "local",
      policies: `${BASE}\n@id("small-n")\nforbid(principal, action, resource) when { context.input.n > 3 };\n`,
    });
    expect(policy(call("x", { n: 1 }))).toBeUndefined();
    const denied = policy(call("x", {}));
    expect(denied).toMatchObject({ deny: true, rule: "small-n" });
    expect(denied?.reason).toMatch(/^the policy at line 4 failed on this call: record does not have the attribute `n`/);
  });

  it("reads a policy file once and names the file, line and Cedar's words when it does not parse", async () => {
    const folder = await mkdtemp(join(tmpdir(), "cedar-"));
    onTestFinished(() => rm(folder, { recursive: true, force: true }));
    const file = join(folder, "calls.cedar");
    await writeFile(file, `${BASE}\n// the next line is wrong\nforbid(principal action, resource);\n`);
    const error = await createCedarPolicy({ principal: "local", policyFile: file }).catch((thrown) => thrown);
    expect(error).toMatchObject({ name: "CedarPolicyError", code: "cedar-policy-invalid" });
    expect(error.message).toBe(
      `${file} does not parse: ${file}:5:18: unexpected token \`action\` (expected \`!=\`, \`)\`, \`,\`, \`:\`, \`<\`, \`<=\`, \`==\`, \`>\`, \`>=\`, \`in\`, or \`is\`)`,
    );
    await writeFile(file, BASE);
    const policy = await createCedarPolicy({ principal: "local", policyFile: file });
    expect(policy(call("x"))).toBeUndefined();
  });

  it("refuses a missing policy file, naming it", async () => {
    const file = join(tmpdir(), "no-such-folder-cedar", "calls.cedar");
    await expect(createCedarPolicy({ principal: "local", policyFile: file })).rejects.toMatchObject({
      code: "cedar-policy-unreadable",
      message: `cannot read the Cedar policy file ${file} (ENOENT)`,
    });
  });

  it("refuses options it cannot use", async () => {
    await expect(createCedarPolicy({ principal: "local" })).rejects.toMatchObject({ code: "invalid-cedar-options" });
    await expect(
      createCedarPolicy({ principal: "local", policies: BASE, policyFile: "x.cedar" }),
    ).rejects.toMatchObject({
      code: "invalid-cedar-options",
    });
    await expect(createCedarPolicy({ principal: "", policies: BASE })).rejects.toMatchObject({
      code: "invalid-cedar-options",
    });
    const policy = await createCedarPolicy({ principal: "local", policies: BASE });
    expect(() => policy.forPrincipal("")).toThrow(expect.objectContaining({ code: "invalid-cedar-options" }));
  });

  it("refuses a template, naming its line", async () => {
    await expect(
      createCedarPolicy({ principal: "local", policies: `${BASE}permit(principal == ?principal, action, resource);` }),
    ).rejects.toMatchObject({
      code: "cedar-policy-invalid",
      message: expect.stringMatching(/^policies:3:1: a template/),
    });
  });

  it("validates the policies against a schema when one is given, naming the rule that breaks it", async () => {
    // The schema docs/cedar.md shows.
    const schema = readDocBlocks("docs/cedar.md").find((block) => block.lang === "cedarschema")?.code ?? "";
    const good = `${BASE}@id("no-etc")\nforbid(principal, action == Toolwire::Action::"write", resource) when { context.input.path like "/etc/*" };`;
    const bad = `${BASE}@id("typo")\nforbid(principal, action == Toolwire::Action::"write", resource) when { context.input.pth == "x" };`;
    await expect(createCedarPolicy({ principal: "local", policies: bad, schema })).rejects.toMatchObject({
      code: "cedar-policy-invalid",
      message: expect.stringMatching(/^policies:3: "typo" breaks the schema: .*pth/),
    });
    await expect(
      createCedarPolicy({ principal: "local", policies: good, schema: "namespace {" }),
    ).rejects.toMatchObject({
      code: "cedar-schema-invalid",
    });
    const policy = await createCedarPolicy({ principal: "local", policies: good, schema });
    expect(policy(call("write", { path: "/etc/hosts" }))).toMatchObject({ rule: "no-etc" });
    // A request the schema does not describe (a tool that is not one of its actions) is denied, with Cedar's words.
    expect(policy(call("bash"))).toMatchObject({
      deny: true,
      reason: expect.stringMatching(/^Cedar refused the request: /),
    });
  });

  it("refuses entities that do not parse or that declare a tool", async () => {
    await expect(
      createCedarPolicy({ principal: "local", policies: BASE, entities: [{ uid: "nope" }] }),
    ).rejects.toMatchObject({ code: "cedar-entities-invalid" });
    await expect(
      createCedarPolicy({
        principal: "local",
        policies: BASE,
        entities: [{ uid: { type: "Toolwire::Tool", id: "bash" }, attrs: {}, parents: [] }],
      }),
    ).rejects.toMatchObject({ code: "cedar-entities-invalid" });
  });
});

describe("createCedarPolicy on hostile input", () => {
  const policies = `${BASE}@id("price-cap")
forbid(principal, action, resource) when { context.input has price && context.input.price == "0.5" };
@id("no-admin")
forbid(principal, action, resource) when { context.input has role && context.input.role == "admin" };
`;

  it("gives a number that is not a safe integer as its text, and drops nulls", async () => {
    const policy = await createCedarPolicy({ principal: "local", policies });
    expect(policy(call("buy", { price: 0.5 }))).toMatchObject({ rule: "price-cap" });
    expect(policy(call("buy", { price: 1e300, list: [null, 1.25, 2 ** 60] }))).toBeUndefined();
    expect(policy(call("buy", { price: null, role: null }))).toBeUndefined();
  });

  it("denies, without crashing, an input nested deeper than Cedar can hold, then judges the next call", async () => {
    const policy = await createCedarPolicy({ principal: "local", policies });
    let deep: JsonObject = { leaf: true };
    for (let level = 0; level < 5000; level++) deep = { a: deep };
    expect(policy(call("x", deep))).toEqual({
      deny: true,
      reason: expect.stringMatching(/^Cedar cannot judge this call: the input\.a\.a.* is nested deeper than 64 levels/),
    });
    expect(policy(call("x", { role: "user" }))).toBeUndefined();
  });

  it("names where the input is unrepresentable, never what it holds", async () => {
    const policy = await createCedarPolicy({ principal: "local", policies });
    let deep: JsonObject = { token: "sk-live-secret-value" };
    for (let level = 0; level < 100; level++) deep = { a: deep };
    const denied = policy(call("x", deep));
    expect(denied?.reason).toContain("nested deeper than 64 levels");
    expect(JSON.stringify(denied)).not.toContain("sk-live-secret-value");
  });

  it("denies an input whose keys Cedar would read as an entity, so the model cannot forge one", async () => {
    const policy = await createCedarPolicy({ principal: "local", policies });
    const forged = { role: { __entity: { type: "Toolwire::Principal", id: "admin" } } } as JsonObject;
    expect(policy(call("x", forged))).toEqual({
      deny: true,
      reason:
        "Cedar cannot judge this call: the input.role has the key __entity, which Cedar reads as something other than a record",
    });
  });

  it("judges an input up to maxInputChars of JSON and denies a longer one, naming the limit", async () => {
    const policy = await createCedarPolicy({ principal: "local", policies });
    expect(policy(call("x", { role: "admin", body: "x".repeat(60_000) }))).toMatchObject({ rule: "no-admin" });
    expect(policy(call("x", { role: "user", body: "x".repeat(10_000_000) }))).toEqual({
      deny: true,
      reason:
        "Cedar cannot judge this call: the input is 10000025 characters of JSON, more than the policy's maxInputChars (65536)",
    });
    const roomy = await createCedarPolicy({ principal: "local", policies, maxInputChars: 200_000 });
    expect(roomy(call("x", { role: "user", body: "x".repeat(100_000) }))).toBeUndefined();
    await expect(createCedarPolicy({ principal: "local", policies, maxInputChars: 0 })).rejects.toMatchObject({
      code: "invalid-cedar-options",
    });
  });

  it("never throws, whatever JSON the input holds", async () => {
    const policy = await createCedarPolicy({ principal: "local", policies });
    // Keys include the ones Cedar reserves; values include floats, nulls and nesting.
    const key = fc.oneof(fc.string(), fc.constantFrom("__entity", "__extn", "__expr", "", "has", "in"));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 2 }),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, value), (input) => {
        const decision = policy(call("x", input as JsonObject));
        expect(decision === undefined || (decision.deny === true && typeof decision.reason === "string")).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
