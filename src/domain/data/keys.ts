// Composite keys of the store's indexes and ids: `<a>:<b>`.

/** The composite key of a pair (`agentId:competitionId`, `competitionId:agentId`, ...). */
export function pairKey(a: string, b: string): string {
  return `${a}:${b}`;
}
