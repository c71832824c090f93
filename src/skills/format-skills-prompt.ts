// formatSkillsPrompt: the system prompt's section listing the skills a model may read before acting.
import { relative } from "node:path";
import type { Skill } from "./load-skills.js";

/** How `formatSkillsPrompt` shows paths. */
export interface FormatSkillsPromptOptions {
  /** Show each skill's file relative to this folder (the workspace root the model's `read` sees). Default: absolute. */
  readonly relativeTo?: string;
}

/**
 * A section for the system prompt that lists each skill's name, description and file, so the model
 * reads a skill's file when a task matches it. Descriptions are collapsed to one line. An empty
 * string when there are no skills, so a prompt without skills stays as it was.
 */
export function formatSkillsPrompt(skills: readonly Skill[], options: FormatSkillsPromptOptions = {}): string {
  if (skills.length === 0) return "";
  const lines = [
    "## Skills",
    "Skills are instructions for particular tasks, kept in files. When a task matches a skill's description, read its file first and follow it.",
    "",
  ];
  for (const skill of skills) {
    const file = options.relativeTo === undefined ? skill.file : relative(options.relativeTo, skill.file) || skill.file;
    lines.push(`- ${oneLine(skill.name)}: ${oneLine(skill.description)} (file: ${file})`);
  }
  return lines.join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
