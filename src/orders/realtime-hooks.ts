import type { HoldLevel, RealtimeEvent, SpendLevel } from '../contracts/realtime-publisher';
import { readOnce } from '../db/read-once';
import { marketKeyOf } from '../matching/market-ids';
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
  // A market's collateral never changes: read once per process.
  const collateralOf = readOnce(
    (chainId: number, conditionId: string) => `${chainId}:${conditionId}`,
    (chainId: number, conditionId: string) => ctx.models.markets.findOne({ chain_id: chainId, condition_id: conditionId }, { collateral_token: 1 }).lean()
      .then((market) => (market?.collateral_token ? collateralAsset(String(market.collateral_token)) : null)),
  );
  async function spend(level: SpendLevel): Promise<void> {
    const market = (await ctx.marketRecords.find([level]).catch(() => undefined))?.get(marketKeyOf(level));
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
