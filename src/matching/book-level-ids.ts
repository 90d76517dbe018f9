/**
 * The `_id` of a book level row: its market, side and tick. A step writes its levels by this key,
 * which the store finds through its primary index; a filter on the level's fields reads every
 * level row of every market on a store that indexes only `_id` (FerretDB 1.x), and emptied levels
 * stay as rows, so that read grew with every tick any market ever traded at.
 */
export function bookLevelIdOf(chainId: number, conditionId: string, side: 'BID' | 'ASK', ticks: number): string {
  return `${chainId}:${conditionId}:${side}:${ticks}`;
}
