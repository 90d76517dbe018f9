import type { Address } from 'viem';
import { BalanceCache, balanceAssetOf } from '../../src/orders/balance-cache';
import { ALICE, BOB, COLLATERAL, EXCHANGE, FakeChain } from './harness';

const COLLATERAL_REF = { kind: 'collateral' as const, chainId: 56, collateral: COLLATERAL, exchange: EXCHANGE };
const CTF = '0x00000000000000000000000000000000000000c7' as Address;
const YES = 77n;
const YES_REF = { kind: 'token' as const, chainId: 56, conditionalTokens: CTF, exchange: EXCHANGE, tokenId: YES };

describe('balance cache: spends of settled fills', () => {
  test('when a settled fill is spent, then the cached balance drops by its units without a chain read, once per fill', async () => {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    const cache = new BalanceCache(chain, 60_000);
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(100n);
    cache.spend(ALICE.address.toLowerCase(), COLLATERAL_REF, 30n, 'trade-1:taker');
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(70n);
    // The same fill announced again (MINED, then CONFIRMED; a retried activity): taken off once.
    cache.spend(ALICE.address, COLLATERAL_REF, 30n, 'trade-1:taker');
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(70n);
    cache.spend(ALICE.address, COLLATERAL_REF, 500n, 'trade-2:taker');
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(0n);
    expect(chain.reads).toBe(1);
  });

  test('when a fill was spent over 10 minutes ago, then it is forgotten: announced again, it is taken off again', async () => {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    let now = 0;
    const cache = new BalanceCache(chain, 60 * 60_000, () => now);
    await cache.spendable(ALICE.address, COLLATERAL_REF);
    cache.spend(ALICE.address, COLLATERAL_REF, 10n, 'trade-8:taker');
    now = 9 * 60_000;
    cache.spend(ALICE.address, COLLATERAL_REF, 10n, 'trade-8:taker');
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(90n);
    now = 11 * 60_000;
    cache.spend(ALICE.address, COLLATERAL_REF, 10n, 'trade-8:taker');
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(80n);
  });

  test('when a spend arrives while the balance is being read, then the read\'s result has it taken off', async () => {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = Object.assign(Object.create(chain) as FakeChain, {
      collateralFunds: async (q: Parameters<FakeChain['collateralFunds']>[0]) => {
        const funds = await chain.collateralFunds(q); // read before the transfer lands
        await gate;
        return funds;
      },
    });
    const cache = new BalanceCache(slow, 60_000);
    const reading = cache.spendable(ALICE.address, COLLATERAL_REF);
    await new Promise((resolve) => setImmediate(resolve));
    cache.spend(ALICE.address, COLLATERAL_REF, 40n, 'trade-3:taker');
    release();
    expect(await reading).toBe(60n);
  });

  test('when nothing is cached for the wallet, then a spend changes nothing and the next read is the chain\'s', async () => {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    const cache = new BalanceCache(chain, 60_000);
    cache.spend(ALICE.address, COLLATERAL_REF, 40n, 'trade-4:taker');
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(100n);
  });

  test('when a spend names one asset and wallet, then other assets, other wallets and the maker nonce keep their cached reads', async () => {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    chain.fund(BOB.address, 100n);
    chain.give(ALICE.address, YES.toString(), 50n, true);
    const cache = new BalanceCache(chain, 60_000);
    await cache.spendable(ALICE.address, COLLATERAL_REF);
    await cache.spendable(BOB.address, COLLATERAL_REF);
    await cache.spendable(ALICE.address, YES_REF);
    await cache.makerNonce(ALICE.address, 56, EXCHANGE);
    cache.spend(ALICE.address, YES_REF, 20n, 'trade-5:maker');
    expect(await cache.spendable(ALICE.address, YES_REF)).toBe(30n);
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(100n);
    expect(await cache.spendable(BOB.address, COLLATERAL_REF)).toBe(100n);
    expect(await cache.makerNonce(ALICE.address, 56, EXCHANGE)).toBe(0n);
    expect(chain.reads).toBe(4);
  });

  test('when the entry expires, then the next read is the chain\'s, with no spend of the old entry carried over', async () => {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    let now = 0;
    const cache = new BalanceCache(chain, 2_000, () => now);
    await cache.spendable(ALICE.address, COLLATERAL_REF);
    cache.spend(ALICE.address, COLLATERAL_REF, 30n, 'trade-6:taker');
    chain.fund(ALICE.address, 70n); // the transfer, as the chain now says
    now = 2_001;
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(70n);
  });

  test('a market\'s BUY orders draw on its collateral, its SELL orders on the outcome token', () => {
    const market = { chain_id: 56, collateral_token: COLLATERAL, ctf_exchange_address: EXCHANGE, conditional_tokens_address: CTF };
    expect(balanceAssetOf(market, 'BUY', YES)).toEqual(COLLATERAL_REF);
    expect(balanceAssetOf(market, 'SELL', YES)).toEqual(YES_REF);
  });

});

