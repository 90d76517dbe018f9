import { batchesOfPendingTakerFills } from '../../src/matching/pending-settlements';

const M = '56-0xabc';
const fill = (seq: number, batch: string | undefined, taker = `0xt${seq}`) => ({ trade_id: `${M}:${seq}`, order_hash: taker, settlement_batch: batch });

describe('settlement batches found from their pending taker fills', () => {
  test('when fills of several batches come in any order, then each batch holds its trades in trade order, oldest batch first', () => {
    const { batches, left } = batchesOfPendingTakerFills([
      fill(12, `${M}:11`), fill(3, `${M}:2`), fill(11, `${M}:11`), fill(2, `${M}:2`), fill(10, `${M}:2`),
    ]);
    expect(batches).toEqual([
      { batchId: `${M}:2`, trades: [[`${M}:2`, '0xt2'], [`${M}:3`, '0xt3'], [`${M}:10`, '0xt10']] },
      { batchId: `${M}:11`, trades: [[`${M}:11`, '0xt11'], [`${M}:12`, '0xt12']] },
    ]);
    expect(left).toBe(0);
  });

  test('when a fill names no batch, then it is left out (written before fills named their batch)', () => {
    expect(batchesOfPendingTakerFills([fill(1, undefined), fill(2, `${M}:2`)]).batches.map((b) => b.batchId)).toEqual([`${M}:2`]);
  });

  test('when the batches hold more trades than the bound, then whole batches are taken, the first always, and the rest counted', () => {
    const fills = [fill(1, `${M}:1`), fill(2, `${M}:1`), fill(3, `${M}:1`), fill(4, `${M}:4`), fill(5, `${M}:5`), fill(6, `${M}:5`)];
    const bounded = batchesOfPendingTakerFills(fills, 4);
    expect(bounded.batches.map((b) => b.batchId)).toEqual([`${M}:1`, `${M}:4`]);
    expect(bounded.left).toBe(2);
    expect(batchesOfPendingTakerFills(fills, 2).batches.map((b) => b.batchId)).toEqual([`${M}:1`]);
    // A batch that does not fit stops the list: a smaller one after it waits too, so the oldest go first.
    const gap = batchesOfPendingTakerFills([fill(1, `${M}:1`), fill(2, `${M}:2`), fill(3, `${M}:2`), fill(4, `${M}:4`)], 2);
    expect(gap.batches.map((b) => b.batchId)).toEqual([`${M}:1`]);
    expect(gap.left).toBe(3);
  });
});
