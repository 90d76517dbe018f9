import type { Address } from 'viem';
import { useTestDatabase } from '../helpers/test-database';
import { ALICE, FakeChain, ONE, insertMarket, place, signedItem, startOrderHarness, type OrderHarness } from './harness';

/** A chain whose nonce and balance reads wait until released, counting the ones under way. */
class GatedChain extends FakeChain {
  started = 0;
  private release!: () => void;
  private readonly gate = new Promise<void>((resolve) => {
    this.release = resolve;
  });

  open(): void {
    this.release();
  }

  override async makerNonce(args: { wallet: Address }) {
    this.started += 1;
    await this.gate;
    return super.makerNonce(args);
  }

  override async collateralFunds(args: { wallet: Address }) {
    this.started += 1;
    await this.gate;
    return super.collateralFunds(args);
  }
}

describe('POST /v1/orders: chain reads', () => {
  const database = useTestDatabase('orders_chain_reads');
  const chain = new GatedChain();
  let h: OrderHarness;
  beforeAll(async () => {
    h = await startOrderHarness(database.db, { chainPort: chain, balanceTtlMs: 60_000 });
  });
  afterAll(async () => h.close());

  test('when an order is placed, then its nonce and balance reads are under way together (not one after the other), and each is made once', async () => {
    const market = await insertMarket(database.db());
    chain.fund(ALICE.address, 100n * ONE);
    const item = signedItem(ALICE, market, { price: '0.5', size: '2' });
    const answer = place(h, ALICE.address, [item]);
    const deadline = Date.now() + 5_000;
    while (chain.started < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(chain.started).toBe(2); // both waiting on the gate at once
    chain.open();
    const res = await answer;
    expect(res.body.results[0]).toMatchObject({ order_hash: item.hash, status: 'OPEN' });
    expect(chain.reads).toBe(2);
  });
});