describe('balance cache: reads again behind a hit in the second half of the TTL', () => {
  /** A chain whose reads wait until the test lets the next one through. */
  function gatedChain(chain: FakeChain) {
    const gates: (() => void)[] = [];
    const gated = Object.assign(Object.create(chain) as FakeChain, {
      collateralFunds: async (q: Parameters<FakeChain['collateralFunds']>[0]) => {
        const funds = await chain.collateralFunds(q);
        await new Promise<void>((resolve) => gates.push(resolve));
        return funds;
      },
    });
    const releaseAll = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      while (gates.length > 0) gates.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { gated, releaseAll };
  }

  /** A 2 s TTL cache over a gated chain, after its first read of ALICE's 100 (at 0 ms; `clock.now` moves it). */
  async function warmCache() {
    const chain = new FakeChain();
    chain.fund(ALICE.address, 100n);
    const { gated, releaseAll } = gatedChain(chain);
    const clock = { now: 0 };
    const cache = new BalanceCache(gated, 2_000, () => clock.now);
    const first = cache.spendable(ALICE.address, COLLATERAL_REF);
    await releaseAll();
    expect(await first).toBe(100n);
    return { chain, cache, releaseAll, clock };
  }

  test('when a hit falls in the second half of the TTL, then it is answered from the cache at once and the new read replaces the entry when it arrives', async () => {
    const { chain, cache, releaseAll, clock } = await warmCache();
    chain.fund(ALICE.address, 80n);
    clock.now = 900; // not in the second half yet: no read
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(100n);
    expect(chain.reads).toBe(1);
    clock.now = 1_100; // the second half: answered at once (the chain's read is still held), a read started
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(100n);
    expect(chain.reads).toBe(2);
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(100n);
    expect(chain.reads).toBe(2); // one read behind however many hits
    cache.spend(ALICE.address, COLLATERAL_REF, 5n, 'trade-7:taker'); // arrives while the new read is under way
    await releaseAll();
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(75n);
    // The new entry is fresh from its read's start (1,100 ms): no read before its own second half.
    clock.now = 2_000;
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(75n);
    expect(chain.reads).toBe(2);
  });

  test('when the read behind the hits has not arrived by the end of the TTL, then the next request waits for a read of its own', async () => {
    const { chain, cache, releaseAll, clock } = await warmCache();
    clock.now = 1_900;
    await cache.spendable(ALICE.address, COLLATERAL_REF); // starts the read behind it, held
    chain.fund(ALICE.address, 60n);
    clock.now = 2_001;
    let answered: bigint | undefined;
    const late = cache.spendable(ALICE.address, COLLATERAL_REF).then((v) => (answered = v));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBeUndefined(); // never the expired value
    await releaseAll();
    await late;
    expect(answered).toBe(60n);
  });

  test('when a spend arrives after the entry expired but before the read behind its hits arrives, then that read has it taken off', async () => {
    const { cache, releaseAll, clock } = await warmCache();
    clock.now = 1_100;
    await cache.spendable(ALICE.address, COLLATERAL_REF); // starts the read behind it, held (it saw 100)
    clock.now = 2_001; // the entry expires, no request comes
    cache.spend(ALICE.address, COLLATERAL_REF, 5n, 'trade-9:taker');
    await releaseAll(); // the read behind the hits replaces the expired entry
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(95n);
  });

  test('when a wallet\'s balances are dropped while a read behind the hits is under way, then that read does not bring the old entry back', async () => {
    const { chain, cache, releaseAll, clock } = await warmCache();
    clock.now = 1_600;
    await cache.spendable(ALICE.address, COLLATERAL_REF);
    cache.invalidateBalances(ALICE.address);
    chain.fund(ALICE.address, 30n);
    const after = cache.spendable(ALICE.address, COLLATERAL_REF);
    await releaseAll();
    expect(await after).toBe(30n);
    await releaseAll();
    expect(await cache.spendable(ALICE.address, COLLATERAL_REF)).toBe(30n);
  });
});
