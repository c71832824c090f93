// Synthetic tool sets of any size with realistic schemas: the tools real MCP servers list, cycled and renamed.
import { readFileSync } from "node:fs";

const FIXTURES = ["mcp-tools-list.everything.json", "mcp-tools-list.filesystem.json"];

/** The tools of the captured `tools/list` answers in `bench/fixtures/` (server-everything and server-filesystem). */
export function loadFixtureTools() {
  const tools = [];
  for (const file of FIXTURES) {
    const text = readFileSync(new URL(`../fixtures/${file}`, import.meta.url), "utf8");
    tools.push(...JSON.parse(text).result.tools);
  }
  return tools;
}

/**
 * `count` tool specs `{ name, description, inputSchema }`, cycling through `templates`. Names are
 * unique and valid for every provider (`<template name with - as _>_<index>`, at most 64 characters);
 * each spec gets its own deep copy of the template's schema, as a fresh `tools/list` would.
 */
export function buildToolSpecs(count, templates = loadFixtureTools()) {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, got ${count}`);
  if (templates.length === 0 && count > 0) throw new RangeError("no template tools to build from");
  const specs = [];
  for (let index = 0; index < count; index++) {
    const template = templates[index % templates.length];
    const suffix = `_${index}`;
    const base = template.name.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 64 - suffix.length);
    specs.push({
      name: `${base}${suffix}`,
      description: template.description ?? "",
      inputSchema: structuredClone(template.inputSchema),
    });
  }
  return specs;
}
