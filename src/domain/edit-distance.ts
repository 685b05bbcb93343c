// Edit distance between two texts: how a typo (a request field, a command-line option) is matched to what was meant.

/**
 * The least number of one-character insertions, deletions, substitutions and swaps of two
 * neighbours turning `a` into `b` (optimal string alignment): a swap, the commonest typo
 * (`--prot`, `formToken`), counts as one edit.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      next.push(d);
    }
    before = row;
    row = next;
  }
  return row[b.length]!;
}
