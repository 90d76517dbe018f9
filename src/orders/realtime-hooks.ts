import type { HoldLevel, RealtimeEvent, SpendLevel } from '../ports/realtime-publisher';
import { readOnce } from '../db/read-once';
import type { MarketRecord } from '../db/models/market.model';
import { balanceAssetOf } from './balance-cache';
import type { OrderContext } from './context';
import { collateralAsset, tokenAsset } from './reservations';

/**
 * The hook of order entry on the realtime stream: feed it every realtime event this process sees
 * (pushed by the workers, or tailed from the event log).
 * - `spends` (settlement saw a fill mined): what the fill took out of its wallet is taken off the
 *   wallet's cached balance, so the next request needs no chain read (src/orders/balance-cache.ts).
 * - A fill that FAILED settlement drops the wallet's cached balances (a spend taken off for it, if
 *   it was mined and then failed, comes back with the next read).
 * - `holds` (the matcher's and settlement's writes) carry each written order's `reserved_units`:
 *   the order's hold is brought down to it (holds never rise here, so a late or repeated event is
 *   harmless: an order's reserved_units only ever shrinks). Settlement publishes a fill's spend
 *   before it lowers the fill's holds, so the two never count the fill as free at once.
 * No event drops the cached maker nonce, which settlement never changes, and no event costs a
 * database read but a market's first.
 */
export function createOrderEventHook(ctx: OrderContext): (event: RealtimeEvent) => Promise<void> {
  // What the hook needs of a market (its collateral, exchange, token contract and token ids)
  // never changes: read once per process, for holds and spends alike.
  const marketOf = readOnce(
    (chainId: number, conditionId: string) => `${chainId}:${conditionId}`,
    (chainId: number, conditionId: string) => ctx.models.markets.findOne(
      { chain_id: chainId, condition_id: conditionId },
      { chain_id: 1, collateral_token: 1, ctf_exchange_address: 1, conditional_tokens_address: 1, tokens: 1 },
    ).lean<Pick<MarketRecord, 'chain_id' | 'collateral_token' | 'ctf_exchange_address' | 'conditional_tokens_address' | 'tokens'>>().exec(),
  );
  async function collateralOf(chainId: number, conditionId: string): Promise<string | null> {
    const collateral = (await marketOf(chainId, conditionId))?.collateral_token;
    return collateral ? collateralAsset(String(collateral)) : null;
  }
  async function spend(level: SpendLevel): Promise<void> {
    const market = await marketOf(level.chain_id, level.condition_id).catch(() => null);
    const token = market?.tokens.find((t) => Number(t.outcome) === level.outcome);
    if (!market || !token) return; // the balance then waits out its TTL, as before spends existed
    ctx.balances.spend(level.wallet, balanceAssetOf(market, level.side, BigInt(token.token_id)), BigInt(level.units), level.fill_id);
  }
  async function lower(hold: HoldLevel): Promise<void> {
    const asset = hold.side === 'SELL' ? tokenAsset(hold.token_id) : await collateralOf(hold.chain_id, hold.condition_id);
    if (asset === null) return;
    const wallet = hold.wallet.toLowerCase();
    await ctx.reservationStore.lowerHold({ wallet, chainId: hold.chain_id, asset }, hold.order_hash.toLowerCase(), BigInt(hold.reserved_units));
  }
  return async (event) => {
    // Synchronous, before the push is answered: the change is not answered before every process forgot the record.
    if (event.channel === 'markets') {
      ctx.marketRecords.invalidate(event);
      return;
    }
    if (event.channel === 'spends') {
      await Promise.all(event.spends.map(spend));
      return;
    }
    if (event.channel === 'holds') {
      await Promise.all(event.holds.map(lower));
      return;
    }
    if (event.channel === 'user' && event.payload.type === 'fill' && event.payload.fill.settlement_status === 'FAILED') {
      ctx.balances.invalidateBalances(event.wallet);
    }
  };
}
