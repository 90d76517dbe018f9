/** The pool watcher's workflow id: a wire contract shared by the worker's start and the AMM setup workflow. */
export function poolWatcherWorkflowId(chainId: number, conditionId: string): string {
  return `pool-watcher-${chainId}-${conditionId.toLowerCase()}`;
}
