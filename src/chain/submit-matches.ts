/**
 * Sends many `matchOrders` transactions at once (one settlement step's takers): every match is
 * run first side by side (a match the contract would refuse fails here with its reason and is
 * never sent), the fees are read once, and the operator sender hands out one block of nonces, in
 * which the transactions are signed and broadcast together. The http transport batches requests
 * made together into one JSON-RPC batch, which a node takes in order; so N matches cost two round
 * trips instead of 2N, each of which waited its turn behind the others.
 *
 * The pre-run is one `eth_call` with exactly the gas limit the transaction will carry (see
 * `matchGasLimit`): if the call fits, the transaction fits, on the same state. `eth_estimateGas`
 * is the fallback only when the cap does not fit: it searches for the limit by running the match
 * several times (8.5 ms against the call's 1.4 ms on the embedded chain), and viem prepares a
 * whole transaction around it (nonce and fee reads) for a local account.
 */
import { encodeFunctionData, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { exchangeAbi } from './generated';
import { answerLost } from './lost-send-answer';
import { settleLostSend } from './spend-lost-nonce';
import { isNonceRefusal } from './operator-sender';
import { checkedMatch, type MatchSubmission } from './submit-match';

/** Rounds of signing again what a node refused for its nonce (another process sent meanwhile). */
const NONCE_ROUNDS = 3;

/** Headroom over an estimate: storage the match touches may cost more once earlier matches landed. */
const GAS_HEADROOM_PERCENT = 20n;

/**
 * The gas limit a match is first tried with: about twice what the costliest trade kind used on the
 * embedded chain (one maker: 186k-227k gas; each further maker ~90k). A node charges the gas used,
 * not the limit, so the cap costs nothing but the operator's balance check (limit x max fee). The
 * exchange gives each match of a batch exactly this much (`matchGasCap`): a test ties the two.
 */
export const MATCH_GAS_BASE = 400_000n;
export const MATCH_GAS_PER_MAKER = 200_000n;

export function matchGasLimit(makers: number): bigint {
  return MATCH_GAS_BASE + MATCH_GAS_PER_MAKER * BigInt(makers);
}

/** Per match, in order: its transaction hash, or why it was not sent (as `chainCall` maps errors). */
export async function submitMatches(ctx: ChainContext, matches: MatchSubmission[]): Promise<(Hex | Error)[]> {
  const exchange = ctx.config.addresses.exchange;
  const calldata = matches.map((m) => {
    try {
      const match = checkedMatch(m);
      return encodeFunctionData({ abi: exchangeAbi, functionName: 'matchOrders', args: [match.taker, match.makers, match.takerFill, match.makerFills] });
    } catch (error) {
      return asError(error);
    }
  });
  const [fees, ...estimates] = await Promise.allSettled([
    chainCall('estimateFeesPerGas', () => ctx.publicClient.estimateFeesPerGas()),
    ...calldata.map((data, i) => (data instanceof Error ? Promise.reject(data) : gasFor(ctx, data, matchGasLimit(matches[i].makers.length)))),
  ]);
  // Until sent, a match's outcome is why it cannot be: its refused estimate, or the fees' failure.
  const outcomes: (Hex | Error)[] = estimates.map((e) => asError(e.status === 'rejected' ? e.reason : fees.status === 'rejected' ? fees.reason : 'not sent'));
  if (fees.status === 'rejected') return outcomes;
  const ready = estimates.flatMap((e, i) => (e.status === 'fulfilled' ? [{ i, gas: e.value }] : []));
  const sent = await sendTogether(ctx, ready.map(({ i, gas }) => ({ data: calldata[i] as Hex, gas })), fees.value);
  sent.forEach((outcome, k) => {
    outcomes[ready[k].i] = outcome;
  });
  return outcomes;
}

export interface FeesPerGas {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * Signs the transactions to the exchange in one block of the operator's nonces and broadcasts them
 * together (one JSON-RPC batch, taken by the node in nonce order); a transaction a node refused for
 * its nonce (another process sent meanwhile) is signed again, up to NONCE_ROUNDS rounds. Per
 * transaction, in order: its hash, or why it was not taken.
 */
export async function sendTogether(ctx: ChainContext, txs: { data: Hex; gas: bigint }[], fees: FeesPerGas): Promise<(Hex | Error)[]> {
  const exchange = ctx.config.addresses.exchange;
  const outcomes: (Hex | Error)[] = txs.map(() => new Error('not sent'));
  let pending = txs.map((tx, i) => ({ ...tx, i }));
  for (let round = 1; pending.length > 0; round++) {
    const refused: typeof pending = [];
    const batch = pending;
    await ctx.operatorSender.sendMany(batch.length, async (firstNonce) => {
      const signed = await Promise.all(batch.map(({ data, gas }, k) => ctx.operator.signTransaction!({
        type: 'eip1559', chainId: ctx.chain.id, to: exchange, data, value: 0n, nonce: firstNonce + k, gas,
        maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      })));
      // Issued in the same tick: one JSON-RPC batch, taken by the node in nonce order.
      const sent = await Promise.allSettled(signed.map((serializedTransaction) => chainCall('matchOrders', () => ctx.publicClient.sendRawTransaction({ serializedTransaction }))));
      sent.forEach((s, k) => {
        // Another process sent from the account meanwhile: refused unsent, so safe to sign again.
        if (s.status === 'rejected' && isNonceRefusal(s.reason)) refused.push(batch[k]);
      });
      const used = sent.map((s) => s.status === 'fulfilled');
      // In nonce order: a send without an answer is settled one way or the other (spend-lost-nonce.ts).
      for (const [k, s] of sent.entries()) {
        if (s.status === 'fulfilled') {
          outcomes[batch[k].i] = s.value;
        } else if (!answerLost(s.reason)) {
          outcomes[batch[k].i] = asError(s.reason);
        } else {
          const settled = await settleLostSend(ctx, { serializedTransaction: signed[k], nonce: firstNonce + k, ...fees }, asError(s.reason));
          outcomes[batch[k].i] = settled.outcome;
          used[k] = settled.spent;
        }
      }
      // The block of nonces counts as used only when every nonce of it holds a transaction.
      return used.every(Boolean);
    });
    pending = round < NONCE_ROUNDS ? refused : [];
  }
  return outcomes;
}

/**
 * The gas limit to send `data` with: `cap` when a call with that limit succeeds, else the node's
 * estimate plus headroom (which fails with the contract's reason when the match would revert).
 */
async function gasFor(ctx: ChainContext, data: Hex, cap: bigint): Promise<bigint> {
  const exchange = ctx.config.addresses.exchange;
  // The operator's address, not its local account: viem then sends the call as it is.
  const from = ctx.operator.address;
  try {
    await ctx.publicClient.call({ account: from, to: exchange, data, gas: cap });
    return cap;
  } catch {
    const estimate = await chainCall('matchOrders', () => ctx.publicClient.estimateGas({ account: from, to: exchange, data }));
    return estimate + (estimate * GAS_HEADROOM_PERCENT) / 100n;
  }
}

export function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
