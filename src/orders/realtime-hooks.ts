import type { RealtimeEvent } from '../contracts/realtime-publisher';
import type { OrderContext } from './context';

const RELEASING_STATUSES = new Set(['CANCELLED', 'EXPIRED', 'MATCH_FAILED', 'FILLED']);
const MOVING_SETTLEMENT = new Set(['MINED', 'CONFIRMED', 'FAILED']);

/**
 * The invalidation hook of order entry: feed it every realtime event this process sees (the
 * gateway's event-log tailer runs in every API process). A settlement step of a wallet's fill
 * drops the wallet's cached chain reads at once (instead of waiting out the TTL), and an order
 * reaching a status that frees its funds has its hold brought down to its `reserved_units`.
 */
export function createOrderEventHook(ctx: OrderContext): (event: RealtimeEvent) => Promise<void> {
  return async (event) => {
    if (event.channel !== 'user') return;
    const payload = event.payload;
    if (payload.type === 'fill') {
      if (MOVING_SETTLEMENT.has(String(payload.fill.settlement_status))) ctx.balances.invalidateWallet(event.wallet);
      return;
    }
    const status = String(payload.order.status);
    const orderHash = String(payload.order.order_hash);
    if (!RELEASING_STATUSES.has(status)) return;
    ctx.balances.invalidateWallet(event.wallet);
    const order = await ctx.models.orders.findById(orderHash, { reserved_units: 1, wallet: 1 }).lean();
    if (order && order.wallet === event.wallet.toLowerCase()) await ctx.reservationStore.setHold(event.wallet, orderHash, BigInt(order.reserved_units));
  };
}
