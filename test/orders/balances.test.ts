import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BalanceCache } from '../../src/orders/balance-cache';
import { createOrderModel } from '../../src/orders/models';
import { collateralAsset, ReservationStore, reservationKey, SNAPSHOT_EVERY, tokenAsset } from '../../src/orders/reservations';
import { orderAmounts } from '../../src/signing';
import type { MarketRecord } from '../../src/db/models/market.model';
import { useTestDatabase } from '../helpers/test-database';
import { ALICE, BOB, COLLATERAL, EXCHANGE, FakeChain, ONE, call, asWallet, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

describe('balances, reservations and amount math', () => {
  const database = useTestDatabase('orders_bal');
  let h: OrderHarness;
  let market: MarketRecord;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    market = await insertMarket(database.db());
  });
  afterAll(async () => h.close());

  const held = (wallet: string, asset = collateralAsset(COLLATERAL)) => h.orders.context.reservationStore.held(wallet, 56, asset);
  /** A wallet no other test touches, as the owner of its collateral holds, and their reservation key. */
  const freshOwner = () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const owner = { wallet, chainId: 56, asset: collateralAsset(COLLATERAL) };
    return { wallet, owner, key: reservationKey(wallet, 56, owner.asset) };
  };
  const orderHash = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
  /**
   * A store of this process's database that deletes old versions as soon as they fall out of the
   * kept ones (and so reads a key before each write), for the tests of pruning itself.
   */
  const eagerPruning = () => new ReservationStore(h.orders.context.models.reservations, h.orders.context.models.orders, undefined, { pruneAfterMs: 0, trustCachedMs: 0 });

  test('when a BUY needs more collateral than balance, then INSUFFICIENT_BALANCE with required and available', async () => {
    h.chain.fund(BOB.address, 4n * ONE);
    const res = await place(h, BOB.address, [signedItem(BOB, market, { price: '0.5', size: '10' })]);
    expect(res.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { required: (5n * ONE).toString(), available: (4n * ONE).toString() } });
  });

  test('when the market charges a fee, then a BUY must also cover the most fee it can owe', async () => {
    // 200 bps at limit 0.70: fills at p <= 0.70 pay 2% of min(p, 1-p) per share, at most 2% x 0.50.
    const feeMarket = await insertMarket(database.db(), { fee_rate_bps: 200 });
    const key = generatePrivateKey();
    const wallet = { address: privateKeyToAccount(key).address, privateKey: key };
    const price = 7n * ONE; // 10 shares at 0.70
    const maxFee = (10n * ONE * 50n * 200n) / 1_000_000n; // 0.1 collateral
    h.chain.fund(wallet.address, price + maxFee - 1n);
    const short = await place(h, wallet.address, [signedItem(wallet, feeMarket, { price: '0.7', size: '10' })]);
    expect(short.body.results[0].error).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { required: (price + maxFee).toString(), available: (price + maxFee - 1n).toString() },
    });
    h.chain.fund(wallet.address, price + maxFee);
    h.orders.context.balances.invalidateWallet(wallet.address);
    const ok = await place(h, wallet.address, [signedItem(wallet, feeMarket, { price: '0.7', size: '10' })]);
    expect(ok.body.results[0].status).toBe('OPEN');
    expect(await held(wallet.address)).toBe(price + maxFee);
  });

  test('when the allowance is below the balance, then the allowance is what counts', async () => {
    h.chain.fund(BOB.address, 100n * ONE, 2n * ONE);
    const res = await place(h, BOB.address, [signedItem(BOB, market, { price: '0.5', size: '10' })]);
    expect(res.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: (2n * ONE).toString() } });
  });

  test('when open orders already reserve collateral, then later orders only get the rest', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[3];
    h.chain.fund(wallet.address, 10n * ONE);
    const res = await place(h, wallet.address, [
      signedItem(wallet, market, { price: '0.5', size: '12' }), // 6
      signedItem(wallet, market, { price: '0.5', size: '6' }), // 3
      signedItem(wallet, market, { price: '0.5', size: '4' }), // 2 > 1 left
    ]);
    expect(res.body.results[0].status).toBe('OPEN');
    expect(res.body.results[1].status).toBe('OPEN');
    expect(res.body.results[2].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { required: (2n * ONE).toString(), available: ONE.toString() } });
    expect(await held(wallet.address)).toBe(9n * ONE);
  });

  test('when a SELL exceeds the token balance, or the exchange is not approved, then INSUFFICIENT_BALANCE', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[4];
    const yes = market.tokens[1].token_id;
    h.chain.give(wallet.address, yes, 5n * ONE, true);
    const over = await place(h, wallet.address, [signedItem(wallet, market, { side: 'SELL', price: '0.6', size: '6' })]);
    expect(over.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { asset: 'token', required: (6n * ONE).toString(), available: (5n * ONE).toString() } });
    const ok = await place(h, wallet.address, [signedItem(wallet, market, { side: 'SELL', price: '0.6', size: '5' })]);
    expect(ok.body.results[0].status).toBe('OPEN');
    expect(await held(wallet.address, tokenAsset(yes))).toBe(5n * ONE);
    h.chain.give(wallet.address, market.tokens[0].token_id, 5n * ONE, false);
    const unapproved = await place(h, wallet.address, [signedItem(wallet, market, { side: 'SELL', outcome: 0, price: '0.4', size: '1' })]);
    expect(unapproved.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: '0' } });
  });

  test('when concurrent batches from one wallet race, then together they never reserve more than the balance', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[5];
    h.chain.fund(wallet.address, 100n * ONE);
    // 12 requests x 2 orders x 5 collateral each = 120 wanted, 100 available: exactly 20 orders fit.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => place(h, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '10' }), signedItem(wallet, market, { price: '0.5', size: '10' })])),
    );
    const results = answers.flatMap((a) => a.body.results as { status?: string; error?: { code: string } }[]);
    expect(results.filter((r) => r.status === 'OPEN')).toHaveLength(20);
    expect(results.filter((r) => r.error?.code === 'INSUFFICIENT_BALANCE')).toHaveLength(4);
    expect(await held(wallet.address)).toBe(100n * ONE);
    const stored = await createOrderModel(database.db()).find({ wallet: wallet.address.toLowerCase() }).lean();
    expect(stored.reduce((sum, o) => sum + BigInt(o.reserved_units), 0n)).toBe(100n * ONE);
  });

  test('when two API processes (own caches, one database) race for one wallet, then the balance still holds', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[9];
    const other = await startOrderHarness(database.db);
    try {
      h.chain.fund(wallet.address, 30n * ONE);
      other.chain.fund(wallet.address, 30n * ONE);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => place(i % 2 === 0 ? h : other, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '10' })])),
      );
      expect(answers.filter((a) => a.body.results[0].status === 'OPEN')).toHaveLength(6);
      expect(await held(wallet.address)).toBe(30n * ONE);
    } finally {
      await other.close();
    }
  });

  test('when an order is cancelled, then its reservation is freed for the next placement', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[6];
    h.chain.fund(wallet.address, 5n * ONE);
    const first = signedItem(wallet, market, { price: '0.5', size: '10' });
    expect((await place(h, wallet.address, [first])).body.results[0].status).toBe('OPEN');
    const blocked = await place(h, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '10' })]);
    expect(blocked.body.results[0].error.code).toBe('INSUFFICIENT_BALANCE');
    const cancel = await call(`${h.url}/v1/orders/cancel`, { method: 'POST', headers: asWallet(wallet.address), body: { order_hashes: [first.hash] } });
    expect(cancel.body.cancelled).toEqual([first.hash]);
    const after = await place(h, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '10' })]);
    expect(after.body.results[0].status).toBe('OPEN');
    expect(await held(wallet.address)).toBe(5n * ONE);
  });

  test('when the matcher lowers a hold with setHold, then it never rises and a release drops it', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[7];
    h.chain.fund(wallet.address, 50n * ONE);
    const item = signedItem(wallet, market, { price: '0.5', size: '10' });
    await place(h, wallet.address, [item]);
    const store = h.orders.context.reservationStore;
    await store.setHold(wallet.address, item.hash, 2n * ONE);
    expect(await held(wallet.address)).toBe(2n * ONE);
    await store.setHold(wallet.address, item.hash, 4n * ONE);
    expect(await held(wallet.address)).toBe(2n * ONE);
    await store.release(wallet.address, item.hash);
    await store.release(wallet.address, item.hash);
    expect(await held(wallet.address)).toBe(0n);
  });

  test('when lowers for several orders of one asset arrive together, then one new version carries them all and no hold rises', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[7];
    h.chain.fund(wallet.address, 50n * ONE);
    const items = [0, 1, 2].map(() => signedItem(wallet, market, { price: '0.5', size: '10' }));
    await place(h, wallet.address, items);
    const before = await held(wallet.address);
    const store = h.orders.context.reservationStore;
    const owner = { wallet: wallet.address, chainId: 56, asset: collateralAsset(COLLATERAL) };
    const versions = () => h.orders.context.models.reservations.countDocuments({ key: reservationKey(wallet.address, 56, collateralAsset(COLLATERAL)) });
    const versionsBefore = await versions();
    await Promise.all([
      store.lowerHold(owner, items[0].hash, 1n * ONE),
      store.lowerHold(owner, items[1].hash, 0n),
      store.lowerHold(owner, items[2].hash, 9n * ONE), // above its 5: ignored
    ]);
    expect(await held(wallet.address)).toBe(before - 15n * ONE + 1n * ONE + 5n * ONE);
    expect(await versions()).toBe(versionsBefore + 1);
  });

  test('when a reservation keeps changing, then old versions are pruned by key and the newest holds stay', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[7];
    h.chain.fund(wallet.address, 50n * ONE);
    const [item] = [signedItem(wallet, market, { price: '0.5', size: '20' })];
    await place(h, wallet.address, [item]);
    const before = await held(wallet.address);
    const store = eagerPruning();
    const owner = { wallet: wallet.address, chainId: 56, asset: collateralAsset(COLLATERAL) };
    for (let i = 1; i <= 45; i++) await store.lowerHold(owner, item.hash, 10n * ONE - BigInt(i) * 10n ** 15n);
    const rows = await h.orders.context.models.reservations.find({ key: reservationKey(wallet.address, 56, collateralAsset(COLLATERAL)) }, { version: 1 }).lean();
    const versions = rows.map((r) => r.version).sort((a, b) => a - b);
    expect(versions.length).toBeLessThanOrEqual(40);
    expect(versions[0]).toBeGreaterThan(1);
    expect(versions[versions.length - 1] - versions[0] + 1).toBe(versions.length); // no gaps: only whole old blocks go
    expect(await held(wallet.address)).toBe(before - 45n * 10n ** 15n);
  });

  test('when ten reservations of one wallet arrive in one tick, then they are written as one version and still never exceed the balance', async () => {
    const store = h.orders.context.reservationStore;
    const { wallet, owner, key } = freshOwner();
    const outcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => store.reserve({
      ...owner, available: 30n * ONE, items: [{ order_hash: orderHash(i), units: 5n * ONE }],
    })));
    expect(outcomes.filter((o) => o.accepted.size === 1)).toHaveLength(6);
    expect(outcomes.filter((o) => o.rejected.size === 1).map((o) => [...o.rejected.values()][0])).toEqual(Array(4).fill({ required: 5n * ONE, available: 0n }));
    expect(await h.orders.context.models.reservations.countDocuments({ key })).toBe(1);
    expect(await store.held(wallet, 56, collateralAsset(COLLATERAL))).toBe(30n * ONE);
  });

  test('when versions of eight wallets are written at once, then they go out as one insert, and a taken version of one of them is retried on its own', async () => {
    const store = h.orders.context.reservationStore;
    const owners = Array.from({ length: 8 }, () => freshOwner());
    const reserve = (owner: (typeof owners)[number]['owner'], i: number) => store.reserve({ ...owner, available: 30n * ONE, items: [{ order_hash: orderHash(i), units: 5n * ONE }] });
    // Version 1 of each key: this process now knows every key's newest version (no read first).
    await Promise.all(owners.map(({ owner }, i) => reserve(owner, i)));
    // Another process takes version 2 of the last wallet's key first, with a hold of its own.
    const contested = owners[7];
    const at = new Date().toISOString();
    await h.orders.context.models.reservations.collection.insertOne({
      _id: `${contested.key}:2`, key: contested.key, wallet: contested.wallet, chain_id: 56, asset: contested.owner.asset, version: 2, base: 2,
      holds_json: JSON.stringify({ [orderHash(7)]: { units: (5n * ONE).toString(), at }, [orderHash(77)]: { units: (10n * ONE).toString(), at } }), created_at: new Date(),
    } as never);
    const insertMany = jest.spyOn(h.orders.context.models.reservations.collection, 'insertMany');
    try {
      const outcomes = await Promise.all(owners.map(({ owner }, i) => reserve(owner, 100 + i)));
      expect(outcomes.map((o) => o.accepted.size)).toEqual(Array(8).fill(1));
      // One command for the eight versions 2; the contested key's retry (its version 3) alone after it.
      expect(insertMany.mock.calls.map(([docs]) => (docs as unknown[]).length)).toEqual([8, 1]);
    } finally {
      insertMany.mockRestore();
    }
    for (const { wallet, key } of owners.slice(0, 7)) {
      expect(await h.orders.context.models.reservations.countDocuments({ key })).toBe(2);
      expect(await store.held(wallet, 56, collateralAsset(COLLATERAL))).toBe(10n * ONE);
    }
    // The retry folded onto the other process's version: its hold is kept beside ours.
    expect(await h.orders.context.models.reservations.countDocuments({ key: contested.key })).toBe(3);
    expect(await store.held(contested.wallet, 56, collateralAsset(COLLATERAL))).toBe(20n * ONE);
  });

  test('when a version\'s insert fails, then the holds this process keeps for the key are the last written version\'s, and the next change writes on them', async () => {
    const store = h.orders.context.reservationStore;
    const { wallet, owner, key } = freshOwner();
    await store.reserve({ ...owner, available: 100n * ONE, items: [{ order_hash: orderHash(1), units: 10n * ONE }, { order_hash: orderHash(2), units: 20n * ONE }] });
    const insertMany = jest.spyOn(h.orders.context.models.reservations.collection, 'insertMany').mockRejectedValueOnce(new Error('store unavailable'));
    try {
      const failed = Promise.all([
        store.reserve({ ...owner, available: 100n * ONE, items: [{ order_hash: orderHash(3), units: 30n * ONE }] }),
        store.lowerHold(owner, orderHash(1), 0n),
      ]);
      await expect(failed).rejects.toThrow('store unavailable');
    } finally {
      insertMany.mockRestore();
    }
    // Version 1 as written: the failed version's new hold and its dropped one are undone in memory.
    expect(await store.held(wallet, 56, owner.asset)).toBe(30n * ONE);
    const next = await store.reserve({ ...owner, available: 100n * ONE, items: [{ order_hash: orderHash(4), units: 70n * ONE }, { order_hash: orderHash(5), units: 1n }] });
    expect([...next.accepted]).toEqual([orderHash(4)]);
    expect(await store.held(wallet, 56, owner.asset)).toBe(100n * ONE);
    expect(await h.orders.context.models.reservations.countDocuments({ key })).toBe(2);
  });

  test('when reserves and lowers of one key arrive in one tick, then one version carries them all, in arrival order', async () => {
    const store = h.orders.context.reservationStore;
    const { wallet, owner, key } = freshOwner();
    await store.reserve({ ...owner, available: 1_000n * ONE, items: Array.from({ length: 200 }, (_, i) => ({ order_hash: orderHash(i), units: 5n * ONE })) });
    const versions = await h.orders.context.models.reservations.countDocuments({ key });
    // 100 holds dropped, 100 halved, then a reserve that only fits in what the lowers freed.
    const lowers = Array.from({ length: 200 }, (_, i) => store.lowerHold(owner, orderHash(i), i % 2 === 0 ? 0n : 2n * ONE));
    const late = store.reserve({ ...owner, available: 1_000n * ONE, items: [{ order_hash: orderHash(999), units: 700n * ONE }] });
    await Promise.all(lowers);
    expect((await late).accepted.has(orderHash(999))).toBe(true);
    expect(await store.held(wallet, 56, owner.asset)).toBe(100n * 2n * ONE + 700n * ONE);
    expect(await h.orders.context.models.reservations.countDocuments({ key })).toBe(versions + 1);
  });

  test('when another process has written and pruned many versions, then a process new to the key finds the newest by primary key', async () => {
    const { wallet, owner } = freshOwner();
    const writer = eagerPruning();
    await writer.reserve({ ...owner, available: 100n * ONE, items: [{ order_hash: '0xaa', units: 100n * ONE }] });
    for (let i = 1; i <= 130; i++) await writer.lowerHold(owner, '0xaa', 100n * ONE - BigInt(i));
    const other = await startOrderHarness(database.db);
    try {
      const byKey = jest.spyOn(other.orders.context.models.reservations, 'findOne');
      expect(await other.orders.context.reservationStore.held(wallet, 56, owner.asset)).toBe(100n * ONE - 130n);
      // (findById goes through findOne too: only a filter by `key` would read the whole collection.)
      expect(byKey.mock.calls.filter(([filter]) => filter && 'key' in (filter as object))).toEqual([]);
      // And it writes on top of it.
      await other.orders.context.reservationStore.lowerHold(owner, '0xaa', 1n);
      expect(await writer.held(wallet, 56, owner.asset)).toBe(1n);
    } finally {
      await other.close();
    }
  });

  test('when a wallet holds many orders, then only every SNAPSHOT_EVERY-th version stores the whole map, the rest their changes, and another process folds them to the same holds', async () => {
    const { wallet, owner, key } = freshOwner();
    const writer = eagerPruning();
    await writer.reserve({ ...owner, available: 1_000n * ONE, items: Array.from({ length: 200 }, (_, i) => ({ order_hash: orderHash(i), units: 5n * ONE })) });
    // 40 versions of one change each: every third hold dropped, the others lowered to 1 unit.
    for (let i = 0; i < 40; i++) await writer.lowerHold(owner, orderHash(i), i % 3 === 0 ? 0n : 1n);
    const expected = 200n * 5n * ONE - 40n * 5n * ONE + BigInt(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 !== 0).length);
    expect(await writer.held(wallet, 56, owner.asset)).toBe(expected);

    const rows = await h.orders.context.models.reservations.find({ key }).lean();
    expect(rows.map((r) => r.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => 21 + i)); // 1-20 pruned
    for (const r of rows) {
      expect(r.base).toBe(1 + Math.floor((r.version - 1) / SNAPSHOT_EVERY) * SNAPSHOT_EVERY);
      if (r.version === r.base) {
        expect(r.changes_json).toBeUndefined();
        expect(Object.keys(JSON.parse(r.holds_json!) as object).length).toBeGreaterThan(150);
      } else {
        expect(r.holds_json).toBeUndefined();
        expect(Object.keys(JSON.parse(r.changes_json!) as object)).toHaveLength(1); // its own change, not the map
      }
    }

    const other = await startOrderHarness(database.db);
    try {
      expect(await other.orders.context.reservationStore.held(wallet, 56, owner.asset)).toBe(expected);
      await other.orders.context.reservationStore.lowerHold(owner, orderHash(199), 0n); // written on top of the fold
      expect(await writer.held(wallet, 56, owner.asset)).toBe(expected - 5n * ONE);
      const newest = await h.orders.context.models.reservations.findById(`${key}:42`).lean();
      expect(JSON.parse(newest!.changes_json!)).toEqual({ [orderHash(199)]: null });
    } finally {
      await other.close();
    }
  });

  test('when a version the newest folds on is missing, then a process new to the key gives up with SERVICE_DEGRADED instead of looping', async () => {
    const { wallet, owner, key } = freshOwner();
    await h.orders.context.reservationStore.reserve({ ...owner, available: 100n * ONE, items: [{ order_hash: '0xbb', units: 100n * ONE }] });
    for (let i = 1; i <= 5; i++) await h.orders.context.reservationStore.lowerHold(owner, '0xbb', 100n * ONE - BigInt(i));
    await h.orders.context.models.reservations.deleteOne({ _id: `${key}:3` });
    const other = await startOrderHarness(database.db);
    try {
      await expect(other.orders.context.reservationStore.held(wallet, 56, owner.asset)).rejects.toMatchObject({ code: 'SERVICE_DEGRADED' });
    } finally {
      await other.close();
    }
  });

  test('when the event hook sees order events or a mined fill, then no chain read is dropped; a failed fill drops the balance (not the nonce)', async () => {
    const privateKey = generatePrivateKey();
    const wallet = { address: privateKeyToAccount(privateKey).address, privateKey }; // a wallet no other test holds funds for
    const ttlHarness = await startOrderHarness(database.db, { balanceTtlMs: 60_000 });
    try {
      ttlHarness.chain.fund(wallet.address, 10n * ONE);
      const item = signedItem(wallet, market, { price: '0.5', size: '1' });
      expect((await place(ttlHarness, wallet.address, [item])).body.results[0].status).toBe('OPEN');
      const readsBefore = ttlHarness.chain.reads;
      const w = wallet.address.toLowerCase();
      for (const status of ['MATCHED', 'CANCELLED']) {
        await ttlHarness.orders.onRealtimeEvent({ channel: 'user', wallet: w, payload: { type: 'order', order: { order_hash: item.hash, status } } });
      }
      expect((await place(ttlHarness, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '1' })])).body.results[0].status).toBe('OPEN');
      expect(ttlHarness.chain.reads).toBe(readsBefore);
      // A mined fill's transfer comes as its spend (below): the fill event itself drops nothing.
      await ttlHarness.orders.onRealtimeEvent({ channel: 'user', wallet: w, payload: { type: 'fill', fill: { order_hash: item.hash, settlement_status: 'MINED' } } });
      expect((await place(ttlHarness, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '1' })])).body.results[0].status).toBe('OPEN');
      expect(ttlHarness.chain.reads).toBe(readsBefore);
      await ttlHarness.orders.onRealtimeEvent({ channel: 'user', wallet: w, payload: { type: 'fill', fill: { order_hash: item.hash, settlement_status: 'FAILED' } } });
      expect((await place(ttlHarness, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '1' })])).body.results[0].status).toBe('OPEN');
      expect(ttlHarness.chain.reads).toBe(readsBefore + 1); // the balance again, not the nonce
    } finally {
      await ttlHarness.close();
    }
  });

  /** A `holds` event as the matcher or settlement publishes it: the order's reserved_units as written. */
  const holdsEvent = (wallet: string, orders: { hash: string; side?: 'BUY' | 'SELL'; tokenId?: string; reserved: bigint }[]) => ({
    channel: 'holds' as const,
    holds: orders.map((o) => ({
      order_hash: o.hash, wallet, chain_id: 56, condition_id: market.condition_id, side: o.side ?? 'BUY' as const,
      token_id: o.tokenId ?? '0', reserved_units: o.reserved.toString(),
    })),
  });

  test('when the event hook sees a failed fill, then cached reads are dropped; when it sees hold levels, then each hold follows reserved_units and never rises', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[8];
    const ttlHarness = await startOrderHarness(database.db, { balanceTtlMs: 60_000 });
    try {
      ttlHarness.chain.fund(wallet.address, 10n * ONE);
      const item = signedItem(wallet, market, { price: '0.5', size: '10' });
      expect((await place(ttlHarness, wallet.address, [item])).body.results[0].status).toBe('OPEN');
      const readsBefore = ttlHarness.chain.reads;
      ttlHarness.chain.fund(wallet.address, 20n * ONE);
      // Cached (60 s TTL): the new funds are not seen yet.
      const stale = await place(ttlHarness, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '20' })]);
      expect(stale.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: (5n * ONE).toString() } });
      expect(ttlHarness.chain.reads).toBe(readsBefore);
      const w = wallet.address.toLowerCase();
      await ttlHarness.orders.onRealtimeEvent({ channel: 'user', wallet: w, payload: { type: 'fill', fill: { order_hash: '0xunknown', settlement_status: 'FAILED' } } });
      const fresh = await place(ttlHarness, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '20' })]);
      expect(fresh.body.results[0].status).toBe('OPEN');
      const store = ttlHarness.orders.context.reservationStore;
      expect(await store.held(w, 56, collateralAsset(COLLATERAL))).toBe(15n * ONE);
      // The matcher cancels the first order (reserved_units 0): the hold goes.
      await ttlHarness.orders.onRealtimeEvent(holdsEvent(w, [{ hash: item.hash, reserved: 0n }]));
      expect(await store.held(w, 56, collateralAsset(COLLATERAL))).toBe(10n * ONE);
      // A fill of the second order settles and settlement lowers its reserved_units: the hold follows.
      const second = fresh.body.results[0].order_hash as string;
      await ttlHarness.orders.onRealtimeEvent(holdsEvent(w, [{ hash: second, reserved: 4n * ONE }]));
      expect(await store.held(w, 56, collateralAsset(COLLATERAL))).toBe(4n * ONE);
      // A late or repeated level never raises a hold.
      await ttlHarness.orders.onRealtimeEvent(holdsEvent(w, [{ hash: second, reserved: 9n * ONE }]));
      expect(await store.held(w, 56, collateralAsset(COLLATERAL))).toBe(4n * ONE);
    } finally {
      await ttlHarness.close();
    }
  });

  /** A `spends` event as settlement publishes it when it sees a fill mined. */
  const spendsEvent = (wallet: string, spends: { fill: string; side: 'BUY' | 'SELL'; units: bigint }[]) => ({
    channel: 'spends' as const,
    spends: spends.map((s) => ({
      fill_id: s.fill, wallet, chain_id: 56, condition_id: market.condition_id, side: s.side, outcome: 1 as const, units: s.units.toString(),
    })),
  });

  test('when settlement announces a fill\'s spend, then the wallet\'s cached balance of that asset drops by it without a chain read, once per fill', async () => {
    const privateKey = generatePrivateKey();
    const wallet = { address: privateKeyToAccount(privateKey).address, privateKey };
    const ttlHarness = await startOrderHarness(database.db, { balanceTtlMs: 60_000 });
    try {
      const yes = signedItem(wallet, market, { side: 'SELL' }).token_id;
      ttlHarness.chain.fund(wallet.address, 10n * ONE);
      ttlHarness.chain.give(wallet.address, yes, 10n * ONE, true);
      const buy = signedItem(wallet, market, { price: '0.5', size: '10' });
      const sell = signedItem(wallet, market, { side: 'SELL', price: '0.5', size: '4' });
      expect((await place(ttlHarness, wallet.address, [buy, sell])).body.results.map((r: { status: string }) => r.status)).toEqual(['OPEN', 'OPEN']);
      const readsBefore = ttlHarness.chain.reads;
      const w = wallet.address.toLowerCase();
      // The BUY's 3 shares settle: 1.5 of collateral (and no fee) left the wallet. Announced twice (MINED, then CONFIRMED).
      ttlHarness.chain.fund(wallet.address, 8_500_000_000_000_000_000n);
      for (let i = 0; i < 2; i++) await ttlHarness.orders.onRealtimeEvent(spendsEvent(w, [{ fill: 'trade-a:taker', side: 'BUY', units: 1_500_000_000_000_000_000n }]));
      const buyMore = await place(ttlHarness, wallet.address, [signedItem(wallet, market, { price: '0.5', size: '10' })]);
      // 10 - 1.5 on chain, 5 still held by the first BUY (its hold comes down with settlement's `holds`).
      expect(buyMore.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: 3_500_000_000_000_000_000n.toString() } });
      // The SELL's 4 shares settle: the tokens' cached balance drops by them.
      await ttlHarness.orders.onRealtimeEvent(spendsEvent(w, [{ fill: 'trade-b:maker', side: 'SELL', units: 4n * ONE }]));
      const sellMore = await place(ttlHarness, wallet.address, [signedItem(wallet, market, { side: 'SELL', price: '0.5', size: '5' })]);
      expect(sellMore.body.results[0].error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { available: (2n * ONE).toString() } });
      expect(ttlHarness.chain.reads).toBe(readsBefore);
    } finally {
      await ttlHarness.close();
    }
  });

  test('when a push brings the hold levels of several orders, then each hold is lowered without reading any order', async () => {
    const wallet = (await import('./harness')).ACCOUNTS[9];
    h.chain.fund(wallet.address, 1_000n * ONE);
    const w = wallet.address.toLowerCase();
    const store = h.orders.context.reservationStore;
    const before = await store.held(w, 56, collateralAsset(COLLATERAL));
    const items = [1, 2, 3].map(() => signedItem(wallet, market, { price: '0.5', size: '10' }));
    const placed = await place(h, wallet.address, items);
    expect(placed.body.results.map((r: { status: string }) => r.status)).toEqual(['OPEN', 'OPEN', 'OPEN']);
    expect(await store.held(w, 56, collateralAsset(COLLATERAL))).toBe(before + 15n * ONE);
    const finds = jest.spyOn(h.orders.context.models.orders, 'find');
    try {
      await h.orders.onRealtimeEvent(holdsEvent(w, items.map((i) => ({ hash: i.hash, reserved: 0n }))));
      expect(finds).not.toHaveBeenCalled();
    } finally {
      finds.mockRestore();
    }
    expect(await store.held(w, 56, collateralAsset(COLLATERAL))).toBe(before);
  });

  test('when a SELL order\'s hold level arrives, then its outcome-token hold is lowered', async () => {
    const privateKey = generatePrivateKey();
    const wallet = { address: privateKeyToAccount(privateKey).address, privateKey };
    const item = signedItem(wallet, market, { side: 'SELL', price: '0.5', size: '3' });
    const yes = item.token_id;
    h.chain.give(wallet.address, yes, 10n * ONE, true);
    const w = wallet.address.toLowerCase();
    expect((await place(h, wallet.address, [item])).body.results[0].status).toBe('OPEN');
    expect(await held(w, tokenAsset(yes))).toBe(3n * ONE);
    await h.orders.onRealtimeEvent(holdsEvent(w, [{ hash: item.hash, side: 'SELL', tokenId: yes, reserved: 1n * ONE }]));
    expect(await held(w, tokenAsset(yes))).toBe(1n * ONE);
  });

  test('when the first hold levels of a market arrive together, then its collateral is read once for all of them', async () => {
    const fresh = await startOrderHarness(database.db);
    try {
      const w = ALICE.address.toLowerCase();
      const item = signedItem(ALICE, market, { price: '0.5', size: '1' });
      fresh.chain.fund(ALICE.address, 1_000n * ONE);
      expect((await place(fresh, ALICE.address, [item])).body.results[0].status).toBe('OPEN');
      const reads = jest.spyOn(fresh.orders.context.models.markets, 'findOne');
      try {
        await Promise.all([1, 2, 3].map(() => fresh.orders.onRealtimeEvent(holdsEvent(w, [{ hash: item.hash, reserved: ONE / 4n }]))));
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    } finally {
      await fresh.close();
    }
  });

  describe('amount math on edge values', () => {
    const wallet = () => ALICE;
    beforeAll(() => h.chain.fund(ALICE.address, 10_000n * ONE));

    test.each([
      ['BUY', '0.01', '0.1'],
      ['BUY', '1', '0.1'],
      ['BUY', '1.00', '7'],
      ['SELL', '0.01', '0.100000000000000001'],
      ['BUY', '0.01', '0.100000000000000001'],
      ['BUY', '0.33', '1.000000000000000001'],
      ['SELL', '0.99', '123456789.123456789123456789'],
    ] as const)('when %s at %s for %s shares is signed with integer-tick math, then it is accepted', async (side, price, size) => {
      if (side === 'SELL') h.chain.give(ALICE.address, market.tokens[1].token_id, 10n ** 30n, true);
      const res = await place(h, wallet().address, [signedItem(wallet(), market, { side, price, size })]);
      expect(res.body.results[0]).toMatchObject({ status: 'OPEN', price: price === '1.00' ? '1' : price, size });
    });

    test('when size has 18 fractional digits at 0.01, then BUY rounds maker up and SELL rounds taker down', () => {
      const s = 100000000000000001n; // 0.100000000000000001 shares
      expect(orderAmounts('BUY', s, 1)).toEqual({ makerAmount: 1000000000000001n, takerAmount: s });
      expect(orderAmounts('SELL', s, 1)).toEqual({ makerAmount: s, takerAmount: 1000000000000000n });
    });

    test('when a client rounds a BUY down (or a SELL up), then the server calls it drifted', async () => {
      const buy = signedItem(ALICE, market, { side: 'BUY', price: '0.01', size: '0.100000000000000001' });
      const sell = signedItem(ALICE, market, { side: 'SELL', price: '0.01', size: '0.100000000000000001' });
      const res = await place(h, ALICE.address, [
        { ...buy, maker_amount: '1000000000000000' },
        { ...sell, taker_amount: '1000000000000001' },
      ]);
      for (const r of res.body.results) expect(r.error).toMatchObject({ code: 'INVALID_ORDER', message: 'Drifted signed amounts' });
    });

    test('when the size is exactly 0.1, then it is accepted; a size with trailing zeros is canonicalised', async () => {
      const res = await place(h, ALICE.address, [signedItem(ALICE, market, { size: '0.1' }), signedItem(ALICE, market, { size: '2.50' })]);
      expect(res.body.results[0]).toMatchObject({ status: 'OPEN', size: '0.1' });
      expect(res.body.results[1]).toMatchObject({ status: 'OPEN', size: '2.5' });
    });
  });

  describe('balance cache', () => {
    test('when balances are read within the TTL, then the chain is asked once; invalidation forces a new read', async () => {
      const chain = new FakeChain();
      chain.fund(ALICE.address, 7n);
      let now = 0;
      const cache = new BalanceCache(chain, 2_000, () => now);
      const asset = { kind: 'collateral' as const, chainId: 56, collateral: COLLATERAL, exchange: EXCHANGE };
      expect(await cache.spendable(ALICE.address, asset)).toBe(7n);
      chain.fund(ALICE.address, 9n);
      expect(await cache.spendable(ALICE.address, asset)).toBe(7n);
      expect(chain.reads).toBe(1);
      cache.invalidateWallet(ALICE.address.toUpperCase().replace('0X', '0x'));
      expect(await cache.spendable(ALICE.address, asset)).toBe(9n);
      chain.fund(ALICE.address, 11n);
      now = 2_001;
      expect(await cache.spendable(ALICE.address, asset)).toBe(11n);
      expect(chain.reads).toBe(3);
    });

    test('when a settlement drops a wallet\'s balances, then its maker nonce stays cached and its balance is read again', async () => {
      const chain = new FakeChain();
      chain.fund(ALICE.address, 7n);
      const cache = new BalanceCache(chain, 60_000);
      const asset = { kind: 'collateral' as const, chainId: 56, collateral: COLLATERAL, exchange: EXCHANGE };
      await cache.spendable(ALICE.address, asset);
      await cache.makerNonce(ALICE.address, 56, EXCHANGE);
      chain.fund(ALICE.address, 5n);
      chain.wallet(ALICE.address).nonce = 1n;
      cache.invalidateBalances(ALICE.address);
      expect(await cache.spendable(ALICE.address, asset)).toBe(5n);
      expect(await cache.makerNonce(ALICE.address, 56, EXCHANGE)).toBe(0n);
      expect(chain.reads).toBe(3);
    });
  });
});
