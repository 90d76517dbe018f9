/**
 * Attacks on open orders from the chain, with no API call (decisions section 10), on the embedded
 * stack: the chain watcher ends the attacker's orders CANCELLED with the reason, newest first when
 * part is still covered, within 5 s of the block, and leaves honest orders resting.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { encodeFunctionData } from 'viem';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from '../../src/chain/generated';
import { chainWatcherWorkflowId, startChainWatcher } from '../../src/temporal/chain-watcher.client';
import type { ChainWatcherView } from '../../workflows/chain-watcher.workflow';
import { uniqueTaskQueue } from '../helpers/test-temporal';
import { eventually } from '../helpers/eventually';
import { E18, useWatcherStack, type MarketView, type PlacedOrder, type Trader } from './watcher-stack';

/** Within this long of the block that voided an order, it is CANCELLED in the store (decisions section 10). */
const WITHIN_MS = 5_000;

describe('the chain watcher', () => {
  const stack = useWatcherStack();

  /** A market with an honest wallet's BUY resting on it, which no attack may touch. */
  async function marketWithHonestBuy(): Promise<{ market: MarketView; honest: PlacedOrder; honestTrader: Trader }> {
    const market = await stack.createMarket();
    const honestTrader = await stack.newTrader(100n * E18);
    const honest = await stack.place(honestTrader, market, { side: 'BUY', outcome: 1, price: '0.45', size: '10' });
    return { market, honest, honestTrader };
  }

  async function expectCancelled(hash: string, reason: string, minedAt: number): Promise<number> {
    const { order, seenAt } = await stack.until(hash, 'CANCELLED');
    expect(order.status_reason).toBe(reason);
    expect(order.remaining_units).not.toBe('0');
    return seenAt - minedAt;
  }

  async function expectResting(hashes: string[]): Promise<void> {
    for (const hash of hashes) {
      const o = await stack.order(hash);
      expect([o?.status, o?.status_reason ?? null]).toEqual(['OPEN', null]);
    }
  }

  async function bids(market: MarketView): Promise<{ price: string; remainingSize: string }[]> {
    const book = await stack.call('GET', `/v1/markets/${market.condition_id}/book`);
    return book.body.bids as { price: string; remainingSize: string }[];
  }

  test('when a maker lowers its collateral allowance below its open BUYs, then its newest BUYs end CANCELLED (BALANCE_CHANGED) until the rest is covered, within 5 s, and the book shows it', async () => {
    const { market, honest } = await marketWithHonestBuy();
    const attacker = await stack.newTrader(100n * E18);
    // Three BUY YES 10 @ 0.50: each reserves 5 + 0.05 fee.
    const oldest = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    const middle = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    const newest = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    expect(await bids(market)).toEqual([{ price: '0.5', remainingSize: '30' }, { price: '0.45', remainingSize: '10' }]);

    // An allowance that covers one order (5.05), set in one transaction, no API call.
    const minedAt = await stack.send(attacker, (w) => w.writeContract({
      address: market.collateral_token, abi: collateralAbi, functionName: 'approve', args: [market.ctf_exchange_address, 6n * E18],
    }));
    const lags = [await expectCancelled(newest.hash, 'BALANCE_CHANGED', minedAt), await expectCancelled(middle.hash, 'BALANCE_CHANGED', minedAt)];
    expect(Math.max(...lags)).toBeLessThan(WITHIN_MS);
    await expectResting([oldest.hash, honest.hash]);
    await eventually('book without the cancelled bids', async () => {
      const levels = await bids(market);
      return levels[0]?.remainingSize === '10' && levels;
    }, { timeoutMs: 10_000 });
    expect(await bids(market)).toEqual([{ price: '0.5', remainingSize: '10' }, { price: '0.45', remainingSize: '10' }]);
    const read = await stack.call('GET', `/v1/orders/${newest.hash}`, { jwt: attacker.jwt });
    expect(read.body).toMatchObject({ status: 'CANCELLED', status_reason: 'BALANCE_CHANGED' });
    // The owner was told once per cancelled order, with the reason; the covered order was not.
    const told = stack.userOrderEvents(attacker.address).filter((o) => o.status === 'CANCELLED');
    expect(told.map((o) => [o.order_hash, o.status_reason]).sort()).toEqual([[middle.hash, 'BALANCE_CHANGED'], [newest.hash, 'BALANCE_CHANGED']].sort());
  });

  test('when a maker moves its collateral away, then all its open BUYs end CANCELLED (BALANCE_CHANGED) within 5 s and honest orders rest on', async () => {
    const { market, honest, honestTrader } = await marketWithHonestBuy();
    const attacker = await stack.newTrader(20n * E18);
    const first = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.4', size: '10' });
    const second = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.42', size: '10' });
    // Everything to the honest wallet: its backing only grows.
    const minedAt = await stack.send(attacker, (w) => w.writeContract({
      address: market.collateral_token, abi: collateralAbi, functionName: 'transfer', args: [honestTrader.address, 20n * E18],
    }));
    const lags = [await expectCancelled(second.hash, 'BALANCE_CHANGED', minedAt), await expectCancelled(first.hash, 'BALANCE_CHANGED', minedAt)];
    expect(Math.max(...lags)).toBeLessThan(WITHIN_MS);
    await expectResting([honest.hash]);
  });

  test('when a maker moves outcome tokens its open SELLs need, then its newest SELL ends CANCELLED (BALANCE_CHANGED) within 5 s and the older one, still covered, rests on', async () => {
    const market = await stack.createMarket();
    const split = async (trader: Trader, amount: bigint) => {
      await stack.send(trader, (w) => w.writeContract({
        address: market.collateral_token, abi: collateralAbi, functionName: 'approve', args: [market.conditional_tokens_address, amount],
      }));
      await stack.send(trader, (w) => w.writeContract({
        address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'splitPosition', args: [market.collateral_token, market.condition_id as `0x${string}`, amount],
      }));
    };
    const honestTrader = await stack.newTrader(20n * E18);
    await split(honestTrader, 10n * E18);
    const honest = await stack.place(honestTrader, market, { side: 'SELL', outcome: 1, price: '0.95', size: '10' });
    const attacker = await stack.newTrader(20n * E18);
    await split(attacker, 10n * E18);
    const older = await stack.place(attacker, market, { side: 'SELL', outcome: 1, price: '0.9', size: '4' });
    const newer = await stack.place(attacker, market, { side: 'SELL', outcome: 1, price: '0.91', size: '4' });
    const yes = BigInt(market.tokens.find((t) => t.outcome === 1)!.token_id);
    // 10 YES -> 7: covers one SELL of 4, not two.
    const minedAt = await stack.send(attacker, (w) => w.writeContract({
      address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'safeTransferFrom', args: [attacker.address, honestTrader.address, yes, 3n * E18, '0x'],
    }));
    expect(await expectCancelled(newer.hash, 'BALANCE_CHANGED', minedAt)).toBeLessThan(WITHIN_MS);
    // One more scan window: the older SELL is covered and stays.
    await new Promise((r) => setTimeout(r, 1_500));
    await expectResting([older.hash, honest.hash]);
  });

  test('when a maker bumps its nonce on the exchange, then all its orders of the old nonce end CANCELLED (NONCE_BUMPED) within 5 s, and an order of the new nonce rests', async () => {
    const { market, honest } = await marketWithHonestBuy();
    const attacker = await stack.newTrader(100n * E18);
    const a = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.3', size: '10' });
    const b = await stack.place(attacker, market, { side: 'BUY', outcome: 0, price: '0.3', size: '10' });
    const minedAt = await stack.send(attacker, (w) => w.writeContract({ address: market.ctf_exchange_address, abi: exchangeAbi, functionName: 'incrementNonce' }));
    const lags = [await expectCancelled(a.hash, 'NONCE_BUMPED', minedAt), await expectCancelled(b.hash, 'NONCE_BUMPED', minedAt)];
    expect(Math.max(...lags)).toBeLessThan(WITHIN_MS);
    // The balance cache of order entry holds the old nonce for up to 2 s.
    await new Promise((r) => setTimeout(r, 2_500));
    const fresh = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.3', size: '10', nonce: 1n });
    await new Promise((r) => setTimeout(r, 1_500));
    await expectResting([fresh.hash, honest.hash]);
  });

  test('when a maker cancels one order on chain, then that order alone ends CANCELLED (ONCHAIN_CANCEL) within 5 s, and cancel-onchain still answers its calldata', async () => {
    const { market, honest } = await marketWithHonestBuy();
    const attacker = await stack.newTrader(100n * E18);
    const cancelled = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.35', size: '10' });
    const kept = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.36', size: '10' });
    const answer = await stack.call('POST', `/v1/orders/${kept.hash}/cancel-onchain`, { jwt: attacker.jwt });
    expect(answer).toEqual({
      status: 200,
      body: { to: market.ctf_exchange_address, chain_id: 56, data: encodeFunctionData({ abi: exchangeAbi, functionName: 'cancelOrder', args: [kept.signed] }) },
    });
    const minedAt = await stack.send(attacker, (w) => w.writeContract({
      address: market.ctf_exchange_address, abi: exchangeAbi, functionName: 'cancelOrder', args: [cancelled.signed],
    }));
    expect(await expectCancelled(cancelled.hash, 'ONCHAIN_CANCEL', minedAt)).toBeLessThan(WITHIN_MS);
    await new Promise((r) => setTimeout(r, 1_500));
    await expectResting([kept.hash, honest.hash]);
    // No per-order watch is started any more (other files of the run share the namespace: count this stack's queue).
    const watches = await stack.client.workflow.count(`WorkflowType="onchainCancelWorkflow" AND TaskQueue="${stack.taskQueue()}"`);
    expect(watches.count).toBe(0);
  });

  test('when honest wallets trade and settlement moves their funds, then none of their open orders is cancelled, even with the backing exactly spent', async () => {
    const market = await stack.createMarket();
    // Exactly what two BUY YES 10 @ 0.50 reserve: 2 x (5 + 0.05 fee).
    const maker = await stack.newTrader((101n * E18) / 10n);
    const first = await stack.place(maker, market, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    const second = await stack.place(maker, market, { side: 'BUY', outcome: 1, price: '0.5', size: '10' });
    const taker = await stack.newTrader(100n * E18);
    // BUY NO 10 @ 0.50 mints against the first: the maker pays 5.05, and 5.05 is left for the second.
    const take = await stack.place(taker, market, { side: 'BUY', outcome: 0, price: '0.5', size: '10' }, { rests: false });
    await stack.until(first.hash, 'FILLED', 60_000);
    await stack.until(take.hash, 'FILLED', 60_000);
    const scans = (await view()).scans;
    // The settlement's transfers named both wallets: let the watcher check them, and some more.
    await eventually('scans after the settlement', async () => (await view()).scans >= scans + 2, { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 1_500));
    await expectResting([second.hash]);
  });

  test('when a reorg replaces the block the watcher scanned last, then it scans the replacing block and the revoke in it ends the orders CANCELLED within 5 s', async () => {
    const { market, honest } = await marketWithHonestBuy();
    const attacker = await stack.newTrader(100n * E18);
    const a = await stack.place(attacker, market, { side: 'BUY', outcome: 1, price: '0.25', size: '10' });
    const rpc = (method: string, params: unknown[] = []) => stack.port.context.publicClient.request({ method: method as never, params: params as never });
    await rpc('evm_setIntervalMining', [0]);
    try {
      const snapshot = await rpc('evm_snapshot');
      await rpc('evm_mine');
      const mined = await stack.port.getBlockNumber();
      await eventually('cursor on the block to be replaced', async () => BigInt((await view()).cursor?.block ?? -1) === mined, { timeoutMs: 20_000 });
      const reorgs = (await view()).reorgs;
      // The empty block is replaced by one holding the revoke, at the same height.
      await rpc('evm_revert', [snapshot]);
      const minedAt = await stack.send(attacker, (w) => w.writeContract({
        address: market.collateral_token, abi: collateralAbi, functionName: 'approve', args: [market.ctf_exchange_address, 0n],
      }));
      expect(await stack.port.getBlockNumber()).toBe(mined);
      expect(await expectCancelled(a.hash, 'BALANCE_CHANGED', minedAt)).toBeLessThan(WITHIN_MS);
      expect((await view()).reorgs).toBeGreaterThan(reorgs);
      await expectResting([honest.hash]);
    } finally {
      await rpc('evm_setIntervalMining', [1_000]);
    }
  });

  test('when the worker is down while makers revoke and cancel on chain, then the restarted watcher catches up from its cursor: every voided order ends CANCELLED once, honest ones rest', async () => {
    const { market, honest } = await marketWithHonestBuy();
    const revoker = await stack.newTrader(100n * E18);
    const r1 = await stack.place(revoker, market, { side: 'BUY', outcome: 1, price: '0.2', size: '10' });
    const r2 = await stack.place(revoker, market, { side: 'BUY', outcome: 1, price: '0.21', size: '10' });
    const canceller = await stack.newTrader(100n * E18);
    const c1 = await stack.place(canceller, market, { side: 'BUY', outcome: 1, price: '0.22', size: '10' });
    const c2 = await stack.place(canceller, market, { side: 'BUY', outcome: 1, price: '0.23', size: '10' });
    const before = await view();

    await stack.stopWorker();
    await stack.send(revoker, (w) => w.writeContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'approve', args: [market.ctf_exchange_address, 0n] }));
    await stack.send(canceller, (w) => w.writeContract({ address: market.ctf_exchange_address, abi: exchangeAbi, functionName: 'cancelOrder', args: [c1.signed] }));
    // A few more blocks go by while no worker runs.
    await new Promise((r) => setTimeout(r, 3_000));
    for (const hash of [r1.hash, r2.hash, c1.hash]) expect((await stack.order(hash))?.status).toBe('OPEN');
    await stack.startWorker();

    await expectCancelled(r1.hash, 'BALANCE_CHANGED', 0);
    await expectCancelled(r2.hash, 'BALANCE_CHANGED', 0);
    await expectCancelled(c1.hash, 'ONCHAIN_CANCEL', 0);
    // Some scans later: still one removal per order, the rest untouched.
    await eventually('scans after the catch-up', async () => (await view()).scans >= before.scans + 4);
    await expectResting([c2.hash, honest.hash]);
    const signalled = await removalSignals();
    for (const hash of [r1.hash, r2.hash, c1.hash]) expect(signalled.filter((h) => h === hash)).toHaveLength(1);
    expect(signalled).not.toContain(c2.hash);
    expect(signalled).not.toContain(honest.hash);
    const after = await view();
    expect(BigInt(after.cursor!.block)).toBeGreaterThan(BigInt(before.cursor!.block));
    if (process.env.RECORD_HISTORIES === '1') {
      const history = await stack.client.workflow.getHandle(stack.watcherId()).fetchHistory();
      writeFileSync(join(__dirname, 'histories', 'chain-watcher.json'), JSON.stringify(history));
    }
  });

  test('when a watcher left by a worker of another task queue is running, then the next worker start ends it and runs its own on its queue', async () => {
    // A chain no other stack watches, and queues no worker polls: only the start decides.
    const chainId = 4_000_000 + Math.floor(Math.random() * 1_000_000);
    const [gone, current] = [uniqueTaskQueue('gone'), uniqueTaskQueue('current')];
    const handle = stack.client.workflow.getHandle(chainWatcherWorkflowId(chainId));
    try {
      await startChainWatcher(stack.client, gone, { chainId });
      const left = await handle.describe();
      await startChainWatcher(stack.client, current, { chainId });
      const now = await handle.describe();
      expect([now.status.name, now.taskQueue]).toEqual(['RUNNING', current]);
      expect(now.runId).not.toBe(left.runId);
      expect((await stack.client.workflow.getHandle(left.workflowId, left.runId).describe()).status.name).toBe('TERMINATED');
      // A start on the same queue keeps the one running.
      await startChainWatcher(stack.client, current, { chainId });
      expect((await handle.describe()).runId).toBe(now.runId);
    } finally {
      await handle.terminate('test done').catch(() => undefined);
    }
  });

  test('when two workers of a new queue start together beside a watcher of another queue, then both start and one watcher runs on the new queue', async () => {
    const chainId = 4_000_000 + Math.floor(Math.random() * 1_000_000);
    const [gone, current] = [uniqueTaskQueue('gone'), uniqueTaskQueue('current')];
    const handle = stack.client.workflow.getHandle(chainWatcherWorkflowId(chainId));
    try {
      await startChainWatcher(stack.client, gone, { chainId });
      await Promise.all([1, 2, 3].map(() => startChainWatcher(stack.client, current, { chainId })));
      const now = await handle.describe();
      expect([now.status.name, now.taskQueue]).toEqual(['RUNNING', current]);
    } finally {
      await handle.terminate('test done').catch(() => undefined);
    }
  });

  test('when its history passes the limit, then the watcher continues as new and the next run goes on from the cursor with the counters', async () => {
    const workflowId = `chain-watcher-rollover-${Date.now()}`;
    const handle = await stack.client.workflow.start('chainWatcherWorkflow', {
      workflowId, taskQueue: stack.taskQueue(), args: [{ chainId: 56, pollMs: 100, windowMs: 300, historyLimit: 30 }],
    });
    try {
      const runs = async () => {
        const ids: string[] = [];
        for await (const run of stack.client.workflow.list({ query: `WorkflowId="${workflowId}"` })) ids.push(run.runId);
        return ids;
      };
      await eventually('a second run', async () => (await runs()).length >= 3, { timeoutMs: 60_000, everyMs: 250 });
      const current = stack.client.workflow.getHandle(workflowId);
      const seen = await current.query<ChainWatcherView>('chainWatcher');
      const history = await current.fetchHistory();
      const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
      const input = JSON.parse(Buffer.from(started.input!.payloads![0]!.data!).toString('utf8')) as { cursor: { block: string } | null; totals: { scans: number } };
      // The run started from the previous run's cursor and counts on from its totals.
      expect(started.continuedExecutionRunId).toBeTruthy();
      expect(input.cursor).not.toBeNull();
      expect(input.totals.scans).toBeGreaterThan(0);
      expect(seen.scans).toBeGreaterThanOrEqual(input.totals.scans);
      expect(BigInt(seen.cursor!.block)).toBeGreaterThanOrEqual(BigInt(input.cursor!.block));
    } finally {
      await handle.terminate('test done');
    }
  });

  const view = (): Promise<ChainWatcherView> => stack.client.workflow.getHandle(stack.watcherId()).query<ChainWatcherView>('chainWatcher');

  /** Every order hash the watcher's runs (all of them) sent to a market for removal, once per signal. */
  async function removalSignals(): Promise<string[]> {
    const hashes: string[] = [];
    for await (const run of stack.client.workflow.list({ query: `WorkflowId="${stack.watcherId()}"` })) {
      const history = await stack.client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      for (const e of history.events ?? []) {
        if (e.eventType !== temporal.api.enums.v1.EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED) continue;
        const payload = e.signalExternalWorkflowExecutionInitiatedEventAttributes!.input!.payloads![0]!;
        hashes.push(...(JSON.parse(Buffer.from(payload.data!).toString('utf8')) as { hashes: string[] }).hashes);
      }
    }
    return hashes;
  }
});
