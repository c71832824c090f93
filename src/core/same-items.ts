// Whether two lists hold the very same items in the same order: how a rebuild tells that nothing changed.

/** `a` and `b` have the same length and the same item (`===`) at every index. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
