import { createOrderModel, createWalletReservationModel } from '../../src/orders/models';
import { IDS_PER_QUERY } from '../../src/matching/collections';
import { ReservationStore } from '../../src/orders/reservations';
import { useTestDatabase } from '../helpers/test-database';

describe('hold repair on a shortfall', () => {
  const database = useTestDatabase('hold_repair');
  afterEach(() => jest.restoreAllMocks());

  test('when a wallet holds 1,200 orders and half of them ended, then the repair reads them by key in chunks, drops the ended ones, and the new order fits', async () => {
    const orders = createOrderModel(database.db());
    const store = new ReservationStore(createWalletReservationModel(database.db()), orders);
    const where = { wallet: '0x00000000000000000000000000000000000000aa', chainId: 56, asset: 'collateral:0xc0' };
    const hashes = Array.from({ length: 1_200 }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
    const first = await store.reserve({ ...where, available: 1_200n, items: hashes.map((order_hash) => ({ order_hash, units: 1n })) });
    expect(first.accepted.size).toBe(1_200);
    // The orders as the matcher left them: the first 600 ended (nothing reserved), the rest still open.
    await database.db().collection('orders').insertMany(
      hashes.map((h, i) => ({ _id: h, order_hash: h, reserved_units: i < 600 ? '0' : '1' })) as never[],
    );
    const finds = jest.spyOn(orders.collection, 'find');
    const next = await store.reserve({ ...where, available: 1_200n, items: [{ order_hash: '0xnew', units: 500n }] });
    expect(next.accepted.has('0xnew')).toBe(true);
    const lookups = finds.mock.calls.map((call) => ((call[0] as unknown as { _id: { $in: string[] } })._id.$in).length);
    expect(lookups).toEqual([IDS_PER_QUERY, IDS_PER_QUERY, 1_200 - 2 * IDS_PER_QUERY]);
    expect(await store.held(where.wallet, where.chainId, where.asset)).toBe(600n + 500n);
  });
});
