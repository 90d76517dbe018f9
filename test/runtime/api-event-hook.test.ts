import type { MarketRef } from '../../src/ports/market-matcher';
import type { RealtimeEvent } from '../../src/ports/realtime-publisher';
import { createLogger } from '../../src/logging/logger';
import { createApiEventHook } from '../../src/runtime/api-event-hook';

describe('API event hook', () => {
  const market = { chain_id: 56, condition_id: `0x${'ab'.repeat(32)}` };
  const setup = () => {
    const holds: { market: MarketRef; ms: number }[] = [];
    const seen: RealtimeEvent[] = [];
    const hook = createApiEventHook({
      matcher: { hold: (m, ms) => void holds.push({ market: m, ms }) },
      orders: { onRealtimeEvent: (e) => Promise.resolve(void seen.push(e)) },
      logger: createLogger({ level: 'silent' }),
    });
    return { holds, seen, hook };
  };

  test('when a market asks to hold its hand-offs, then this process\'s matcher client holds them, and releases them when asked', () => {
    const { holds, seen, hook } = setup();
    hook({ channel: 'handoffs', ...market, hold_ms: 10_000 });
    hook({ channel: 'handoffs', ...market, hold_ms: 0 });
    expect(holds).toEqual([{ market, ms: 10_000 }, { market, ms: 0 }]);
    expect(seen).toEqual([]);
  });

  test('when any other event arrives, then it goes to order entry and holds nothing', () => {
    const { holds, seen, hook } = setup();
    const event: RealtimeEvent = { channel: 'holds', holds: [] };
    hook(event);
    expect(seen).toEqual([event]);
    expect(holds).toEqual([]);
  });
});
