// Benchmark: the built-in `grep` tool against GNU `grep -r` over 100,000 small files holding one match, in one run.
// Run: npm run bench:grep   (target: toolwire's grep at most 10x GNU grep -r on the same tree).
// The tree (1,000 folders of 100 files of a few hundred bytes) is built once in the temp folder and reused. The two
// searches are interleaved round by round, so that a shared machine's load hits them alike; each figure is the median
// over the rounds, with the fastest and slowest round. toolwire's grep is called through a session's dispatch, as a
// model calls it, with the default limits: once with plain text (the target's case) and once with a regular
// expression that RE2 runs on every line, each against GNU grep with the same pattern.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createBuiltinTools } from "../dist/builtins/index.js";
import { createAgentSession, createToolRegistry } from "../dist/index.js";
import { median } from "./lib/figures.js";

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const FOLDERS = 1000;
const FILES_PER_FOLDER = 100;
const NEEDLE = "zebra_quokka_4711";
const base = process.env.GREP_BENCH_TREE ?? join(tmpdir(), "toolwire-bench-grep");
const tree = join(base, "tree");
const done = join(base, "complete");

const WORDS = ["const", "value", "return", "function", "import", "export", "string", "number", "async", "await"];
/** A few hundred bytes of source-like text, different per file. */
function text(folder, file) {
  const lines = [];
  for (let line = 0; line < 8; line++) {
    const word = (k) => WORDS[(folder * 7 + file * 13 + line * 3 + k) % WORDS.length];
    lines.push(`${word(0)} ${word(1)}_${folder}_${file}_${line} = ${word(2)}(${word(3)}, ${line * file});`);
  }
  return `${lines.join("\n")}\n`;
}

async function buildTree() {
  if (existsSync(done)) return;
  console.log(`building ${FOLDERS * FILES_PER_FOLDER} files in ${tree} (once)...`);
  await rm(base, { recursive: true, force: true });
  for (let folder = 0; folder < FOLDERS; folder++) {
    const dir = join(tree, `pkg${String(folder).padStart(4, "0")}`);
    await mkdir(dir, { recursive: true });
    const writes = [];
    for (let file = 0; file < FILES_PER_FOLDER; file++) {
      let body = text(folder, file);
      if (folder === 613 && file === 42) body += `// the one match: ${NEEDLE}\n`;
      writes.push(writeFile(join(dir, `file${String(file).padStart(3, "0")}.ts`), body));
    }
    await Promise.all(writes);
  }
  await writeFile(done, "");
}

await buildTree();
const run = promisify(execFile);
const session = createAgentSession({ registry: createToolRegistry({ builtins: createBuiltinTools({ root: tree }) }) });
let callId = 0;
/** GNU grep -r with `args`, checking that it found the one match. */
const gnu = (args) => async () => {
  const { stdout } = await run("grep", ["-r", ...args, tree], { maxBuffer: 1 << 20 });
  if (stdout.split("\n").filter(Boolean).length !== 1) throw new Error(`GNU grep found: ${stdout}`);
};
/** toolwire's grep tool called as a model calls it, checking that it found the one match. */
const toolwire = (input) => async () => {
  const result = await session.dispatch({ id: `g${callId++}`, name: "grep", input });
  const out = result.content[0].text;
  if (result.is_error || out.split("\n").length !== 1 || !out.includes(NEEDLE)) {
    throw new Error(`toolwire grep answered: ${out.slice(0, 500)}`);
  }
};
// The plain pattern is what the target is about; the regular expression shows what matching every line costs.
const REGEX = "zebra_\\w+_4711";
const pairs = {
  [`plain text "${NEEDLE}"`]: { "GNU grep -r": gnu([NEEDLE]), "toolwire grep": toolwire({ pattern: NEEDLE }) },
  [`regular expression "${REGEX}"`]: {
    "GNU grep -rE": gnu(["-E", REGEX]),
    "toolwire grep": toolwire({ pattern: REGEX }),
  },
};
const cases = Object.entries(pairs).flatMap(([pattern, pair]) =>
  Object.entries(pair).map(([name, search]) => [`${pattern}: ${name}`, search]),
);

for (const [, search] of cases) await search(); // warm the page cache and check each finds the one match
const samples = Object.fromEntries(cases.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, search] of cases) {
    const started = performance.now();
    await search();
    samples[name].push(performance.now() - started);
  }
}

const ms = (value) => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;
console.log(`\n${FOLDERS * FILES_PER_FOLDER} files, one match; interleaved, ${ROUNDS} rounds, Node ${process.version}`);
for (const [pattern, pair] of Object.entries(pairs)) {
  console.log(pattern);
  const names = Object.keys(pair);
  for (const name of names) {
    const values = samples[`${pattern}: ${name}`];
    const range = `${ms(Math.min(...values))} - ${ms(Math.max(...values))}`;
    console.log(`  ${name.padEnd(14)} median ${ms(median(values)).padStart(9)}   range ${range}`);
  }
  const [theirs, ours] = names.map((name) => samples[`${pattern}: ${name}`]);
  const ratios = ours.map((value, round) => value / theirs[round]);
  console.log(
    `  ratio of medians ${(median(ours) / median(theirs)).toFixed(1)}x   per round ${Math.min(...ratios).toFixed(1)}x - ${Math.max(...ratios).toFixed(1)}x`,
  );
}
console.log("target: toolwire's grep at most 10x GNU grep -r (the plain-text pattern)");
