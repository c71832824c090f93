// The command line of a bench script: the value given after a flag.

/** The value after `name` on the command line (`--rounds 9` gives "9"), or `undefined` when the flag is absent. */
export function flag(name) {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}
