// toolwire/skills: SKILL.md folders, their system-prompt section, and the tools a skill-triggered call may use.
export { resolveSkillDispatchTools, type SkillDispatchRequest } from "../core/filter/resolve-skill-dispatch-tools.js";
export { type FormatSkillsPromptOptions, formatSkillsPrompt } from "./format-skills-prompt.js";
export { type LoadedSkills, loadSkills, SKILL_FILE_NAME, type Skill, type SkillProblem } from "./load-skills.js";
