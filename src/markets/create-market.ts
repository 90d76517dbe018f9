import { randomBytes } from 'node:crypto';
import { AppError } from '../errors';
import type { MarketKind, MarketRecord, MarketStatus } from '../db/models';
import type { ChainRegistry } from './chains';
import type { ConditionPreparer } from './condition-preparer';
import type { MarketStore } from './market-store';
import { statusChangeId } from './market-status-changer';

export interface CreateMarketInput {
  question: string;
  end_date: string;
  chain_id?: number;
  kind?: MarketKind;
  status?: MarketStatus;
  fee_rate_bps?: number;
  summary?: { en: string; cn?: string };
  rules?: { en: string; cn?: string };
  condition_id?: string;
  /** bytes32; random when absent. The demo seed passes a fixed one so that it is idempotent. */
  question_id?: string;
  /** AMM only (create-amm-market.ts): the pool's initial funding, decimal collateral. */
  initial_liquidity?: string;
  /** Operator recorded in the status audit trail. */
  actor?: string;
}

export interface CreateMarketDeps {
  store: MarketStore;
  chains: ChainRegistry;
  /** Preparer per chain id (each chain has its own conditional-tokens contract). */
  preparerFor(chainId: number): ConditionPreparer;
  now?: () => Date;
}

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: number })?.code === 11000;
}

/**
 * Creates a market. Without `condition_id` a new binary condition is prepared on the chain's
 * conditional-tokens contract (oracle = the operator); with one, the condition must already be
 * prepared there. Either way the token ids are the condition's real ERC-1155 position ids.
 */
export async function createMarket(deps: CreateMarketDeps, input: CreateMarketInput): Promise<MarketRecord> {
  const chain = deps.chains.require(input.chain_id);
  const endDate = new Date(input.end_date);
  const preparer = deps.preparerFor(chain.chain_id);
  let conditionId: string;
  let questionId: string | null = null;
  let ids: { yesTokenId: string; noTokenId: string };
  if (input.condition_id) {
    conditionId = input.condition_id.toLowerCase();
    const existing = await deps.store.markets.exists({ chain_id: chain.chain_id, condition_id: conditionId });
    if (existing) throw new AppError('VALIDATION_ERROR', 'A market with this condition_id already exists on this chain');
    ids = await preparer.positionIdsOf(conditionId);
  } else {
    questionId = (input.question_id ?? `0x${randomBytes(32).toString('hex')}`).toLowerCase();
    const prepared = await preparer.prepareBinaryCondition(questionId);
    conditionId = prepared.conditionId.toLowerCase();
    ids = prepared;
  }
  const at = deps.now?.() ?? new Date();
  const record: MarketRecord = {
    chain_id: chain.chain_id,
    condition_id: conditionId,
    question_id: questionId,
    question: input.question,
    kind: input.kind ?? 'CLOB',
    status: input.status ?? 'OPEN',
    resolution_outcome: null,
    status_version: 0,
    fee_rate_bps: input.fee_rate_bps ?? 0,
    summary: { en: input.summary?.en ?? input.question, cn: input.summary?.cn ?? null },
    rules: { en: input.rules?.en ?? '', cn: input.rules?.cn ?? null },
    tokens: [
      { outcome: 0, token_id: ids.noTokenId, decimals: chain.collateral_decimals },
      { outcome: 1, token_id: ids.yesTokenId, decimals: chain.collateral_decimals },
    ],
    collateral_token: chain.collateral_token,
    ctf_exchange_address: chain.ctf_exchange_address,
    conditional_tokens_address: chain.conditional_tokens_address,
    end_date: endDate,
    created_at: at,
    updated_at: at,
  };
  try {
    await deps.store.markets.create(record);
  } catch (error) {
    if (isDuplicateKey(error)) throw new AppError('VALIDATION_ERROR', 'A market with this condition_id already exists on this chain');
    throw error;
  }
  await deps.store.statusChanges.create({
    change_id: statusChangeId(chain.chain_id, conditionId, 0),
    chain_id: chain.chain_id,
    condition_id: conditionId,
    from_status: null,
    to_status: record.status,
    resolution_outcome: null,
    actor: input.actor ?? 'admin',
    via: 'create',
    at,
  });
  return record;
}
