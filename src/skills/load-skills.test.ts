// loadSkills over real SKILL.md files in temp folders: good skills load, bad ones are reported with file and reason.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatSkillsPrompt } from "./format-skills-prompt.js";
import { loadSkills, MAX_SKILL_FILE_BYTES } from "./load-skills.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "toolwire-skills-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function skill(folder: string, text: string, base = root): Promise<string> {
  await mkdir(join(base, folder), { recursive: true });
  const file = join(base, folder, "SKILL.md");
  await writeFile(file, text);
  return file;
}

describe("loadSkills", () => {
  it("reads name, description, allowed-tools and body from each subfolder's SKILL.md, in path order", async () => {
    const b = await skill("b-review", "---\nname: review\ndescription: Review a diff.\n---\nLook at the diff.\n");
    const a = await skill(
      "a-release",
      "---\nname: release\ndescription: >\n  Cut a release\n  of the package.\nallowed-tools:\n  - read\n  - group:runtime\n---\n# Steps\n",
    );
    const { skills, problems } = await loadSkills([root]);
    expect(problems).toEqual([]);
    expect(skills).toEqual([
      {
        name: "release",
        description: "Cut a release of the package.",
        allowedTools: ["read", "group:runtime"],
        file: a,
        dir: join(root, "a-release"),
        body: "# Steps\n",
      },
      {
        name: "review",
        description: "Review a diff.",
        file: b,
        dir: join(root, "b-review"),
        body: "Look at the diff.\n",
      },
    ]);
  });

  it("accepts allowed-tools as a comma- or space-separated string, and CRLF line ends", async () => {
    await skill("s", "---\r\nname: s\r\ndescription: d\r\nallowed-tools: read, grep bash\r\n---\r\nbody");
    const { skills, problems } = await loadSkills([root]);
    expect(problems).toEqual([]);
    expect(skills[0]?.allowedTools).toEqual(["read", "grep", "bash"]);
    expect(skills[0]?.body).toBe("body");
  });

  it("keeps an empty allowed-tools list (a skill that may use no tools)", async () => {
    await skill("s", "---\nname: s\ndescription: d\nallowed-tools: []\n---\n");
    expect((await loadSkills([root])).skills[0]?.allowedTools).toEqual([]);
  });

  it("reports a skill without a name, with the file and the reason, and loads the others", async () => {
    const bad = await skill("bad", "---\ndescription: no name here\n---\n");
    await skill("good", "---\nname: good\ndescription: fine\n---\n");
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.name)).toEqual(["good"]);
    expect(problems).toEqual([{ file: bad, reason: "missing name in front matter" }]);
  });

  it("reports bad YAML with the parser's message and the line in the file", async () => {
    const bad = await skill("bad", "---\nname: x\ndescription: [unclosed\n---\n");
    await skill("good", "---\nname: good\ndescription: fine\n---\n");
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.name)).toEqual(["good"]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.file).toBe(bad);
    expect(problems[0]?.reason).toMatch(/^bad YAML in front matter: Flow sequence .+ \(line 3, column \d+\)$/);
  });

  it("reports duplicate YAML keys as bad YAML", async () => {
    const bad = await skill("dup", "---\nname: a\nname: b\ndescription: d\n---\n");
    const { problems } = await loadSkills([root]);
    expect(problems).toEqual([{ file: bad, reason: expect.stringMatching(/^bad YAML in front matter: .*unique/i) }]);
  });

  it.each([
    ["no front matter", "# just markdown\n", /^no YAML front matter/],
    ["an unclosed front matter", "---\nname: x\ndescription: y\n", /^no YAML front matter/],
    ["a list as front matter", "---\n- a\n- b\n---\n", /^front matter must be a YAML mapping/],
    ["an empty front matter", "---\n---\nbody", /^missing name/],
    ["a number as name", "---\nname: 42\ndescription: d\n---\n", /^name must be a non-empty string/],
    ["a blank name", "---\nname: '  '\ndescription: d\n---\n", /^name must be a non-empty string/],
    ["a missing description", "---\nname: x\n---\n", /^missing description/],
    ["a bad allowed-tools", "---\nname: x\ndescription: d\nallowed-tools: {a: 1}\n---\n", /^allowed-tools must be/],
  ])("reports %s", async (_, text, reason) => {
    const file = await skill("s", text);
    const { skills, problems } = await loadSkills([root]);
    expect(skills).toEqual([]);
    expect(problems).toEqual([{ file, reason: expect.stringMatching(reason) }]);
  });

  it("reports a second skill of the same name and keeps the first", async () => {
    const first = await skill("a", "---\nname: same\ndescription: one\n---\n");
    const second = await skill("b", "---\nname: same\ndescription: two\n---\n");
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.description)).toEqual(["one"]);
    expect(problems).toEqual([{ file: second, reason: `duplicate skill name "same": already loaded from ${first}` }]);
  });

  it("reports a missing folder and a file given as a folder, and still reads the other folders", async () => {
    await skill("ok", "---\nname: ok\ndescription: d\n---\n");
    const missing = join(root, "nope");
    const file = join(root, "plain.txt");
    await writeFile(file, "x");
    const { skills, problems } = await loadSkills([missing, file, root]);
    expect(skills.map((s) => s.name)).toEqual(["ok"]);
    expect(problems).toEqual([
      { file: missing, reason: "skills folder not found" },
      { file, reason: expect.stringMatching(/^not a folder/) },
    ]);
  });

  it("reads a folder that is itself a skill, and skips subfolders without SKILL.md", async () => {
    const own = await skill(".", "---\nname: top\ndescription: d\n---\n");
    await mkdir(join(root, "empty"));
    const { skills, problems } = await loadSkills([root]);
    expect(problems).toEqual([]);
    expect(skills.map((s) => s.file)).toEqual([own]);
  });

  it("reports a SKILL.md that is a FIFO instead of waiting on it forever", async () => {
    execFileSync("mkfifo", [join(root, "SKILL.md")]);
    const file = await skill("fine", "---\nname: fine\ndescription: d\n---\n");
    const { skills, problems } = await loadSkills([root]);
    expect(skills.map((s) => s.file)).toEqual([file]);
    expect(problems).toEqual([
      { file: join(root, "SKILL.md"), reason: "not a regular file (a FIFO, device or socket)" },
    ]);
  });

  it("reports an oversized SKILL.md without reading it", async () => {
    const file = await skill("big", `---\nname: big\ndescription: d\n---\n${"x".repeat(MAX_SKILL_FILE_BYTES)}`);
    const { problems } = await loadSkills([root]);
    expect(problems).toEqual([{ file, reason: expect.stringMatching(/bytes, more than the 262144/) }]);
  });
});

describe("formatSkillsPrompt", () => {
  it("lists each skill on one line with its file relative to the workspace", async () => {
    await skill("review", "---\nname: review\ndescription: |\n  Review a diff,\n  carefully.\n---\n");
    const { skills } = await loadSkills([root]);
    expect(formatSkillsPrompt(skills, { relativeTo: root })).toBe(
      [
        "## Skills",
        "Skills are instructions for particular tasks, kept in files. When a task matches a skill's description, read its file first and follow it.",
        "",
        `- review: Review a diff, carefully. (file: ${join("review", "SKILL.md")})`,
      ].join("\n"),
    );
  });

  it("is empty without skills", () => {
    expect(formatSkillsPrompt([])).toBe("");
  });
});
