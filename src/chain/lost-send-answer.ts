/**
 * A broadcast whose answer never came back (a timeout, a dropped connection) may have reached the
 * node: the transaction can still be pending and mine later. Treated as "not sent", its group
 * would be sent again (a copy, which the exchange refuses once the first mines) or, on its last
 * counted round, end FAILED with its holds released while its transaction mines. But signing fixed
 * the transaction's hash before the send, so the node can be asked: it holds the transaction
 * (pending or mined), and the send is that hash; it does not, and the send failed; it cannot be
 * asked, and the outcome is unknown, which settlement does not count as a send.
 *
 * A request still on its way when the lookup runs (a node that queued the send behind the lookup)
 * is "not found" and may yet be taken: `settleLostSend` then spends its nonce (spend-lost-nonce.ts),
 * which makes "not sent" final or finds the transaction after all.
 */
import { BaseError, keccak256, TransactionNotFoundError, type Hex } from 'viem';
import { AppError, isAppError } from '../errors';
import type { ChainContext } from './chain-context';

/** The node could not say whether it took a transaction whose send lost its answer. */
export class SendOutcomeUnknownError extends AppError {
  readonly txHash: Hex;

  constructor(txHash: Hex, options?: { cause?: unknown }) {
    super('SERVICE_DEGRADED', `Chain node lost the answer to transaction ${txHash} and could not say whether it took it`, undefined, options);
    this.name = 'SendOutcomeUnknownError';
    this.txHash = txHash;
  }
}

/** A send failure after which the node may hold the transaction: no answer (as `chainCall` maps it), not a refusal. */
export function answerLost(error: unknown): boolean {
  return isAppError(error) && error.code === 'SERVICE_DEGRADED';
}

/** The outcome of a send that lost its answer: its hash when the node holds it, else `error`, or unknown. */
export async function lookUpLostSend(ctx: ChainContext, serializedTransaction: Hex, error: Error): Promise<Hex | Error> {
  const hash = keccak256(serializedTransaction);
  try {
    await ctx.publicClient.getTransaction({ hash });
    return hash;
  } catch (lookup) {
    if (lookup instanceof BaseError && lookup.walk((e) => e instanceof TransactionNotFoundError)) return error;
    return new SendOutcomeUnknownError(hash, { cause: lookup });
  }
}
