/** What the service and the chain say at the end of a soak: every wallet's orders, fills and balances. */
import type { Address } from 'viem';
import type { ChainPort } from '../../src/chain';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { json, type BenchMarket, type Trader } from '../e2e/setup';
import { tokenKey, type FillRecord, type FinalRecord, type Holdings } from './verdict';

interface Page<T> {
  data: T[];
  next_cursor: string;
  has_more: boolean;
}

/** Every item of a wallet's list route, page by page (100 a page, the most a page holds). */
async function listAll<T>(api: string, trader: Trader, route: string): Promise<T[]> {
  const items: T[] = [];
  let cursor = '';
  for (;;) {
    const url = `${api}${route}${route.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    // Generous: the reads may run while settlement still works through a backlog.
    const res = await json<Page<T>>(url, { headers: { authorization: `Bearer ${trader.jwt}` }, signal: AbortSignal.timeout(120_000) });
    if (res.status !== 200) throw new Error(`GET ${route} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    items.push(...res.body.data);
    if (!res.body.has_more) return items;
    cursor = res.body.next_cursor;
  }
}

export async function finalRecords(api: string, traders: Trader[]): Promise<{ records: FinalRecord[]; fills: Map<string, FillRecord[]> }> {
  // One wallet at a time: twenty listings at once starved a busy service past the read timeout.
  const perWallet: { wallet: string; records: FinalRecord[]; fills: FillRecord[] }[] = [];
  for (const t of traders) {
    perWallet.push({ wallet: t.address.toLowerCase(), records: await listAll<FinalRecord>(api, t, '/v1/orders?status=all'), fills: await listAll<FillRecord>(api, t, '/v1/fills') });
  }
  return { records: perWallet.flatMap((w) => w.records), fills: new Map(perWallet.map((w) => [w.wallet, w.fills])) };
}

/** Each trader's collateral and YES-token balances on chain. */
export async function holdings(port: ChainPort, traders: Trader[], markets: BenchMarket[]): Promise<Map<string, Holdings>> {
  const client = port.context.publicClient;
  const out = new Map<string, Holdings>();
  for (const t of traders) {
    const collateral = await client.readContract({ address: port.addresses.collateral, abi: collateralAbi, functionName: 'balanceOf', args: [t.address] });
    const tokens: Record<string, bigint> = {};
    for (const m of markets) {
      const yes = m.signing.tokens.find((token) => token.outcome === 1)!;
      tokens[tokenKey(m.condition_id, 1)] = await client.readContract({
        address: port.addresses.conditionalTokens as Address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [t.address, BigInt(yes.token_id)],
      });
    }
    out.set(t.address.toLowerCase(), { collateral, tokens });
  }
  return out;
}
