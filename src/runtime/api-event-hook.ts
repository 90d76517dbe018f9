import type { HandoffHolder } from '../ports/market-matcher';
import type { RealtimeEvent } from '../ports/realtime-publisher';
import type { Logger } from '../logging/logger';

/**
 * What an API process does with each realtime event it receives, beside delivering it to sockets:
 * a market continuing as new holds (or releases) its hand-offs in this process's matcher client;
 * every other event goes to order entry (settlement's spends and failures adjust cached balances,
 * hold levels release holds).
 */
export function createApiEventHook(deps: {
  matcher: HandoffHolder;
  orders: { onRealtimeEvent(event: RealtimeEvent): Promise<void> };
  logger: Logger;
}): (event: RealtimeEvent) => void {
  return (event) => {
    if (event.channel === 'handoffs') {
      deps.matcher.hold({ chain_id: event.chain_id, condition_id: event.condition_id }, event.hold_ms);
      return;
    }
    deps.orders.onRealtimeEvent(event).catch((error: unknown) => deps.logger.warn({ err: error }, 'order event hook failed'));
  };
}
