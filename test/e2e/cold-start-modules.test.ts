// What a cold start loads (docs/benchmarks.md, "Cold start"): importing toolwire loads no other package, ajv comes with
// the first schema compiled and yaml with the first skill read.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToEnd } from "../support/run-to-end.js";
import { builtScript } from "./helpers/build.js";
import { cliEnv, tempWorkspace } from "./helpers/cli.js";

const RECORDER = fileURLToPath(new URL("../support/record-loaded-modules.mjs", import.meta.url));
const ROOT = builtScript("dist/index.js");

let folder: { path: string; remove(): Promise<void> };
beforeAll(async () => {
  folder = await tempWorkspace({
    "skills/notes/SKILL.md": "---\nname: notes\ndescription: Keeps notes.\n---\nWrite them down.\n",
  });
});
afterAll(() => folder.remove());

describe("importing toolwire", () => {
  it("loads no other package; ajv and ajv-formats load with the first schema compiled, yaml with the first skill", async () => {
    const log = join(folder.path, "import.log");
    const code = `
      const packages = () => [...new Set(globalThis.loadedModules().map((url) => {
        const at = url.lastIndexOf("/node_modules/");
        if (at === -1) return undefined;
        const [scope, name] = url.slice(at + 14).split("/");
        return scope.startsWith("@") ? scope + "/" + name : scope;
      }).filter((name) => name !== undefined))].sort();
      const seen = {};
      const toolwire = await import(${JSON.stringify(pathToFileURL(ROOT).href)});
      seen.imported = packages();
      const add = toolwire.defineTool({ name: "add", description: "Adds", execute: ({ a, b }) => String(a + b),
        inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } });
      const session = toolwire.createAgentSession({ registry: toolwire.createToolRegistry({ custom: [add] }) });
      const result = await session.dispatch({ id: "t1", name: "add", input: { a: 2, b: "3" } });
      seen.dispatched = packages();
      seen.refusal = result.content[0].text;
      const skills = await toolwire.loadSkills([${JSON.stringify(join(folder.path, "skills"))}]);
      seen.skills = skills.skills.map((skill) => skill.name);
      seen.skillsRead = packages();
      console.log(JSON.stringify(seen));`;
    const run = await runToEnd(process.execPath, ["--import", RECORDER, "--input-type=module", "-e", code], {
      env: cliEnv({ TOOLWIRE_MODULE_LOG: log }),
      timeoutMs: 20_000,
      what: "node importing toolwire",
    });
    expect(run.stderr).toBe("");
    const seen = JSON.parse(run.stdout);
    expect(seen.imported).toEqual([]);
    // The call was validated (ajv's refusal), so ajv ran; no skill was read yet.
    expect(seen.refusal).toContain("input.b");
    expect(seen.dispatched).toEqual(expect.arrayContaining(["ajv", "ajv-formats"]));
    expect(seen.dispatched).not.toContain("yaml");
    expect(seen.skills).toEqual(["notes"]);
    expect(seen.skillsRead).toContain("yaml");
  });
});
