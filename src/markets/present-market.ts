import type { MarketRecord, TickerRecord, TokenRecord } from '../db/models';
import { storedAmmView, type AmmView } from '../amm/amm-market-view';
import { embeddedTicker, EmbeddedTicker } from './ticker-math';
import { Language, translate } from './language';

/** A Market as the public API shows it: spec fields only, no database ids, no internal kind. */
export interface MarketView {
  condition_id: string;
  chain_id: number;
  question: string;
  status: MarketRecord['status'];
  tokens: TokenView[];
  fee_rate_bps: number;
  created_at: string;
  summary: string;
  rules: string;
  collateral_token: string;
  ctf_exchange_address: string;
  conditional_tokens_address: string;
  end_date: string;
  ticker: EmbeddedTicker | null;
  /** AMM markets only: the pool and its prices. */
  amm?: AmmView;
}

export interface TokenView {
  outcome: 0 | 1;
  outcome_label: 'NO' | 'YES';
  token_id: string;
  decimals: number;
}

export function presentTokens(tokens: TokenRecord[]): TokenView[] {
  return [...tokens]
    .sort((a, b) => a.outcome - b.outcome)
    .map((t) => ({ outcome: t.outcome, outcome_label: t.outcome === 1 ? 'YES' : 'NO', token_id: t.token_id, decimals: t.decimals }));
}

export function presentMarket(market: MarketRecord, ticker: TickerRecord | null, language: Language, amm?: AmmView): MarketView {
  const view: MarketView = {
    condition_id: market.condition_id,
    chain_id: market.chain_id,
    question: market.question,
    status: market.status,
    tokens: presentTokens(market.tokens),
    fee_rate_bps: market.fee_rate_bps,
    created_at: market.created_at.toISOString(),
    summary: translate(market.summary, language),
    rules: translate(market.rules, language),
    collateral_token: market.collateral_token,
    ctf_exchange_address: market.ctf_exchange_address,
    conditional_tokens_address: market.conditional_tokens_address,
    end_date: market.end_date.toISOString(),
    ticker: embeddedTicker(ticker),
  };
  if (market.kind === 'AMM') view.amm = amm ?? storedAmmView(market);
  return view;
}

/** The operator's view (admin list): the public view plus the internal fields an operator needs. */
export interface AdminMarketView extends MarketView {
  kind: MarketRecord['kind'];
  resolution_outcome: 0 | 1 | null;
  question_id: string | null;
}

export function presentAdminMarket(market: MarketRecord, ticker: TickerRecord | null, amm?: AmmView): AdminMarketView {
  return {
    ...presentMarket(market, ticker, 'en', amm),
    kind: market.kind,
    resolution_outcome: market.resolution_outcome,
    question_id: market.question_id,
  };
}
