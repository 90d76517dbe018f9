import type { HoldLevel, RealtimeEvent } from '../contracts/realtime-publisher';
import { readOnce } from '../db/read-once';
import type { OrderContext } from './context';
import { collateralAsset, tokenAsset } from './reservations';

/** Settlement steps after which the chain balance has moved. */
const MOVING_SETTLEMENT = new Set(['MINED', 'CONFIRMED', 'FAILED']);

/**
 * The invalidation hook of order entry: feed it every realtime event this process sees (pushed by
 * the workers, or tailed from the event log). A settlement step of a wallet's fill drops the
 * wallet's cached balances at once (instead of waiting out the TTL). The matcher's and
 * settlement's `holds` events carry each written order's `reserved_units`: the order's hold is
 * brought down to it (holds never rise here, so a late or repeated event is harmless: an order's
 * reserved_units only ever shrinks). No event drops the cached maker nonce, which settlement never
 * changes, and no event costs a database read but a market's first (its collateral).
 */
export function createOrderEventHook(ctx: OrderContext): (event: RealtimeEvent) => Promise<void> {
  // A market's collateral never changes: read once per process.
  const collateralOf = readOnce(
    (chainId: number, conditionId: string) => `${chainId}:${conditionId}`,
    (chainId: number, conditionId: string) => ctx.models.markets.findOne({ chain_id: chainId, condition_id: conditionId }, { collateral_token: 1 }).lean()
      .then((market) => (market?.collateral_token ? collateralAsset(String(market.collateral_token)) : null)),
  );
  async function lower(hold: HoldLevel): Promise<void> {
    const asset = hold.side === 'SELL' ? tokenAsset(hold.token_id) : await collateralOf(hold.chain_id, hold.condition_id);
    if (asset === null) return;
    const wallet = hold.wallet.toLowerCase();
    await ctx.reservationStore.lowerHold({ wallet, chainId: hold.chain_id, asset }, hold.order_hash.toLowerCase(), BigInt(hold.reserved_units));
  }
  return async (event) => {
    if (event.channel === 'holds') {
      await Promise.all(event.holds.map(lower));
      return;
    }
    if (event.channel === 'user' && event.payload.type === 'fill' && MOVING_SETTLEMENT.has(String(event.payload.fill.settlement_status))) {
      ctx.balances.invalidateBalances(event.wallet);
    }
  };
}
