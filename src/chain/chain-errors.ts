/**
 * Every chain failure leaves src/chain as one of two kinds:
 * - AppError SERVICE_DEGRADED (HTTP 503, retryable): the node is unreachable, timed out or answered
 *   garbage. Retry later; nothing was decided.
 * - ChainRevertError: the node answered and a contract refused (revert reason in `reason`, e.g.
 *   "Exchange: order filled or cancelled"). Not retryable as is: the inputs must change.
 * Anything else is rethrown unchanged (a programming error).
 */
import { BaseError, ContractFunctionRevertedError, decodeErrorResult, HttpRequestError, RpcRequestError, TimeoutError, type Hex } from 'viem';
import { AppError } from '../errors';
import { exchangeAbi } from './generated';

export class ChainRevertError extends Error {
  readonly reason: string;

  constructor(action: string, reason: string, options?: { cause?: unknown }) {
    super(`${action} reverted: ${reason}`, options);
    this.name = 'ChainRevertError';
    this.reason = reason;
  }
}

/** Nodes word reverts differently; keep just the Solidity reason when there is one. */
function reasonString(details: string): string {
  return /reason string '([^']*)'/.exec(details)?.[1] ?? details;
}

const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|fetch failed|socket hang up|network/i;

export function toChainError(error: unknown, action: string): Error {
  if (error instanceof AppError || error instanceof ChainRevertError) return error;
  if (error instanceof BaseError) {
    const revert = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError) {
      return new ChainRevertError(action, revert.reason ?? reasonString(revert.shortMessage), { cause: error });
    }
    const transport = error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError);
    if (transport) {
      return new AppError('SERVICE_DEGRADED', `Chain node unavailable during ${action}`, undefined, { cause: error });
    }
    const rpc = error.walk((e) => e instanceof RpcRequestError);
    if (rpc instanceof RpcRequestError && /revert/i.test(rpc.details)) {
      return new ChainRevertError(action, reasonString(rpc.details), { cause: error });
    }
  }
  if (error instanceof Error && UNREACHABLE.test(`${error.message} ${String((error as { cause?: unknown }).cause)}`)) {
    return new AppError('SERVICE_DEGRADED', `Chain node unavailable during ${action}`, undefined, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** Runs a chain call and maps its failure (see above). */
export async function chainCall<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toChainError(error, action);
  }
}

/** The Solidity reason in revert data (a `MatchFailed` log's): "Exchange: ...", else the data itself. */
export function revertReasonOf(data: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: exchangeAbi, data });
    return decoded.args?.length ? String(decoded.args[0]) : decoded.errorName;
  } catch {
    return `reverted with data ${data.slice(0, 74)}`;
  }
}
