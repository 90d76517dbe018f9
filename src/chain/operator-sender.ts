/**
 * The operator account's transactions leave this process one at a time, each with the next nonce.
 *
 * Why not viem's `nonceManager`: concurrent settlements then send nonces out of order, and a node
 * that mines on arrival (the embedded chain, Hardhat, Anvil) refuses a nonce above the next one
 * ("transactions can't be queued when automining"). Worse, a send that fails after taking a nonce
 * (a match refused at gas estimation) leaves a gap that every later send inherits. Here the nonce
 * is taken only when the node accepted the previous transaction, and any failure re-reads the
 * account's pending count, so a gap cannot outlive one failure.
 */
import { BaseError, NonceTooHighError, NonceTooLowError, type Address } from 'viem';

/** Re-sends after a nonce refusal (another process sent from the same account meanwhile). */
const NONCE_RETRIES = 3;

export interface PendingNonceSource {
  getTransactionCount(args: { address: Address; blockTag: 'pending' }): Promise<number>;
}

export class OperatorSender {
  private tail: Promise<unknown> = Promise.resolve();
  /** The nonce after the last accepted send; undefined = ask the node. */
  private next: number | undefined;

  constructor(
    private readonly client: PendingNonceSource,
    private readonly address: Address,
  ) {}

  /** Runs `send(nonce)` after every earlier send of this process has been accepted or has failed. */
  send<T>(send: (nonce: number) => Promise<T>): Promise<T> {
    return this.inTurn(() => this.sendNow(send));
  }

  /**
   * Runs `send(firstNonce)` for `count` transactions that take the nonces firstNonce.. in order
   * (e.g. broadcast together in one JSON-RPC batch). `send` resolves whether every one of them
   * was taken; if not, or if it throws, the next send asks the node again.
   */
  sendMany(count: number, send: (firstNonce: number) => Promise<boolean>): Promise<void> {
    return this.inTurn(async () => {
      const first = await this.nextNonce();
      this.next = undefined;
      if (await send(first)) this.next = first + count;
    });
  }

  /** Runs `run` once every earlier send of this process is done. */
  private inTurn<T>(run: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(run);
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  private async nextNonce(): Promise<number> {
    return this.next ?? this.client.getTransactionCount({ address: this.address, blockTag: 'pending' });
  }

  private async sendNow<T>(send: (nonce: number) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const nonce = await this.nextNonce();
      try {
        const result = await send(nonce);
        this.next = nonce + 1;
        return result;
      } catch (error) {
        // Whether the node took the nonce is unknown after a failure (a timeout may have been sent).
        this.next = undefined;
        if (attempt < NONCE_RETRIES && isNonceRefusal(error)) continue;
        throw error;
      }
    }
  }
}

/** A node refused the transaction for its nonce (viem maps it to a class only on some paths; a raw send keeps the node's words). */
export function isNonceRefusal(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return error.walk((e) => e instanceof NonceTooLowError || e instanceof NonceTooHighError || (e instanceof BaseError && /nonce too (low|high)/i.test(e.details ?? ''))) !== null;
}
