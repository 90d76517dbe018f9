/**
 * A send that lost its answer and that the node says it does not hold may still be on its way: a
 * node that queued the broadcast behind the lookup takes it later, and it mines. Settlement,
 * told "not sent", would then end a group FAILED after its last counted round (holds released,
 * orders MATCH_FAILED) while its match settles on chain.
 *
 * Spending the lost transaction's nonce settles the question at once: a 0-value transfer from the
 * operator to itself at that nonce and the same fees. The node takes it: the lost transaction can
 * never be mined (its nonce is spent; arriving later, the node refuses it), and the send failed.
 * The node refuses it for its nonce, or as an underpriced replacement: the lost transaction got
 * there first, so the node is asked for it again and the send is it. Anything else, or an answer
 * lost again: the outcome is unknown (settlement does not count such a round and asks the chain
 * again later). On this path the transfer costs 21,000 gas.
 */
import { keccak256, type Hex } from 'viem';
import { chainCall } from './chain-errors';
import type { ChainContext } from './chain-context';
import { answerLost, lookUpLostSend, SendOutcomeUnknownError } from './lost-send-answer';
import { isNonceRefusal } from './operator-sender';

/** Gas of a plain transfer. */
const TRANSFER_GAS = 21_000n;

export interface LostSend {
  /** The signed transaction whose broadcast lost its answer. */
  serializedTransaction: Hex;
  nonce: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * The outcome of a send that lost its answer: its hash when the node holds it (looked up by the
 * hash its signing fixed, lost-send-answer.ts), unknown when the node cannot be asked, and else
 * what spending its nonce says. `spent`: the nonce now holds a transaction.
 */
export async function settleLostSend(ctx: ChainContext, lost: LostSend, failure: Error): Promise<{ outcome: Hex | Error; spent: boolean }> {
  const found = await lookUpLostSend(ctx, lost.serializedTransaction, failure);
  if (typeof found === 'string') return { outcome: found, spent: true };
  if (found instanceof SendOutcomeUnknownError) return { outcome: found, spent: false };
  return spendLostNonce(ctx, lost, found);
}

/**
 * The outcome of a lost send the node did not hold: `failure` when its nonce is now spent by the
 * transfer (and `spent` true), its hash when it turned out to be taken, else unknown.
 */
async function spendLostNonce(ctx: ChainContext, lost: LostSend, failure: Error): Promise<{ outcome: Hex | Error; spent: boolean }> {
  const lostHash = keccak256(lost.serializedTransaction);
  const unknown = (cause: unknown) => ({ outcome: new SendOutcomeUnknownError(lostHash, { cause }), spent: false });
  const transfer = await ctx.operator.signTransaction!({
    type: 'eip1559', chainId: ctx.chain.id, to: ctx.operator.address, value: 0n, nonce: lost.nonce, gas: TRANSFER_GAS,
    maxFeePerGas: lost.maxFeePerGas, maxPriorityFeePerGas: lost.maxPriorityFeePerGas,
  });
  try {
    await chainCall('spendNonce', () => ctx.publicClient.sendRawTransaction({ serializedTransaction: transfer }));
    return { outcome: failure, spent: true };
  } catch (error) {
    if (answerLost(error)) {
      // The transfer's own answer lost: if the node holds it, the nonce is spent all the same.
      const transferSeen = await lookUpLostSend(ctx, transfer, failure);
      return typeof transferSeen === 'string' ? { outcome: failure, spent: true } : unknown(error);
    }
    if (!takenBefore(error)) return unknown(error);
    // The nonce was taken first: by the lost transaction, which the node now holds.
    const found = await lookUpLostSend(ctx, lost.serializedTransaction, failure);
    return typeof found === 'string' ? { outcome: found, spent: true } : unknown(error);
  }
}

/** A refusal that means the nonce already holds a transaction (mined, or pending at these fees). */
function takenBefore(error: unknown): boolean {
  if (isNonceRefusal(error)) return true;
  const text = error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ''}` : String(error);
  return /replacement transaction underpriced|already known|nonce too low/i.test(text);
}
