import { createOrderModel, createWalletReservationModel } from '../../src/orders/models';
import { ReservationStore, reservationKey, type VersionAging } from '../../src/orders/reservations';
import { useTestDatabase } from '../helpers/test-database';

/**
 * Two ReservationStores on one database stand for two API processes. Pruning frees version ids;
 * these tests check that a process writing on its cached version never inserts into a freed id
 * (a fork below the key's head that could hold more than the balance).
 */
describe('reservation versions across processes', () => {
  const database = useTestDatabase('reservation_aging');
  let wallets = 0;
  const owner = () => ({ wallet: `0x${(++wallets).toString(16).padStart(40, '0')}`, chainId: 56, asset: 'collateral:0xc0' });
  const process = (aging?: Partial<VersionAging>) => new ReservationStore(createWalletReservationModel(database.db()), createOrderModel(database.db()), undefined, aging);
  const versions = async (key: string) => (await database.db().collection('wallet_reservations').find({ key }, { projection: { version: 1 } }).toArray()).map((r) => r.version as number).sort((a, b) => a - b);

  /** Process B places 45 orders of 2 units one by one: versions 2 to 46, over the prune point 40. */
  async function fortyFiveVersions(b: ReservationStore, where: ReturnType<typeof owner>) {
    for (let i = 0; i < 45; i++) {
      const outcome = await b.reserve({ ...where, available: 100n, items: [{ order_hash: `0xb${i}`, units: 2n }] });
      expect(outcome.accepted.size).toBe(1);
    }
  }

  test('when another process wrote 45 versions past the one this process cached, then this process\'s next reserve lands on the head and sees every hold', async () => {
    const where = owner();
    const a = process();
    const b = process();
    expect((await a.reserve({ ...where, available: 100n, items: [{ order_hash: '0xa1', units: 10n }] })).accepted.size).toBe(1); // version 1, cached by A
    await fortyFiveVersions(b, where); // 10 + 90 = 100 held
    // A's cached holds say 10: on them 50 more would fit. The head says 100: nothing fits.
    const late = await a.reserve({ ...where, available: 100n, items: [{ order_hash: '0xa2', units: 50n }] });
    expect(late.rejected.get('0xa2')).toEqual({ required: 50n, available: 0n });
    const key = reservationKey(where.wallet, where.chainId, where.asset);
    expect(await versions(key)).toEqual(Array.from({ length: 46 }, (_, i) => i + 1)); // none deleted yet, none written twice
    expect(await process().held(where.wallet, where.chainId, where.asset)).toBe(100n);
  });

  test('when a cached version is older than trustCachedMs, then the process reads the key before it writes, and old versions go only pruneAfterMs after they fell out of the kept ones', async () => {
    let now = 0;
    const aging = { pruneAfterMs: 1_000, trustCachedMs: 400, now: () => now };
    const where = owner();
    const key = reservationKey(where.wallet, where.chainId, where.asset);
    const a = process(aging);
    const b = process(aging);
    await a.reserve({ ...where, available: 100n, items: [{ order_hash: '0xa1', units: 10n }] });
    await fortyFiveVersions(b, where);
    expect(await versions(key)).toHaveLength(46); // versions 1-20 scheduled at version 40, not due
    expect(b.versionsAwaitingPrune).toBe(20);

    now = 1_000;
    for (let i = 0; i < 14; i++) await b.lowerHold(where, `0xb${i}`, 1n); // versions 47-60: the prune at 60 deletes 1-20
    expect((await versions(key))[0]).toBe(21);
    expect(b.versionsAwaitingPrune).toBe(40); // 1-40 again, due at 2,000

    // Version 2 is free again, and A's cache (version 1, seen at 0) is 1,000 old: A reads first.
    const late = await a.reserve({ ...where, available: 100n, items: [{ order_hash: '0xa2', units: 50n }] });
    expect(late.rejected.get('0xa2')).toEqual({ required: 50n, available: 14n });
    const after = await versions(key);
    expect(after[0]).toBe(21);
    expect(after[after.length - 1]).toBe(60); // a rejection writes no version; nothing forked at 2
    const fits = await a.reserve({ ...where, available: 100n, items: [{ order_hash: '0xa3', units: 14n }] });
    expect(fits.accepted.has('0xa3')).toBe(true);
    expect(await versions(key)).toContain(61);
    expect(await process().held(where.wallet, where.chainId, where.asset)).toBe(100n);
  });

  test('when trustCachedMs is more than half of pruneAfterMs, then the store refuses to start', () => {
    expect(() => process({ pruneAfterMs: 1_000, trustCachedMs: 600 })).toThrow('trustCachedMs');
  });
});
