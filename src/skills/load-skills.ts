// loadSkills: reads folders of SKILL.md files (YAML front matter) and reports malformed ones without failing the rest.
import type { Dirent } from "node:fs";
import { constants } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";

/** One skill: instructions in a SKILL.md file, listed for the model by name and description. */
export interface Skill {
  readonly name: string;
  readonly description: string;
  /** The `allowed-tools` front matter in policy-pattern syntax; absent when the skill does not restrict tools. */
  readonly allowedTools?: readonly string[];
  /** The absolute path of the SKILL.md file. */
  readonly file: string;
  /** The folder holding the SKILL.md file. */
  readonly dir: string;
  /** The Markdown after the front matter. */
  readonly body: string;
}

/** A skill that could not be loaded: which file and why, in words. */
export interface SkillProblem {
  readonly file: string;
  readonly reason: string;
}

/** What `loadSkills` found. */
export interface LoadedSkills {
  /** Loaded skills, ordered by folder (as given) then by path. */
  readonly skills: Skill[];
  readonly problems: SkillProblem[];
}

/** The file name a skill folder must hold. */
export const SKILL_FILE_NAME = "SKILL.md";
/** A SKILL.md larger than this is reported, not read. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const FRONT_MATTER_EMPTY = /^---[ \t]*\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Loads the skills under each folder: the folder's own SKILL.md, if any, and the SKILL.md of each
 * direct subfolder. Never throws for a bad skill or a missing folder: each becomes a problem naming
 * the file (or folder) and the reason, and the other skills still load. A name already loaded from
 * an earlier file is a problem too (the first one wins).
 */
export async function loadSkills(dirs: readonly string[]): Promise<LoadedSkills> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const byName = new Map<string, Skill>();
  for (const dir of dirs) {
    const root = resolve(dir);
    const files = await skillFilesIn(root, problems);
    for (const file of files) {
      const outcome = await readSkill(file);
      if ("reason" in outcome) {
        problems.push(outcome);
        continue;
      }
      const earlier = byName.get(outcome.name);
      if (earlier !== undefined) {
        problems.push({ file, reason: `duplicate skill name "${outcome.name}": already loaded from ${earlier.file}` });
        continue;
      }
      byName.set(outcome.name, outcome);
      skills.push(outcome);
    }
  }
  return { skills, problems };
}

async function skillFilesIn(root: string, problems: SkillProblem[]): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "skills folder not found"
        : code === "ENOTDIR"
          ? "not a folder (a skills folder holds one folder per skill, each with a SKILL.md)"
          : `cannot read skills folder: ${(error as Error).message}`;
    problems.push({ file: root, reason });
    return [];
  }
  const files: string[] = [];
  if (entries.some((entry) => entry.name === SKILL_FILE_NAME && !entry.isDirectory())) {
    files.push(join(root, SKILL_FILE_NAME));
  }
  const folders = entries
    .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
    .map((entry) => entry.name)
    .filter((name) => !name.startsWith("."))
    .sort();
  for (const name of folders) {
    const file = join(root, name, SKILL_FILE_NAME);
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) files.push(file);
  }
  return files;
}

async function readSkill(file: string): Promise<Skill | SkillProblem> {
  let text: string;
  try {
    // Non-blocking, and judged by what was opened: a FIFO swapped in after the listing must not hang the load.
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) return { file, reason: "not a regular file (a FIFO, device or socket)" };
      if (info.size > MAX_SKILL_FILE_BYTES) {
        return {
          file,
          reason: `file is ${info.size} bytes, more than the ${MAX_SKILL_FILE_BYTES} a SKILL.md may have`,
        };
      }
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { file, reason: `cannot read file: ${(error as Error).message}` };
  }
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const match = FRONT_MATTER.exec(text) ?? FRONT_MATTER_EMPTY.exec(text);
  if (match === null) {
    return {
      file,
      reason: "no YAML front matter: the file must start with a line '---', then name and description, then '---'",
    };
  }
  const yamlText = match[1] ?? "";
  // yaml is loaded here, when there is front matter to read, not when toolwire is imported (about 70 modules).
  const yaml = await import("yaml");
  let data: unknown;
  try {
    data = yaml.parse(yamlText, { prettyErrors: true, maxAliasCount: 50 });
  } catch (error) {
    return { file, reason: `bad YAML in front matter: ${describeYamlError(error, yaml.YAMLParseError)}` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) {
    return { file, reason: "front matter must be a YAML mapping with name and description" };
  }
  const record = data as Record<string, unknown>;
  const name = record.name;
  if (name === undefined || name === null) return { file, reason: "missing name in front matter" };
  if (typeof name !== "string" || name.trim() === "") return { file, reason: "name must be a non-empty string" };
  if (/[\r\n]/.test(name) || name.trim().length > 64) {
    return { file, reason: "name must be one line of at most 64 characters" };
  }
  const description = record.description;
  if (description === undefined || description === null) return { file, reason: "missing description in front matter" };
  if (typeof description !== "string" || description.trim() === "") {
    return { file, reason: "description must be a non-empty string" };
  }
  const allowed = parseAllowedTools(record["allowed-tools"]);
  if (allowed === "invalid") {
    return { file, reason: "allowed-tools must be a list of tool patterns or a comma- or space-separated string" };
  }
  const skill: Skill = {
    name: name.trim(),
    description: description.trim(),
    ...(allowed === undefined ? {} : { allowedTools: allowed }),
    file,
    dir: join(file, ".."),
    body: text.slice(match[0].length),
  };
  return Object.freeze(skill);
}

function parseAllowedTools(value: unknown): readonly string[] | undefined | "invalid" {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    return Object.freeze(value.split(/[\s,]+/).filter((part) => part !== ""));
  }
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    return Object.freeze(value.map((item: string) => item.trim()).filter((item) => item !== ""));
  }
  return "invalid";
}

function describeYamlError(error: unknown, YAMLParseError: typeof import("yaml").YAMLParseError): string {
  if (error instanceof YAMLParseError) {
    const position = error.linePos?.[0];
    // front matter starts on the file's second line
    const where = position === undefined ? "" : ` (line ${position.line + 1}, column ${position.col})`;
    const message = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    return `${message}${where}`;
  }
  return error instanceof Error ? error.message : String(error);
}
