/**
 * `predex quote` (either market kind) and `predex buy|sell` on an AMM market, which trade through
 * the market's pool from the logged-in wallet: the service builds the transaction, the wallet
 * sends it to the chain, the service follows it to its receipt.
 */
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Market, PoolTradeProgress, Quote } from '../client';
import { Cli, progress, usage } from './cli-context';
import { localRpcUrl } from './local-stack';

function sideOf(word: string | undefined): 'BUY' | 'SELL' {
  const side = word?.toUpperCase();
  if (side !== 'BUY' && side !== 'SELL') throw usage(`the side is buy or sell, not ${word ?? '(none)'}`);
  return side;
}

function outcomeOf(word: string | undefined): 'YES' | 'NO' {
  const outcome = word?.toUpperCase();
  if (outcome !== 'YES' && outcome !== 'NO') throw usage(`the outcome is yes or no, not ${word ?? '(none)'}`);
  return outcome;
}

/** A quote as lines: what the amount gets, at what price, moved how far, for what fee. */
export function describeQuote(quote: Quote, outcome: string): string {
  const buy = quote.side === 'BUY';
  const where = quote.kind === 'AMM' ? `pool, block ${quote.block_number}` : `book, seq ${quote.book_seq ?? '-'}`;
  const lines = [
    `${quote.side} ${outcome} for ${quote.amount} ${buy ? 'collateral' : 'shares'} (${where})`,
    buy ? `  shares received      ${quote.expected_shares}` : `  collateral received  ${quote.expected_collateral}`,
    `  average price        ${quote.average_price ?? '-'}`,
    `  price                ${quote.price_before ?? '-'} -> ${quote.price_after ?? '-'} (impact ${quote.price_impact_bps} bps)`,
    `  fee                  ${quote.fee}`,
  ];
  if (quote.partial) lines.push(`  the book takes only ${quote.fillable_amount} of ${quote.amount}`);
  return lines.join('\n');
}

/** `predex quote <market> <buy|sell> <yes|no> <amount>`: BUY amount is collateral, SELL amount is shares. */
export async function quote(cli: Cli, [id, side, outcome, amount]: string[]): Promise<void> {
  if (!amount) throw usage('usage: predex quote <market> <buy|sell> <yes|no> <amount>  (buy: collateral to spend; sell: shares to sell)');
  const market = await cli.market(id);
  const named = outcomeOf(outcome);
  const q = await cli.client.trade.quote({ market: market.condition_id, side: sideOf(side), outcome: named, amount });
  cli.print(q, () => describeQuote(q, named));
}

function slippageOf(flag: string | undefined): number | undefined {
  if (flag === undefined) return undefined;
  if (!/^\d+$/.test(flag) || Number(flag) > 5000) throw usage(`--slippage is basis points from 0 to 5000, not ${flag}`);
  return Number(flag);
}

function progressLine(p: PoolTradeProgress): string {
  if (p.stage === 'approval') return `approval ${p.tx_hash} sent; waiting for the chain to mine it...`;
  if (p.stage === 'sent') return `pool transaction ${p.tx_hash} sent; waiting for the chain...`;
  return `  ${p.saved.status}${p.saved.status === 'PENDING' ? ' (waiting for its receipt...)' : ''}`;
}

/** `predex buy|sell <market> <amount>` on an AMM market: BUY spends `amount` collateral, SELL sells `amount` shares. */
export async function poolTrade(cli: Cli, side: 'BUY' | 'SELL', market: Market, amount: string | undefined, price: string | undefined): Promise<void> {
  const verb = side.toLowerCase();
  if (!amount) throw usage(`${verb} on an AMM market needs an amount: predex ${verb} <market> <${side === 'BUY' ? 'collateral' : 'shares'}>`);
  if (price !== undefined) throw usage('an AMM market trades at the pool\'s price: drop the price and bound the move with --slippage <bps>');
  const key = cli.stored?.private_key;
  if (!key) throw usage('a pool trade is sent by the wallet: run `predex login --key 0x<private key>` first');
  const rpc = cli.flags.rpc ?? process.env.PREDEX_RPC_URL ?? cli.stored?.rpc_url ?? localRpcUrl(process.env);
  if (!rpc) throw usage('a pool trade needs the chain\'s RPC URL: pass --rpc URL or set PREDEX_RPC_URL');
  const wallet = createWalletClient({ account: privateKeyToAccount(key), transport: http(rpc) });
  const outcome = outcomeOf(cli.flags.outcome ?? 'yes');
  const result = await cli.client.trade.throughPool(wallet, {
    market: market.condition_id, side, outcome, amount, slippage_bps: slippageOf(cli.flags.slippage),
  }, { onProgress: (p) => cli.flags.json || progress(progressLine(p)), timeoutMs: 300_000 });
  const q = result.trade.quote;
  cli.print(result, () => side === 'BUY'
    ? `bought ${outcome} for ${amount} from the pool (quoted ${q.expected_shares} shares, average ${q.average_price}): tx ${result.tx_hash} ${result.saved.status}`
    : `sold ${amount} ${outcome} to the pool (quoted ${q.expected_collateral} collateral, average ${q.average_price}): tx ${result.tx_hash} ${result.saved.status}`);
}
