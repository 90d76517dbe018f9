import { fillIdOf, marketKeyOf, marketWorkflowId, onchainCancelWorkflowId, settlementWorkflowId } from '../../src/matching/market-ids';
import { startOnchainCancelWatch } from '../../src/temporal/onchain-cancel.client';
import { temporal } from '@temporalio/proto';
import { marketViewQuery } from '../../workflows/definitions';
import { MAX_SETTLEMENT_ATTEMPTS } from '../../workflows/settlement.workflow';
import { MEMO_TAKERS } from '../../workflows/market/limits';
import { eventually } from '../helpers/eventually';
import { useMarketWorkflowStack } from '../helpers/market-workflow-stack';
import { insertMarket, newMarket, persist, saveHistory, wallet } from './market-harness';

describe('settlement and on-chain cancel workflows', () => {
  const stack = useMarketWorkflowStack('set', { settlementRetryDelayMs: 100 });
  const { order } = stack;

  /** A resting SELL 3 and a BUY 1 that takes one share of it; `before` runs before they are submitted. */
  async function matchOne(before?: (orders: { maker: { order_hash: string }; taker: { order_hash: string } }) => void) {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [maker, taker] = await persist(stack.db(), market, [
      { wallet: wallet(), side: 'SELL', price: 55, size: '3' },
      { wallet: wallet(), side: 'BUY', price: 55, size: '1' },
    ]);
    before?.({ maker, taker });
    await stack.matcher.submit(market, [maker.order_hash, taker.order_hash]);
    return { market, maker, taker, settlementId: settlementWorkflowId(`${marketKeyOf(market)}:1`) };
  }

  /** The settlement workflow `settlementId`, once it has started. */
  async function startedSettlement(settlementId: string) {
    await eventually('settlement started', async () => stack.h.client.workflow.getHandle(settlementId).describe().then(() => true, () => null), { timeoutMs: 20_000 });
    return stack.h.client.workflow.getHandle(settlementId);
  }

  test('when sends fail transiently, then fills go RETRYING and end CONFIRMED, and the taker FILLED', async () => {
    stack.h.chain.failFirst = 2;
    const { taker, maker, settlementId } = await matchOne();
    const result = await (await startedSettlement(settlementId)).result();
    expect(result).toMatchObject({ status: 'CONFIRMED', attempts: 3 });
    expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1, 2, 3]);
    const seen = stack.h.publisher.events
      .filter((e) => e.channel === 'user' && e.payload.type === 'fill' && e.payload.fill.order_hash === taker.order_hash)
      .map((e) => (e.payload as { fill: { settlement_status: string } }).fill.settlement_status);
    expect(seen).toEqual(expect.arrayContaining(['PENDING', 'RETRYING', 'MINED', 'CONFIRMED']));
    expect(await order(taker.order_hash)).toMatchObject({ status: 'FILLED', reserved_units: '0' });
    // The maker still rests (2 of 3 left): it stays PARTIALLY_FILLED, reserving only what rests.
    expect(await order(maker.order_hash)).toMatchObject({ status: 'PARTIALLY_FILLED', reserved_units: (2n * 10n ** 18n).toString() });
    await saveHistory(stack.h, settlementId, 'settlement-two-stages-retry.json');
    stack.h.chain.failFirst = 0;
  });

  test('when the node does not answer receipt reads for a while, then the settlement waits it out: no activity fails, nothing is sent twice, and the fills end CONFIRMED', async () => {
    // More failed reads than the receipt activity has attempts: each used to fail one attempt.
    stack.h.chain.failReceipts = 12;
    try {
      const { taker, settlementId } = await matchOne();
      const handle = await startedSettlement(settlementId);
      expect(await handle.result()).toMatchObject({ status: 'CONFIRMED', attempts: 1 });
      expect(stack.h.chain.failReceipts).toBe(0);
      expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1]);
      const failed = (await handle.fetchHistory()).events!.filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED);
      expect(failed).toEqual([]);
      expect(await order(taker.order_hash)).toMatchObject({ status: 'FILLED', reserved_units: '0' });
    } finally {
      stack.h.chain.failReceipts = 0;
    }
  });

  /**
   * A mined match's spends, announced once per fill whether MINED was written or only passed
   * through: the taker's collateral at 0.55 a share plus its fee, the maker's one share.
   */
  async function expectOneSpendEach(m: { maker: { order_hash: string }; taker: { order_hash: string } }) {
    const fillOf = async (hash: string) => (await stack.h.collections.fills.findOne({ order_hash: hash }))!;
    const [takerFill, makerFill] = [await fillOf(m.taker.order_hash), await fillOf(m.maker.order_hash)];
    const spendsOf = (fill: { trade_id: string; role: string }) => stack.h.publisher.spends.filter((s) => s.fill_id === fillIdOf(fill.trade_id, fill.role as 'maker' | 'taker'));
    expect(spendsOf(takerFill)).toEqual([expect.objectContaining({
      wallet: takerFill.wallet, side: 'BUY', outcome: 1, units: (55n * 10n ** 16n + BigInt(takerFill.fee_units)).toString(),
    })]);
    expect(spendsOf(makerFill)).toEqual([expect.objectContaining({ wallet: makerFill.wallet, side: 'SELL', outcome: 1, units: (10n ** 18n).toString() })]);
  }

  test('when a receipt waits for its confirmations longer than the send waits on, then fills are written MINED, then CONFIRMED; when they come within the wait, or with the receipt, CONFIRMED at once with MINED still announced', async () => {
    const fillStatuses = (hash: string) => stack.h.publisher.events
      .filter((e) => e.channel === 'user' && e.payload.type === 'fill' && e.payload.fill.order_hash === hash)
      .map((e) => (e.payload as { fill: { settlement_status: string } }).fill.settlement_status);
    const settled = async (settlementId: string) => (await startedSettlement(settlementId)).result();
    const activitiesOf = async (settlementId: string) => (await stack.h.client.workflow.getHandle(settlementId).fetchHistory()).events!
      .flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name!] : []));

    // 50 ms polls: 20 unconfirmed reads outlast the harness's CONFIRM_WAIT_MS.
    stack.h.chain.slowConfirmations = 20;
    try {
      const slow = await matchOne();
      expect(await settled(slow.settlementId)).toMatchObject({ status: 'CONFIRMED' });
      expect(fillStatuses(slow.taker.order_hash)).toEqual(['PENDING', 'MINED', 'CONFIRMED']);
      expect(await activitiesOf(slow.settlementId)).toEqual(['sendAndAwaitReceipts', 'markFillsOf', 'awaitConfirmationsOf', 'confirmFills']);
      await expectOneSpendEach(slow);
      await saveHistory(stack.h, slow.settlementId, 'settlement-two-stages-confirmations.json');
    } finally {
      stack.h.chain.slowConfirmations = 0;
    }
    stack.h.chain.slowConfirmations = 2; // confirmed on the third read, within the wait
    try {
      const waited = await matchOne();
      expect(await settled(waited.settlementId)).toMatchObject({ status: 'CONFIRMED' });
      expect(fillStatuses(waited.taker.order_hash)).toEqual(['PENDING', 'MINED', 'CONFIRMED']);
      expect(await activitiesOf(waited.settlementId)).toEqual(['sendAndAwaitReceipts', 'confirmFills']);
    } finally {
      stack.h.chain.slowConfirmations = 0;
    }
    const fast = await matchOne();
    expect(await settled(fast.settlementId)).toMatchObject({ status: 'CONFIRMED' });
    expect(fillStatuses(fast.taker.order_hash)).toEqual(['PENDING', 'MINED', 'CONFIRMED']);
    expect(await activitiesOf(fast.settlementId)).toEqual(['sendAndAwaitReceipts', 'confirmFills']);
    await expectOneSpendEach(fast);
    expect(await stack.h.collections.fills.findOne({ order_hash: fast.taker.order_hash })).toMatchObject({ settlement_status: 'CONFIRMED', tx_hash: expect.stringMatching(/^0x/) });
    expect((await order(fast.taker.order_hash))?.status).toBe('FILLED');
  });

  test('when a match is refused inside a transaction that carried others and the contract gave no reason (out of gas), then its fills are not confirmed by that transaction: they go RETRYING and settle in the retry', async () => {
    const { taker, maker, settlementId } = await matchOne((orders) => stack.h.chain.refuseInsideBatch.set(orders.taker.order_hash, ''));
    const started = await startedSettlement(settlementId);
    expect(await started.result()).toMatchObject({ status: 'CONFIRMED', attempts: 2 });
    expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1, 2]);
    const seen = stack.h.publisher.events
      .filter((e) => e.channel === 'user' && e.payload.type === 'fill' && e.payload.fill.order_hash === taker.order_hash)
      .map((e) => (e.payload as { fill: { settlement_status: string } }).fill.settlement_status);
    expect(seen).toEqual(['PENDING', 'RETRYING', 'MINED', 'CONFIRMED']);
    // The fills carry the transaction that did settle them.
    const settledBy = stack.h.chain.matchedTakers.get(taker.order_hash);
    expect(await stack.h.collections.fills.find({ order_hash: { $in: [taker.order_hash, maker.order_hash] } }).toArray())
      .toEqual([expect.objectContaining({ settlement_status: 'CONFIRMED', tx_hash: settledBy }), expect.objectContaining({ settlement_status: 'CONFIRMED', tx_hash: settledBy })]);
    expect((await order(taker.order_hash))?.status).toBe('FILLED');
  });

  test('when a match is refused inside a transaction with the contract\'s reason, then its fills are FAILED at once (as a refusal before sending is) and the taker MATCH_FAILED', async () => {
    const { taker, settlementId } = await matchOne((orders) => stack.h.chain.refuseInsideBatch.set(orders.taker.order_hash, 'Exchange: order filled or cancelled'));
    const started = await startedSettlement(settlementId);
    expect(await started.result()).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1]);
    expect(await stack.h.collections.fills.find({ order_hash: taker.order_hash }).toArray()).toEqual([expect.objectContaining({ settlement_status: 'FAILED' })]);
    expect(await order(taker.order_hash)).toMatchObject({ status: 'MATCH_FAILED', status_reason: 'SETTLEMENT_FAILED' });
    const ended = stack.h.publisher.events.filter((e) => e.channel === 'user' && e.payload.type === 'order' && e.payload.order.order_hash === taker.order_hash);
    expect(ended.map((e) => (e.payload as { order: { status_reason: unknown } }).order.status_reason).slice(-1)).toEqual(['SETTLEMENT_FAILED']);
  });

  /** Two resting sells (the first GTD, expiring in 10 min) taken by one BUY 2; the chain's clock 20 min ahead, so the first is expired on chain. */
  async function matchWithExpiredMaker(takerExpiration?: number) {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const now = Math.floor(Date.now() / 1000);
    const [expiring, lasting, taker] = await persist(stack.db(), market, [
      { wallet: wallet(), side: 'SELL', price: 50, size: '1', expiration: now + 600 },
      { wallet: wallet(), side: 'SELL', price: 51, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 52, size: '2', expiration: takerExpiration },
    ]);
    stack.h.chain.clockAheadS = 1_200;
    await stack.matcher.submit(market, [expiring.order_hash, lasting.order_hash, taker.order_hash]);
    const result = await (await startedSettlement(settlementWorkflowId(`${marketKeyOf(market)}:1`))).result();
    return { market, expiring, lasting, taker, result };
  }

  test('when a group is refused because one of its makers expired on chain since the match, then that maker\'s trade fails alone (its fills FAILED, the maker and the taker MATCH_FAILED) and the other maker\'s trade settles in the next send', async () => {
    try {
      const { market, expiring, lasting, taker, result } = await matchWithExpiredMaker();
      expect(result).toMatchObject({ status: 'CONFIRMED', attempts: 2 });
      const sends = stack.h.chain.sent.filter((s) => s.batchId.startsWith(marketKeyOf(market)));
      expect(sends.map((s) => [s.attempt, s.trades])).toEqual([[1, 2], [2, 1]]);
      const statusOf = async (hash: string) => (await stack.h.collections.fills.find({ order_hash: hash }).toArray()).map((f) => f.settlement_status);
      expect(await statusOf(expiring.order_hash)).toEqual(['FAILED']);
      expect(await statusOf(lasting.order_hash)).toEqual(['CONFIRMED']);
      expect((await statusOf(taker.order_hash)).sort()).toEqual(['CONFIRMED', 'FAILED']);
      expect(await order(lasting.order_hash)).toMatchObject({ status: 'FILLED', reserved_units: '0' });
      expect(await order(expiring.order_hash)).toMatchObject({ status: 'MATCH_FAILED', reserved_units: '0' });
      // A fill of the taker failed for good: MATCH_FAILED (decisions.md), its settled share kept, nothing held.
      expect(await order(taker.order_hash)).toMatchObject({ status: 'MATCH_FAILED', reserved_units: '0', settled_units: (2n * 10n ** 18n).toString() });
      await saveHistory(stack.h, settlementWorkflowId(`${marketKeyOf(market)}:1`), 'settlement-drops-expired.json');
    } finally {
      stack.h.chain.clockAheadS = 0;
    }
  });

  test('when the refused group\'s taker itself expired on chain, then nothing of it can settle: the group ends FAILED at its first send, as before', async () => {
    try {
      const { market, taker, result } = await matchWithExpiredMaker(Math.floor(Date.now() / 1000) + 600);
      expect(result).toMatchObject({ status: 'FAILED', attempts: 1 });
      expect((await stack.h.collections.fills.find({ condition_id: market.condition_id }).toArray()).map((f) => f.settlement_status)).toEqual(['FAILED', 'FAILED', 'FAILED', 'FAILED']);
      expect((await order(taker.order_hash))?.status).toBe('MATCH_FAILED');
    } finally {
      stack.h.chain.clockAheadS = 0;
    }
  });

  test('when a send is refused as "taker already matched" because an earlier transaction of the same match settled it (a copy sent while the first was pending), then the group takes that transaction: CONFIRMED, not FAILED', async () => {
    const { taker, settlementId } = await matchOne((orders) => stack.h.chain.settledByEarlier.add(orders.taker.order_hash));
    const started = await startedSettlement(settlementId);
    expect(await started.result()).toMatchObject({ status: 'CONFIRMED', attempts: 1 });
    const earlier = stack.h.chain.matchedTakers.get(taker.order_hash);
    expect(earlier).toMatch(/^0x/);
    expect(await stack.h.collections.fills.findOne({ order_hash: taker.order_hash })).toMatchObject({ settlement_status: 'CONFIRMED', tx_hash: earlier });
    expect((await order(taker.order_hash))?.status).toBe('FILLED');
  });

  test('when the exchange refuses batch transactions (deployed before matchOrdersBatch), then every group settles in its retry, one transaction each', async () => {
    stack.h.chain.refuseBatchTransactions = true;
    try {
      const { taker, settlementId } = await matchOne();
      const started = await startedSettlement(settlementId);
      expect(await started.result()).toMatchObject({ status: 'CONFIRMED', attempts: 2 });
      expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1, 2]);
      expect(await stack.h.collections.fills.findOne({ order_hash: taker.order_hash })).toMatchObject({ settlement_status: 'CONFIRMED', tx_hash: stack.h.chain.matchedTakers.get(taker.order_hash) });
      expect((await order(taker.order_hash))?.status).toBe('FILLED');
    } finally {
      stack.h.chain.refuseBatchTransactions = false;
    }
  });

  test('when the chain took a match but its answer was lost, then the retry finds the mined match and records it instead of sending again', async () => {
    stack.h.chain.loseAnswers = 1;
    const { taker, settlementId } = await matchOne();
    const result = await (await startedSettlement(settlementId)).result();
    expect(result).toMatchObject({ status: 'CONFIRMED', attempts: 2 });
    // One send reached the chain; the second attempt asked the chain instead of sending again
    // (a second send would have reverted "taker already matched" and failed the fills).
    expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1]);
    const txHash = stack.h.chain.matchedTakers.get(taker.order_hash);
    expect(await stack.h.collections.fills.find({ order_hash: taker.order_hash }).toArray()).toEqual([expect.objectContaining({ settlement_status: 'CONFIRMED', tx_hash: txHash })]);
    expect((await order(taker.order_hash))?.status).toBe('FILLED');
  });

  test('when the last counted send is taken but loses its answer and the node cannot be asked about it, then that round is not counted: the next round finds the mined match, CONFIRMED (not FAILED with its transaction on chain)', async () => {
    stack.h.chain.failFirst = MAX_SETTLEMENT_ATTEMPTS - 1; // sends 1-4 refused unsent ("nonce too low")
    stack.h.chain.loseAnswersUnasked = 1; // send 5 is taken; its answer and the lookup of its hash are lost
    try {
      const { taker, settlementId } = await matchOne();
      const result = await (await startedSettlement(settlementId)).result();
      expect(result).toMatchObject({ status: 'CONFIRMED', attempts: MAX_SETTLEMENT_ATTEMPTS + 1 });
      const txHash = stack.h.chain.matchedTakers.get(taker.order_hash);
      expect(await stack.h.collections.fills.find({ order_hash: taker.order_hash }).toArray()).toEqual([expect.objectContaining({ settlement_status: 'CONFIRMED', tx_hash: txHash })]);
      expect((await order(taker.order_hash))?.status).toBe('FILLED');
    } finally {
      stack.h.chain.failFirst = 0;
    }
  });

  test('when the chain took a match, its answer was lost and the chain then does not answer for more rounds than the sends allowed, then those rounds are not counted: the group finds its mined match, CONFIRMED', async () => {
    stack.h.chain.loseAnswers = 1;
    stack.h.chain.failMatchLookups = MAX_SETTLEMENT_ATTEMPTS; // rounds 2-6 cannot ask; round 7 can
    const { taker, settlementId } = await matchOne();
    const result = await (await startedSettlement(settlementId)).result();
    expect(stack.h.chain.failMatchLookups).toBe(0);
    expect(result).toMatchObject({ status: 'CONFIRMED', attempts: MAX_SETTLEMENT_ATTEMPTS + 2 });
    expect(stack.h.chain.sent.filter((s) => `settlement-${s.batchId}` === settlementId).map((s) => s.attempt)).toEqual([1]);
    const txHash = stack.h.chain.matchedTakers.get(taker.order_hash);
    expect(await stack.h.collections.fills.find({ order_hash: taker.order_hash }).toArray()).toEqual([expect.objectContaining({ settlement_status: 'CONFIRMED', tx_hash: txHash })]);
    expect((await order(taker.order_hash))?.status).toBe('FILLED');
    await saveHistory(stack.h, settlementId, 'settlement-unknown-uncounted.json');
  });

  test('when settlement fails for good, then fills are FAILED, the taker MATCH_FAILED and the resting maker leaves the book', async () => {
    stack.h.chain.failAlways = true;
    try {
      const { market, taker, maker, settlementId } = await matchOne();
      const result = await (await startedSettlement(settlementId)).result();
      expect(result).toMatchObject({ status: 'FAILED', attempts: 5 });
      const fills = await stack.h.collections.fills.find({ condition_id: market.condition_id }).toArray();
      expect(fills.map((f) => f.settlement_status)).toEqual(['FAILED', 'FAILED']);
      expect((await order(taker.order_hash))?.status).toBe('MATCH_FAILED');
      await eventually('maker removed', async () => (await order(maker.order_hash))?.status === 'MATCH_FAILED', { timeoutMs: 20_000 });
      expect(await order(maker.order_hash)).toMatchObject({ status_reason: 'SETTLEMENT_FAILED', reserved_units: '0' });
      const view = await stack.h.client.workflow.getHandle(marketWorkflowId(market)).query(marketViewQuery);
      expect(view.resting).toBe(0);
      expect(await stack.h.collections.bookLevels.countDocuments({ condition_id: market.condition_id, remaining: { $ne: '0' } })).toBe(0);
      await saveHistory(stack.h, settlementId, 'settlement-two-stages-failed.json');
    } finally {
      stack.h.chain.failAlways = false;
    }
  });

  test('when one step holds two takers, then one settlement workflow sends one matchOrders per taker', async () => {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [s1, s2] = await persist(stack.db(), market, [
      { wallet: wallet(), side: 'SELL', price: 40, size: '1' },
      { wallet: wallet(), side: 'SELL', price: 41, size: '1' },
    ]);
    await stack.matcher.submit(market, [s1.order_hash, s2.order_hash]);
    await eventually('resting', async () => (await order(s2.order_hash))?.book_added_at, { timeoutMs: 20_000 });
    const [b1, b2] = await persist(stack.db(), market, [
      { wallet: wallet(), side: 'BUY', price: 45, size: '1' },
      { wallet: wallet(), side: 'BUY', price: 45, size: '1' },
    ]);
    await stack.matcher.submit(market, [b1.order_hash, b2.order_hash]);
    await eventually('both settled', async () => (await order(b1.order_hash))?.status === 'FILLED' && (await order(b2.order_hash))?.status === 'FILLED', { timeoutMs: 30_000 });
    const key = marketKeyOf(market);
    const batches = stack.h.chain.sent.filter((s) => s.batchId.startsWith(key)).map((s) => [s.batchId, s.trades]);
    // The two calls go out side by side, in either order.
    expect(batches.sort()).toEqual([[`${key}:1`, 1], [`${key}:2`, 1]]);
    expect((await order(b1.order_hash))?.status).toBe('FILLED');
    const settlements = await eventually('settlement listed', async () => {
      const ids: string[] = [];
      for await (const w of stack.h.client.workflow.list({ query: `WorkflowType = 'settlementWorkflow' AND MarketId = '${key}'` })) ids.push(w.workflowId);
      return ids.length > 0 ? ids : null;
    }, { timeoutMs: 10_000 });
    expect(settlements).toEqual([settlementWorkflowId(`${key}:1`)]);
    // Each fill names the batch that settles it.
    const fills = await stack.h.collections.fills.find({ order_hash: { $in: [b1.order_hash, b2.order_hash] } }).toArray();
    expect(fills.map((f) => f.settlement_batch)).toEqual([`${key}:1`, `${key}:1`]);
    // One settlement per step (`settlement-per-step`), local step activities (`local-step-activities`),
    // batched settlement activities (`settlement-batched-activities`), settlement starts not awaited
    // by the step (`settlement-start-async`) and settlement activities on their own task queue
    // (`settlement-task-queue`), two settlement activities on the common path (`settlement-two-stages`).
    // Older recordings keep the runs from before each patch: settlement-task-queue.json (four stages),
    // market-settle-per-step.json, market-local-steps.json, settlement-batched-*.json (activities on
    // the shared queue), settlement-groups.json (groups settled one by one), settlement-retry.json and
    // settlement-failed.json (one settlement per taker).
    await saveHistory(stack.h, settlementWorkflowId(`${key}:1`), 'settlement-two-stages.json');
    await saveHistory(stack.h, marketWorkflowId(market), 'market-settle-async.json');
  });

  test('when steps trade while two settlements are under way, then their trades wait and go out together in one later settlement, which every fill of theirs names', async () => {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const key = marketKeyOf(market);
    const makers = await persist(stack.db(), market, Array.from({ length: 4 }, () => ({ wallet: wallet(), side: 'SELL' as const, price: 40, size: '1' })));
    await stack.matcher.submit(market, makers.map((o) => o.order_hash));
    await eventually('makers resting', async () => (await order(makers[3].order_hash))?.book_added_at, { timeoutMs: 20_000 });
    const settlementsOf = async () => {
      const ids: string[] = [];
      for await (const w of stack.h.client.workflow.list({ query: `WorkflowType = 'settlementWorkflow' AND MarketId = '${key}'` })) ids.push(w.workflowId);
      return ids.sort();
    };
    const takers: Awaited<ReturnType<typeof persist>> = [];
    stack.h.chain.hold = true; // receipts stay pending: the first two settlements stay under way
    try {
      for (let i = 0; i < 4; i++) {
        // One taker per step: each is matched before the next is handed over.
        const [taker] = await persist(stack.db(), market, [{ wallet: wallet(), side: 'BUY', price: 45, size: '1' }]);
        takers.push(taker);
        await stack.matcher.submit(market, [taker.order_hash]);
        await eventually(`taker ${i} matched`, async () => (await order(taker.order_hash))?.status === 'MATCHED', { timeoutMs: 20_000 });
      }
      const batchOf = async (hash: string) => (await stack.h.collections.fills.findOne({ order_hash: hash }))?.settlement_batch;
      const batches = await Promise.all(takers.map((t) => batchOf(t.order_hash)));
      // Steps 1 and 2 each started a settlement; steps 3 and 4 wait in one batch, named after step 3's trade.
      expect(new Set(batches).size).toBe(3);
      expect(batches[2]).toBe(batches[3]);
      await eventually('two settlements listed', async () => ((await settlementsOf()).length === 2 ? true : null), { timeoutMs: 10_000 });
      await new Promise((r) => setTimeout(r, 500));
      expect(await settlementsOf()).toEqual([settlementWorkflowId(batches[0]!), settlementWorkflowId(batches[1]!)].sort());
      stack.h.chain.hold = false;
      await eventually('all settled', async () => (await stack.h.collections.orders.countDocuments({ order_hash: { $in: takers.map((t) => t.order_hash) }, status: 'FILLED' })) === 4, { timeoutMs: 30_000 });
      expect(await settlementsOf()).toEqual(batches.slice(0, 3).map((b) => settlementWorkflowId(b!)).sort());
      // The waiting batch went out as one settlement with one matchOrders per taker.
      const third = stack.h.chain.sent.filter((s) => s.batchId.startsWith(key) && s.attempt === 1).map((s) => s.batchId).sort();
      expect(third).toHaveLength(4);
      const carried = await stack.h.client.workflow.getHandle(settlementWorkflowId(batches[2]!)).describe();
      expect(carried.memo).toMatchObject({ market: key, takers: [takers[2].order_hash, takers[3].order_hash], trades: 2 });
      // Compact input: the groups alone, each named after its first trade (no list of every trade).
      const startedWith = (await stack.h.client.workflow.getHandle(settlementWorkflowId(batches[2]!)).fetchHistory()).events![0].workflowExecutionStartedEventAttributes!.input!.payloads![0];
      const input = JSON.parse(Buffer.from(startedWith.data!).toString('utf8')) as { tradeIds?: string[]; groups: { batchId?: string; tradeIds: string[] }[] };
      const tradeOf = async (hash: string) => (await stack.h.collections.fills.findOne({ order_hash: hash }))!.trade_id;
      expect(input.tradeIds).toBeUndefined();
      expect(input.groups).toEqual([{ tradeIds: [await tradeOf(takers[2].order_hash)] }, { tradeIds: [await tradeOf(takers[3].order_hash)] }]);
      await saveHistory(stack.h, marketWorkflowId(market), 'market-compact-payloads.json');
      await saveHistory(stack.h, settlementWorkflowId(batches[2]!), 'settlement-compact-input.json');
    } finally {
      stack.h.chain.hold = false;
    }
  });

  test('when one step holds 150 takers, then its one settlement starts (memo and search attributes within limits) and settles them all', async () => {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const makers = await persist(stack.db(), market, Array.from({ length: 150 }, () => ({ wallet: wallet(), side: 'SELL' as const, price: 40, size: '1' })));
    await stack.matcher.submit(market, makers.map((o) => o.order_hash));
    await eventually('makers resting', async () => (await order(makers[149].order_hash))?.book_added_at, { timeoutMs: 30_000 });
    const takers = await persist(stack.db(), market, Array.from({ length: 150 }, () => ({ wallet: wallet(), side: 'BUY' as const, price: 45, size: '1' })));
    await stack.matcher.submit(market, takers.map((o) => o.order_hash));
    await eventually('all settled', async () => (await stack.h.collections.orders.countDocuments({ condition_id: market.condition_id, status: 'FILLED' })) === 300, { timeoutMs: 60_000 });
    const key = marketKeyOf(market);
    expect(stack.h.chain.sent.filter((s) => s.batchId.startsWith(key)).length).toBe(150);
    // One child for the step: its memo names the first takers and counts them all, under 2 KB.
    const fill = await stack.h.collections.fills.findOne({ order_hash: takers[0].order_hash });
    const description = await stack.h.client.workflow.getHandle(settlementWorkflowId(String(fill?.settlement_batch))).describe();
    expect(description.memo).toEqual({ market: key, takers: takers.slice(0, MEMO_TAKERS).map((t) => t.order_hash), takers_total: 150, trades: 150 });
    const memoBytes = temporal.api.common.v1.Memo.encode(description.raw.workflowExecutionInfo!.memo!).finish().length;
    expect(memoBytes).toBeLessThan(2_048);
  });

  /** A BUY resting on the book of a new market. */
  async function restingOrder() {
    const market = newMarket();
    await insertMarket(stack.db(), market);
    const [o] = await persist(stack.db(), market, [{ wallet: wallet(), side: 'BUY', price: 20, size: '1' }]);
    await stack.matcher.submit(market, [o.order_hash]);
    await eventually('resting', async () => (await order(o.order_hash))?.book_added_at, { timeoutMs: 20_000 });
    return o;
  }

  test('when the order is cancelled on chain, then the watch takes it off the book', async () => {
    const o = await restingOrder();
    await startOnchainCancelWatch(stack.h.client, stack.taskQueue, o, { pollSeconds: 1 });
    await startOnchainCancelWatch(stack.h.client, stack.taskQueue, o, { pollSeconds: 1 }); // idempotent
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await order(o.order_hash))?.status).toBe('OPEN');
    stack.h.chain.cancelledOnChain.add(o.order_hash);
    const result = await stack.h.client.workflow.getHandle(onchainCancelWorkflowId(o.order_hash)).result();
    expect(result).toEqual({ outcome: 'CANCELLED_ONCHAIN' });
    await eventually('cancelled', async () => (await order(o.order_hash))?.status === 'CANCELLED', { timeoutMs: 20_000 });
    expect((await order(o.order_hash))?.status_reason).toBe('ONCHAIN_CANCEL');
    await saveHistory(stack.h, onchainCancelWorkflowId(o.order_hash), 'onchain-cancel.json');
  });

  test('when the watch sees an order cancelled on chain before its placement reached the market, then the order ends CANCELLED (ONCHAIN_CANCEL) and its late placement neither rests nor matches it', async () => {
    const resting = await restingOrder(); // a BUY 1 at 20: the market's workflow runs
    const market = { chain_id: resting.chain_id, condition_id: resting.condition_id };
    // A SELL that would cross it, stored but not handed over yet (its hand-off held or lost).
    const [late] = await persist(stack.db(), market, [{ wallet: wallet(), side: 'SELL', price: 20, size: '1' }]);
    stack.h.chain.cancelledOnChain.add(late.order_hash);
    await startOnchainCancelWatch(stack.h.client, stack.taskQueue, late, { pollSeconds: 1 });
    expect(await stack.h.client.workflow.getHandle(onchainCancelWorkflowId(late.order_hash)).result()).toEqual({ outcome: 'CANCELLED_ONCHAIN' });
    await eventually('ended before placement', async () => (await order(late.order_hash))?.status === 'CANCELLED', { timeoutMs: 20_000 });
    expect(await order(late.order_hash)).toMatchObject({ status_reason: 'ONCHAIN_CANCEL', reserved_units: '0' });

    await stack.matcher.submit(market, [late.order_hash]); // the placement comes after all
    // An order handed over after it rests once the late placement has been through the market.
    const [probe] = await persist(stack.db(), market, [{ wallet: wallet(), side: 'BUY', price: 10, size: '1' }]);
    await stack.matcher.submit(market, [probe.order_hash]);
    await eventually('probe resting', async () => (await order(probe.order_hash))?.book_added_at, { timeoutMs: 20_000 });
    expect(await order(late.order_hash)).toMatchObject({ status: 'CANCELLED', status_reason: 'ONCHAIN_CANCEL' });
    expect(await order(resting.order_hash)).toMatchObject({ status: 'OPEN' });
    expect(await stack.h.collections.fills.countDocuments({ order_hash: { $in: [late.order_hash, resting.order_hash] } })).toBe(0);
    await saveHistory(stack.h, marketWorkflowId(market), 'market-remove-unplaced.json');
  });

  test('when the on-chain check fails past its retries, then the watch goes on and still takes the cancelled order off the book', async () => {
    const o = await restingOrder();
    // A node down for a first check's three attempts and the next check's first one.
    stack.h.chain.failChecks = 4;
    stack.h.chain.cancelledOnChain.add(o.order_hash);
    await startOnchainCancelWatch(stack.h.client, stack.taskQueue, o, { pollSeconds: 1 });
    const handle = stack.h.client.workflow.getHandle(onchainCancelWorkflowId(o.order_hash));
    expect(await handle.result()).toEqual({ outcome: 'CANCELLED_ONCHAIN' });
    expect(stack.h.chain.failChecks).toBe(0);
    const history = await handle.fetchHistory();
    const failedChecks = history.events!.filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED);
    expect(failedChecks).toHaveLength(1);
    await eventually('cancelled', async () => (await order(o.order_hash))?.status === 'CANCELLED', { timeoutMs: 20_000 });
    expect((await order(o.order_hash))?.status_reason).toBe('ONCHAIN_CANCEL');
    await saveHistory(stack.h, onchainCancelWorkflowId(o.order_hash), 'onchain-cancel-check-failed.json');
  }, 30_000);
});
