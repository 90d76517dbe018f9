import { hashOrder } from '../../src/signing';
import { createOrderModel } from '../../src/orders/models';
import { collateralAsset } from '../../src/orders/reservations';
import { MAX_EXPIRATION_AHEAD_S } from '../../src/orders/check-order';
import { HANDOFF_MARKERS } from '../../src/matching/handoff-markers';
import { useTestDatabase } from '../helpers/test-database';
import {
  ACCOUNTS, ALICE, BOB, EXCHANGE, ONE, asWallet, call, insertMarket, place, readOnlyKey, signedItem, startOrderHarness, wire,
  type OrderHarness,
} from './harness';
import type { MarketRecord } from '../../src/db/models/market.model';

describe('POST /v1/orders', () => {
  const database = useTestDatabase('orders_place');
  let h: OrderHarness;
  let market: MarketRecord;
  beforeAll(async () => {
    h = await startOrderHarness(database.db);
    market = await insertMarket(database.db());
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    h.chain.fund(ALICE.address, 1_000n * ONE);
    h.chain.fund(BOB.address, 1_000n * ONE);
  });

  const codeOf = (res: { body: { results: { error?: { code: string } }[] } }, i = 0) => res.body.results[i].error?.code;

  test('when a valid signed BUY is placed, then it is persisted OPEN, handed to the matcher and answered without fills', async () => {
    const item = signedItem(ALICE, market, { price: '0.42', size: '12.5' });
    const res = await place(h, ALICE.address, [item]);
    expect(res.status).toBe(200);
    expect(res.body._idempotent_replayed).toBeUndefined();
    expect(res.body.results).toEqual([
      {
        order_hash: item.hash,
        client_order_id: null,
        condition_id: market.condition_id,
        chain_id: 56,
        status: 'OPEN',
        side: 'BUY',
        outcome: 1,
        price: '0.42',
        size: '12.5',
        remaining_size: '12.5',
        fills: [],
        book_added_at: null,
        created_at: expect.any(String),
      },
    ]);
    const stored = await createOrderModel(database.db()).findOne({ order_hash: item.hash }).lean();
    expect(stored).toMatchObject({
      wallet: ALICE.address.toLowerCase(),
      status: 'OPEN',
      handoff: 'PENDING',
      book_added_at: null,
      price_ticks: 42,
      size_units: (125n * ONE / 10n).toString(),
      maker_amount: item.maker_amount,
      reserved_units: item.maker_amount,
      market_key: `56-${market.condition_id}`,
    });
    expect(h.matcher.submits.at(-1)).toEqual({ market: { chain_id: 56, condition_id: market.condition_id }, hashes: [item.hash], announced: 0 });
  });

  test('when the order hash is computed, then it is the EIP-712 hash of the signed order under the market exchange domain', async () => {
    const item = signedItem(ALICE, market, { side: 'BUY', price: '0.3', size: '1' });
    const res = await place(h, ALICE.address, [item]);
    const expected = hashOrder(
      {
        salt: BigInt(item.salt), maker: ALICE.address, signer: ALICE.address, taker: item.taker as `0x${string}`, tokenId: BigInt(item.token_id),
        makerAmount: BigInt(item.maker_amount), takerAmount: BigInt(item.taker_amount), expiration: 0n, nonce: 0n, feeRateBps: 0n, side: 0, signatureType: 0,
      },
      { chainId: 56, verifyingContract: EXCHANGE },
    );
    expect(res.body.results[0].order_hash).toBe(expected);
  });

  test('when the signer is not the authenticated wallet, then WALLET_MISMATCH inline', async () => {
    const res = await place(h, ALICE.address, [signedItem(BOB, market)]);
    expect(res.status).toBe(200);
    expect(res.body.results[0].error).toMatchObject({ code: 'WALLET_MISMATCH', details: { signer: BOB.address } });
  });

  test('when the signature was made by another key, then INVALID_SIGNATURE with the recovered signer', async () => {
    const res = await place(h, ALICE.address, [signedItem(ALICE, market, { signWith: BOB.privateKey })]);
    expect(res.body.results[0].error).toMatchObject({
      code: 'INVALID_SIGNATURE',
      details: { expected_signer: ALICE.address.toLowerCase(), recovered_signer: BOB.address.toLowerCase() },
    });
  });

  test('when the signature is malformed (high-s twin or garbage), then INVALID_SIGNATURE', async () => {
    const res = await place(h, ALICE.address, [signedItem(ALICE, market, { after: { signature: `0x${'11'.repeat(65)}` } })]);
    expect(codeOf(res)).toBe('INVALID_SIGNATURE');
  });

  test('when an EIP-1271 order (signature_type 1) is placed, then the signer contract decides through the chain port', async () => {
    h.chain.contractWallets.add(ALICE.address.toLowerCase());
    try {
      const accepted = await place(h, ALICE.address, [signedItem(ALICE, market, { signatureType: 1, size: '1' })]);
      expect(accepted.body.results[0].status).toBe('OPEN');
    } finally {
      h.chain.contractWallets.clear();
    }
    const refused = await place(h, ALICE.address, [signedItem(ALICE, market, { signatureType: 1, size: '1' })]);
    expect(refused.body.results[0].error).toMatchObject({ code: 'INVALID_SIGNATURE', message: expect.stringMatching(/EIP-1271/) });
  });

  test('when the market is unknown, paused or AMM, then NOT_FOUND, MARKET_NOT_ACTIVE, MARKET_NOT_CLOB inline', async () => {
    const paused = await insertMarket(database.db(), { status: 'PAUSED' });
    const amm = await insertMarket(database.db(), { kind: 'AMM' });
    const unknown = { ...market, condition_id: `0x${'ab'.repeat(32)}` };
    const res = await place(h, ALICE.address, [signedItem(ALICE, unknown), signedItem(ALICE, paused), signedItem(ALICE, amm)]);
    expect(res.body.results.map((r: { error: { code: string } }) => r.error.code)).toEqual(['NOT_FOUND', 'MARKET_NOT_ACTIVE', 'MARKET_NOT_CLOB']);
  });

  test('when the price is outside [0.01, 1.00] or sub-tick, then PRICE_OUT_OF_RANGE (sub-tick says so)', async () => {
    const base = signedItem(ALICE, market);
    const res = await place(h, ALICE.address, [
      { ...base, price: '0' },
      { ...base, price: '1.01' },
      { ...base, price: '0.505' },
    ]);
    expect(res.body.results.map((r: { error: { code: string } }) => r.error.code)).toEqual(['PRICE_OUT_OF_RANGE', 'PRICE_OUT_OF_RANGE', 'PRICE_OUT_OF_RANGE']);
    expect(res.body.results[2].error.message).toMatch(/sub-tick/);
    expect(res.body.results[0].error.message).not.toMatch(/sub-tick/);
  });

  test('when the size is below 0.1, then SIZE_TOO_SMALL; more than D decimals is INVALID_ORDER', async () => {
    const small = signedItem(ALICE, market, { size: '0.09' });
    const tooPrecise = { ...signedItem(ALICE, market), size: '1.0000000000000000001' };
    const res = await place(h, ALICE.address, [small, tooPrecise]);
    expect(codeOf(res, 0)).toBe('SIZE_TOO_SMALL');
    expect(res.body.results[1].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/fractional digits/) });
  });

  test('when the expiration is not in the future, then ORDER_EXPIRED; GTD without expiration is INVALID_ORDER', async () => {
    const past = BigInt(Math.floor(Date.now() / 1000) - 5);
    const res = await place(h, ALICE.address, [
      signedItem(ALICE, market, { orderType: 'GTD', expiration: past }),
      signedItem(ALICE, market, { orderType: 'GTD', expiration: 0n }),
      signedItem(ALICE, market, { orderType: 'GTD', expiration: past + 3600n }),
    ]);
    expect(codeOf(res, 0)).toBe('ORDER_EXPIRED');
    expect(res.body.results[1].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/GTD/) });
    expect(res.body.results[2].status).toBe('OPEN');
  });

  test('when the expiration is more than 10 years ahead, then INVALID_ORDER inline and nothing is stored; 10 years exactly is accepted', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    const huge = signedItem(ALICE, market, { orderType: 'GTD', expiration: (1n << 64n) - 1n });
    const past10y = signedItem(ALICE, market, { orderType: 'GTD', expiration: now + MAX_EXPIRATION_AHEAD_S + 60n });
    const within = signedItem(ALICE, market, { orderType: 'GTD', expiration: now + MAX_EXPIRATION_AHEAD_S - 60n });
    const res = await place(h, ALICE.address, [huge, past10y, within]);
    for (const i of [0, 1]) expect(res.body.results[i].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/10 years/) });
    expect(res.body.results[2].status).toBe('OPEN');
    const orders = createOrderModel(database.db());
    expect(await orders.countDocuments({ order_hash: { $in: [huge.hash, past10y.hash] } })).toBe(0);
  });

  test('when signed amounts drift from price x size, then INVALID_ORDER "Drifted signed amounts"', async () => {
    const item = signedItem(ALICE, market, { price: '0.5', size: '3' });
    const res = await place(h, ALICE.address, [
      { ...item, maker_amount: (BigInt(item.maker_amount) + 1n).toString() },
      // signed at 6 decimals instead of 18
      { ...item, maker_amount: '1500000', taker_amount: '3000000' },
    ]);
    for (const r of res.body.results) expect(r.error).toMatchObject({ code: 'INVALID_ORDER', message: 'Drifted signed amounts' });
  });

  test('when the token is not of the market, or of the other outcome, then INVALID_ORDER', async () => {
    const other = await insertMarket(database.db());
    const res = await place(h, ALICE.address, [
      { ...signedItem(ALICE, market), token_id: other.tokens[1].token_id },
      { ...signedItem(ALICE, market), outcome: 0 },
    ]);
    expect(res.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/not a token of this market/) });
    expect(res.body.results[1].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/outcome/) });
  });

  test('when fee_rate_bps differs from the market, then INVALID_ORDER', async () => {
    const res = await place(h, ALICE.address, [{ ...signedItem(ALICE, market), fee_rate_bps: 50 }]);
    expect(res.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/fee_rate_bps/) });
  });

  test('when the nonce is not the maker current on-chain nonce, then INVALID_ORDER', async () => {
    h.chain.wallet(ALICE.address).nonce = 3n;
    try {
      const res = await place(h, ALICE.address, [signedItem(ALICE, market, { nonce: 2n }), signedItem(ALICE, market, { nonce: 3n })]);
      expect(res.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', details: { nonce: '3' } });
      expect(res.body.results[1].status).toBe('OPEN');
    } finally {
      h.chain.wallet(ALICE.address).nonce = 0n;
    }
  });

  test('when the same signed order is placed twice, in one batch or across requests, then the repeat is INVALID_ORDER', async () => {
    const item = signedItem(ALICE, market);
    const first = await place(h, ALICE.address, [item, item]);
    expect(first.body.results[0].status).toBe('OPEN');
    expect(first.body.results[1].error).toMatchObject({ code: 'INVALID_ORDER', message: expect.stringMatching(/Duplicate/) });
    const again = await place(h, ALICE.address, [item]);
    expect(again.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: 'Duplicate of an order already placed' });
    expect(await createOrderModel(database.db()).countDocuments({ order_hash: item.hash })).toBe(1);
  });

  test('when the same signed order races in from several requests, then exactly one rests and its hold survives', async () => {
    const carol = ACCOUNTS[5];
    h.chain.fund(carol.address, 100n * ONE);
    const item = signedItem(carol, market, { size: '1' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => place(h, carol.address, [item])));
    const open = answers.filter((a) => a.body.results[0].status === 'OPEN');
    expect(open).toHaveLength(1);
    for (const a of answers.filter((x) => x !== open[0])) expect(a.body.results[0].error.code).toBe('INVALID_ORDER');
    expect(await createOrderModel(database.db()).countDocuments({ order_hash: item.hash })).toBe(1);
    expect(await h.orders.context.reservationStore.held(carol.address, 56, collateralAsset(market.collateral_token))).toBe(BigInt(item.maker_amount));
  });

  /** An order placed by `account`, then ended as the matcher and settlement would: FILLED, nothing reserved, hold dropped. */
  async function placedAndEnded(account: (typeof ACCOUNTS)[number]) {
    h.chain.fund(account.address, 10n * ONE);
    const item = signedItem(account, market, { size: '2' });
    expect((await place(h, account.address, [item])).body.results[0].status).toBe('OPEN');
    await createOrderModel(database.db()).updateOne({ order_hash: item.hash }, { $set: { status: 'FILLED', reserved_units: '0', remaining_units: '0' } });
    const asset = { wallet: account.address.toLowerCase(), chainId: 56, asset: collateralAsset(market.collateral_token) };
    await h.orders.context.reservationStore.lowerHold(asset, item.hash, 0n);
    return item;
  }

  test('when an order that has ended is placed again, then the repeat is INVALID_ORDER and holds nothing', async () => {
    const dave = ACCOUNTS[6];
    const item = await placedAndEnded(dave);
    const held = () => h.orders.context.reservationStore.held(dave.address, 56, collateralAsset(market.collateral_token));
    expect(await held()).toBe(0n);

    const again = await place(h, dave.address, [item]);
    expect(again.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: 'Duplicate of an order already placed' });
    expect(await held()).toBe(0n);
    expect(await createOrderModel(database.db()).findOne({ order_hash: item.hash }).lean()).toMatchObject({ status: 'FILLED' });
  });

  test('when an order that has ended is placed again with the balance spent, then the answer is still the duplicate, not a shortfall', async () => {
    const erin = ACCOUNTS[7];
    const item = await placedAndEnded(erin);
    h.chain.fund(erin.address, 0n);

    const again = await place(h, erin.address, [item]);
    expect(again.body.results[0].error).toMatchObject({ code: 'INVALID_ORDER', message: 'Duplicate of an order already placed' });
  });

  test('when orders pass and fail in one batch, then HTTP 200 with one result per order in request order', async () => {
    const ok1 = signedItem(ALICE, market, { size: '1' });
    const ok2 = signedItem(ALICE, market, { side: 'BUY', outcome: 0, price: '0.2', size: '1' });
    const res = await place(h, ALICE.address, [ok1, signedItem(BOB, market), ok2, { ...signedItem(ALICE, market), price: '2' }]);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(4);
    expect(res.body.results[0].order_hash).toBe(ok1.hash);
    expect(res.body.results[1].error.code).toBe('WALLET_MISMATCH');
    expect(res.body.results[2].order_hash).toBe(ok2.hash);
    expect(res.body.results[3].error.code).toBe('PRICE_OUT_OF_RANGE');
  });

  test('when the reservation refuses one order of a batch, then the placed order keeps its hand-off marker and the refused one leaves none', async () => {
    // Markers are written beside the reservation (src/orders/place-orders.ts): an order must exist
    // only with its marker, and a refused order must not leave one for the sweeper to chase.
    const dave = ACCOUNTS[6];
    h.chain.fund(dave.address, 5n * ONE);
    const fits = signedItem(dave, market, { price: '0.5', size: '6' }); // 3 of the 5
    const tooBig = signedItem(dave, market, { price: '0.5', size: '8' }); // 4 more: refused
    const res = await place(h, dave.address, [fits, tooBig]);
    expect(res.body.results[0].order_hash).toBe(fits.hash);
    expect(codeOf(res, 1)).toBe('INSUFFICIENT_BALANCE');
    const markers = database.db().collection<{ _id: string }>(HANDOFF_MARKERS);
    expect(await markers.countDocuments({ _id: fits.hash })).toBe(1);
    expect(await markers.countDocuments({ _id: tooBig.hash })).toBe(0);
    expect(await createOrderModel(database.db()).countDocuments({ order_hash: { $in: [fits.hash, tooBig.hash] } })).toBe(1);
  });

  test('when the matcher hand-off fails, then the placement still answers OPEN and the order stays PENDING for recovery', async () => {
    h.matcher.failSubmit = true;
    try {
      const item = signedItem(ALICE, market, { size: '1' });
      const res = await place(h, ALICE.address, [item]);
      expect(res.body.results[0].status).toBe('OPEN');
      expect(await createOrderModel(database.db()).findOne({ order_hash: item.hash }).lean()).toMatchObject({ handoff: 'PENDING', status: 'OPEN' });
    } finally {
      h.matcher.failSubmit = false;
    }
  });

  test('when the hand-off fails after another request deleted the shared marker (it was refused the same signed order), then the marker is written again for recovery', async () => {
    const markers = database.db().collection<{ _id: string }>(HANDOFF_MARKERS);
    h.matcher.failSubmit = true;
    h.matcher.beforeFailedSubmit = (hashes) => markers.deleteMany({ _id: { $in: hashes } });
    try {
      const item = signedItem(ALICE, market, { size: '1' });
      const res = await place(h, ALICE.address, [item]);
      expect(res.body.results[0].status).toBe('OPEN');
      expect(await markers.countDocuments({ _id: item.hash })).toBe(1);
    } finally {
      h.matcher.failSubmit = false;
      h.matcher.beforeFailedSubmit = undefined;
    }
  });

  test('when orders are reserved, then their market is announced to the matcher until their hand-off, and no announcement outlives its request', async () => {
    const before = { announcements: h.matcher.announcements, submits: h.matcher.submits.length };
    const placed = signedItem(ALICE, market, { size: '1' });
    await place(h, ALICE.address, [placed]);
    // Withdrawn before its own submit: a real matcher would otherwise wait for it.
    expect(h.matcher.submits.slice(before.submits)).toEqual([expect.objectContaining({ hashes: [placed.hash], announced: 0 })]);
    await place(h, ALICE.address, [placed]); // a duplicate: reserved for nothing, submits nothing
    h.matcher.failSubmit = true;
    try {
      await place(h, ALICE.address, [signedItem(ALICE, market, { size: '1' })]);
    } finally {
      h.matcher.failSubmit = false;
    }
    expect(h.matcher.announcements - before.announcements).toBeGreaterThanOrEqual(2);
    expect(h.matcher.announced).toBe(0);
  });

  describe('request-level errors', () => {
    test('when more than 15 orders are sent, then 422 BATCH_SIZE_EXCEEDED', async () => {
      const item = wire(signedItem(ALICE, market));
      const res = await call(`${h.url}/v1/orders`, { method: 'POST', headers: asWallet(ALICE.address), body: { orders: Array(16).fill(item) } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('BATCH_SIZE_EXCEEDED');
    });

    test('when the body fails its schema (empty, missing field, wrong type, unknown field), then 422 VALIDATION_ERROR', async () => {
      const item = wire(signedItem(ALICE, market));
      const { salt: _salt, ...noSalt } = item;
      for (const body of [{}, { orders: [] }, { orders: [noSalt] }, { orders: [{ ...item, chain_id: '56' }] }, { orders: [{ ...item, extra: 1 }] }, { orders: [{ ...item, price: '-0.5' }] }]) {
        const res = await call(`${h.url}/v1/orders`, { method: 'POST', headers: asWallet(ALICE.address), body });
        expect(res.status).toBe(422);
        expect(res.body.code).toBe('VALIDATION_ERROR');
      }
    });

    test('when no credentials are sent, then 401 AUTH_MISSING; a read-only API key is 403 FORBIDDEN', async () => {
      const body = { orders: [wire(signedItem(ALICE, market))] };
      const none = await call(`${h.url}/v1/orders`, { method: 'POST', body });
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('AUTH_MISSING');
      const readOnly = await call(`${h.url}/v1/orders`, { method: 'POST', headers: readOnlyKey(ALICE.address), body });
      expect(readOnly.status).toBe(403);
      expect(readOnly.body.code).toBe('FORBIDDEN');
    });
  });

  test('when wallets are dev accounts, then they are distinct (fixture sanity)', () => {
    expect(new Set(ACCOUNTS.map((a) => a.address)).size).toBe(ACCOUNTS.length);
  });
});
