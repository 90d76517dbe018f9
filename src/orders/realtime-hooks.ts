import DataLoader from 'dataloader';
import type { RealtimeEvent } from '../contracts/realtime-publisher';
import { readOnce } from '../db/read-once';
import type { OrderContext } from './context';
import { collateralAsset, tokenAsset } from './reservations';

/** Order statuses whose change can lower what the order reserves (OPEN alone never does). */
const SYNC_STATUSES = new Set(['PARTIALLY_FILLED', 'MATCHED', 'FILLED', 'CANCELLED', 'EXPIRED', 'MATCH_FAILED']);
/** Settlement steps after which the chain balance or the order's reservation has moved. */
const MOVING_SETTLEMENT = new Set(['MINED', 'CONFIRMED', 'FAILED']);

/**
 * The invalidation hook of order entry: feed it every realtime event this process sees (the
 * gateway's event-log tailer runs in every API process). A settlement step of a wallet's fill
 * drops the wallet's cached balances at once (instead of waiting out the TTL), and the hold of
 * the order concerned is brought down to the order's `reserved_units` (holds never rise here).
 * Order events (matched, cancelled, expired) move no chain balance: they lower holds only, and no
 * event drops the cached maker nonce, which settlement never changes.
 */
export function createOrderEventHook(ctx: OrderContext): (event: RealtimeEvent) => Promise<void> {
  // A market's collateral never changes: read once per process.
  const collateralOf = readOnce(
    (chainId: number, conditionId: string) => `${chainId}:${conditionId}`,
    (chainId: number, conditionId: string) => ctx.models.markets.findOne({ chain_id: chainId, condition_id: conditionId }, { collateral_token: 1 }).lean()
      .then((market) => (market?.collateral_token ? collateralAsset(String(market.collateral_token)) : null)),
  );
  // The events of one push arrive in one tick: their orders are read with one `_id: {$in}` query
  // (a find per event was the API's most frequent command under load). No cache: each event
  // wants the order's current `reserved_units`.
  const orders = new DataLoader(
    async (hashes: readonly string[]) => {
      const rows = await ctx.models.orders
        .find({ _id: { $in: [...hashes] } }, { reserved_units: 1, wallet: 1, chain_id: 1, condition_id: 1, side: 1, token_id: 1 })
        .lean();
      const byHash = new Map(rows.map((o) => [String(o._id), o]));
      return hashes.map((h) => byHash.get(h) ?? null);
    },
    { cache: false, maxBatchSize: 500 },
  );
  return async (event) => {
    if (event.channel !== 'user') return;
    const payload = event.payload;
    let orderHash: string;
    if (payload.type === 'fill') {
      if (!MOVING_SETTLEMENT.has(String(payload.fill.settlement_status))) return;
      orderHash = String(payload.fill.order_hash);
    } else {
      if (!SYNC_STATUSES.has(String(payload.order.status))) return;
      orderHash = String(payload.order.order_hash);
    }
    if (payload.type === 'fill') ctx.balances.invalidateBalances(event.wallet);
    const order = await orders.load(orderHash.toLowerCase());
    if (!order || order.wallet !== event.wallet.toLowerCase()) return;
    const asset = order.side === 'SELL' ? tokenAsset(order.token_id) : await collateralOf(order.chain_id, order.condition_id);
    if (asset === null) return;
    await ctx.reservationStore.lowerHold({ wallet: order.wallet, chainId: order.chain_id, asset }, order._id, BigInt(order.reserved_units));
  };
}
