/** Confirming fills and finishing their orders as one activity. */
import type { FillStatusWrites } from './fill-status';
import type { OrderFinish } from './finish-orders';

export function createFillConfirmation({ writeFillStatus }: FillStatusWrites, { finishWith }: OrderFinish) {
  /** CONFIRMED (`markFillsOf`, MINED announced first for `atOnce`) and the orders' finish, as one activity. */
  async function confirmFills(q: { atOnce: { tradeIds: string[]; txHash: string }[]; later: { tradeIds: string[]; txHash: string }[] }): Promise<void> {
    const fills = [
      ...(await writeFillStatus({ groups: q.atOnce, status: 'CONFIRMED', passedThrough: ['MINED'] })),
      ...(await writeFillStatus({ groups: q.later, status: 'CONFIRMED' })),
    ];
    // The fills as just written and read back: the finish reads only the orders' other fills.
    await finishWith(fills, false);
  }

  return { confirmFills };
}
