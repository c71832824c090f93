// isNear: whether two names are one slip apart, for "did you mean" hints.

/**
 * Whether `a` and `b` are the same name but for case and one slip: a character added, dropped or changed, or two
 * neighbours swapped.
 */
export function isNear(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const rest = (s: string, skip: number) => s.slice(i + skip);
  return (
    rest(x, 1) === rest(y, 1) ||
    rest(x, 1) === rest(y, 0) ||
    rest(x, 0) === rest(y, 1) ||
    (x[i] === y[i + 1] && x[i + 1] === y[i] && x.slice(i + 2) === y.slice(i + 2))
  );
}
