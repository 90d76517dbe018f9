import { batchesOfPendingTakerFills } from '../../src/matching/pending-settlements';

const M = '56-0xabc';
const fill = (seq: number, batch: string | undefined, taker = `0xt${seq}`) => ({ trade_id: `${M}:${seq}`, order_hash: taker, settlement_batch: batch });

describe('settlement batches found from their pending taker fills', () => {
  test('when fills of several batches come in any order, then each batch holds its trades in trade order, oldest batch first', () => {
    const { batches, next } = batchesOfPendingTakerFills([
      fill(12, `${M}:11`), fill(3, `${M}:2`), fill(11, `${M}:11`), fill(2, `${M}:2`), fill(10, `${M}:2`),
    ]);
    expect(batches).toEqual([
      { batchId: `${M}:2`, trades: [[`${M}:2`, '0xt2'], [`${M}:3`, '0xt3'], [`${M}:10`, '0xt10']] },
      { batchId: `${M}:11`, trades: [[`${M}:11`, '0xt11'], [`${M}:12`, '0xt12']] },
    ]);
    expect(next).toBeNull();
  });

  test('when a fill names no batch, then it is left out (written before fills named their batch)', () => {
    expect(batchesOfPendingTakerFills([fill(1, undefined), fill(2, `${M}:2`)]).batches.map((b) => b.batchId)).toEqual([`${M}:2`]);
  });

  test('when the batches hold more trades than a page, then a page takes whole batches, the first always, and says where the next starts', () => {
    const fills = [fill(1, `${M}:1`), fill(2, `${M}:1`), fill(3, `${M}:1`), fill(4, `${M}:4`), fill(5, `${M}:5`), fill(6, `${M}:5`)];
    const first = batchesOfPendingTakerFills(fills, 0, 4);
    expect(first.batches.map((b) => b.batchId)).toEqual([`${M}:1`, `${M}:4`]);
    expect(first.next).toBe(5);
    const second = batchesOfPendingTakerFills(fills, first.next!, 4);
    expect(second).toEqual({ batches: [{ batchId: `${M}:5`, trades: [[`${M}:5`, '0xt5'], [`${M}:6`, '0xt6']] }], next: null });
    // A batch larger than the page is a page of its own.
    expect(batchesOfPendingTakerFills(fills, 0, 2)).toEqual({ batches: [expect.objectContaining({ batchId: `${M}:1` })], next: 4 });
  });
});
