/**
 * Sends many matches in few transactions: `matchOrdersBatch` settles a chunk of matches in one
 * transaction, each on its own (a refused match rolls back alone and emits `MatchFailed` with its
 * reason), so N matches cost about N / 24 transactions instead of N: one signature, one block and
 * one receipt per chunk. On the embedded chain each transaction is also a block of its own and a
 * journal write.
 *
 * Nothing is run first: since a refused match cannot fail the others, the transaction itself is
 * the check, and the receipt says which matches settled (`OrdersMatched`) and why the others were
 * refused (`MatchFailed`): `matchedTakers` and `refusedTakers` in get-receipt-state.ts. A pre-run
 * `eth_call` per chunk executed every match twice; on the embedded chain, which shares the
 * service's cores, that was most of what was left of the chain's time per match. The price is
 * the gas a refused match burns before its revert, on a path taken when a trader's balance moved
 * away (`submitMatches`, which runs each match first, remains for sends that must not spend any).
 */
import { encodeFunctionData, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';
import { checkedMatch, type MatchSubmission } from './submit-match';
import { asError, matchGasLimit, sendTogether, type FeesPerGas } from './submit-matches';

/**
 * The most gas one batch transaction may carry: under the 2^24 per-transaction cap newer forks
 * set (EIP-7825) and a quarter of the embedded chain's 60M block. About 25 one-maker matches.
 */
export const MAX_BATCH_GAS = 15_000_000n;
/** What the batch itself costs beyond its matches (the loop, the self-calls, the result). */
export const BATCH_GAS_OVERHEAD = 100_000n;
/** What the exchange keeps back beside a match's cap before it runs it (contracts/Exchange.sol `matchOrdersBatch`). */
const MATCH_RESERVE = 30_000n;
/** Calldata gas of one order of a match, at most: ~1,000 bytes at 16 gas (zero bytes cost 4). */
const CALLDATA_GAS_PER_ORDER = 16_000n;

/**
 * The gas one match adds to a batch transaction: its cap, what the exchange requires beside the cap
 * before it runs a match (1/64 of all gas stays with the caller, plus a reserve), and its calldata.
 * A batch that carries this much runs every match with its whole cap, however much the matches
 * before it burned, and never more: the operator's gas per batch is bounded by the sum.
 */
export function batchItemGas(makers: number): bigint {
  const cap = matchGasLimit(makers);
  return cap + cap / 63n + MATCH_RESERVE + CALLDATA_GAS_PER_ORDER * BigInt(makers + 1);
}

interface Item {
  /** Index in the caller's list. */
  i: number;
  /** The contract's `Match`. */
  match: { takerOrder: MatchSubmission['taker']; makerOrders: MatchSubmission['makers']; takerFill: MatchSubmission['takerFill']; makerFills: MatchSubmission['makerFills'] };
  gas: bigint;
}

/** Per match, in order: the hash of the transaction that carries it, or why it was not sent. */
export async function submitMatchBatches(ctx: ChainContext, matches: MatchSubmission[]): Promise<(Hex | Error)[]> {
  const outcomes: (Hex | Error)[] = matches.map(() => new Error('not sent'));
  const items: Item[] = [];
  matches.forEach((m, i) => {
    try {
      const match = checkedMatch(m);
      items.push({ i, match: { takerOrder: match.taker, makerOrders: match.makers, takerFill: match.takerFill, makerFills: match.makerFills }, gas: batchItemGas(match.makers.length) });
    } catch (error) {
      outcomes[i] = asError(error);
    }
  });
  const chunks = chunksOf(items);
  if (chunks.length === 0) return outcomes;
  let fees: FeesPerGas;
  try {
    fees = await chainCall('estimateFeesPerGas', () => ctx.publicClient.estimateFeesPerGas());
  } catch (error) {
    for (const item of items) outcomes[item.i] = asError(error);
    return outcomes;
  }
  const sent = await sendTogether(ctx, chunks.map((chunk) => ({ data: batchCalldata(chunk), gas: gasOf(chunk) })), fees);
  sent.forEach((outcome, c) => {
    for (const item of chunks[c]) outcomes[item.i] = outcome;
  });
  return outcomes;
}

/** Consecutive matches, each chunk's gas within MAX_BATCH_GAS (a match is never split). */
function chunksOf(items: Item[]): Item[][] {
  const chunks: Item[][] = [];
  let current: Item[] = [];
  let gas = BATCH_GAS_OVERHEAD;
  for (const item of items) {
    if (current.length > 0 && gas + item.gas > MAX_BATCH_GAS) {
      chunks.push(current);
      current = [];
      gas = BATCH_GAS_OVERHEAD;
    }
    current.push(item);
    gas += item.gas;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

const gasOf = (items: Item[]) => items.reduce((sum, item) => sum + item.gas, BATCH_GAS_OVERHEAD);

function batchCalldata(items: Item[]): Hex {
  return encodeFunctionData({ abi: exchangeAbi, functionName: 'matchOrdersBatch', args: [items.map((item) => item.match)] });
}
