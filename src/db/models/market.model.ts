import { Connection, Model, Schema } from 'mongoose';
import { modelOf } from './model-of';

export const MARKET_STATUSES = ['OPEN', 'CLOSED', 'RESOLVED', 'PAUSED', 'SEEDING'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];
export const MARKET_KINDS = ['CLOB', 'AMM'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

export interface TranslatedText {
  en: string;
  cn?: string | null;
}

export interface TokenRecord {
  outcome: 0 | 1;
  /** ERC-1155 position id, uint256 as a decimal string. */
  token_id: string;
  decimals: number;
}

/** The pool of an AMM market (contracts/AmmPool.sol); prices are read live, not stored. */
export interface AmmRecord {
  pool_address: string;
  /** Collateral the operator funded the pool with, decimal string. */
  liquidity: string;
}

/** One market. `kind` and `question_id` are internal: the public API never shows them. */
export interface MarketRecord {
  chain_id: number;
  /** 0x-prefixed 32-byte hex, lower-case. */
  condition_id: string;
  /** bytes32 question id the condition was prepared with (null when the operator gave condition_id). */
  question_id: string | null;
  question: string;
  kind: MarketKind;
  status: MarketStatus;
  /** 0 (NO) or 1 (YES) once RESOLVED, else null. */
  resolution_outcome: 0 | 1 | null;
  /** Number of status changes applied; the audit row of change N has change_id `{chain}:{condition}:v{N}`. */
  status_version: number;
  fee_rate_bps: number;
  summary: TranslatedText;
  rules: TranslatedText;
  tokens: TokenRecord[];
  collateral_token: string;
  ctf_exchange_address: string;
  conditional_tokens_address: string;
  end_date: Date;
  created_at: Date;
  updated_at: Date;
  /** AMM markets only; null until the pool is deployed. */
  amm?: AmmRecord | null;
}

// en may be '' (no rules given); the API validates non-empty input.
const translated = new Schema<TranslatedText>({ en: { type: String, default: '' }, cn: { type: String, default: null } }, { _id: false });

const token = new Schema<TokenRecord>(
  {
    outcome: { type: Number, required: true, enum: [0, 1] },
    token_id: { type: String, required: true },
    decimals: { type: Number, required: true },
  },
  { _id: false },
);

const amm = new Schema<AmmRecord>(
  { pool_address: { type: String, required: true }, liquidity: { type: String, required: true } },
  { _id: false },
);

const schema = new Schema<MarketRecord>(
  {
    chain_id: { type: Number, required: true },
    condition_id: { type: String, required: true },
    question_id: { type: String, default: null },
    question: { type: String, required: true },
    kind: { type: String, required: true, enum: MARKET_KINDS },
    status: { type: String, required: true, enum: MARKET_STATUSES },
    resolution_outcome: { type: Number, default: null },
    status_version: { type: Number, default: 0 },
    fee_rate_bps: { type: Number, required: true },
    summary: { type: translated, required: true },
    rules: { type: translated, required: true },
    tokens: { type: [token], required: true },
    collateral_token: { type: String, required: true },
    ctf_exchange_address: { type: String, required: true },
    conditional_tokens_address: { type: String, required: true },
    end_date: { type: Date, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    amm: { type: amm, default: null },
  },
  { versionKey: false },
);
// Market identity is (chain_id, condition_id); the list sorts newest first with condition_id as tie-breaker.
schema.index({ chain_id: 1, condition_id: 1 }, { unique: true });
schema.index({ status: 1, created_at: -1, condition_id: -1 });

export type MarketModel = Model<MarketRecord>;

export function createMarketModel(connection: Connection): MarketModel {
  return modelOf(connection, 'Market', schema, 'markets');
}
