/**
 * The client's order math and signatures, judged by the server's own code: `checkOrder` (the
 * ingest rules, including "Drifted signed amounts") and `verifyOrderSignature` (EIP-712 recovery).
 */
import fc from 'fast-check';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PredexError, signOrderItem, type Market, type OrderInput } from '../../src/client';
import type { MarketRecord } from '../../src/db/models/market.model';
import { checkOrder } from '../../src/orders/check-order';
import { verifyOrderSignature } from '../../src/signing';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const account = privateKeyToAccount(KEY);
const now = new Date('2026-01-01T00:00:00Z');

function marketOf(decimals: number, feeRateBps = 100): { wire: Market; record: MarketRecord } {
  const record: MarketRecord = {
    chain_id: 56, condition_id: `0x${'ab'.repeat(32)}`, question_id: null, question: 'q', kind: 'CLOB', status: 'OPEN', resolution_outcome: null,
    status_version: 0, fee_rate_bps: feeRateBps, summary: { en: 's' }, rules: { en: 'r' },
    tokens: [{ outcome: 0, token_id: '1000', decimals }, { outcome: 1, token_id: '1001', decimals }],
    collateral_token: '0x00000000000000000000000000000000000c0117', ctf_exchange_address: '0x00000000000000000000000000000000000e0c01',
    conditional_tokens_address: '0x0000000000000000000000000000000000000c7f', end_date: now, created_at: now, updated_at: now,
  };
  const wire = {
    ...record,
    tokens: record.tokens.map((t) => ({ ...t, outcome_label: t.outcome === 1 ? 'YES' : 'NO' })),
    end_date: now.toISOString(), created_at: now.toISOString(), ticker: null,
  } as unknown as Market;
  return { wire, record };
}

async function judged(input: Omit<OrderInput, 'market'>, decimals = 18) {
  const { wire, record } = marketOf(decimals);
  const signed = await signOrderItem(wire, { market: wire.condition_id, ...input }, account, 0n);
  const checked = checkOrder(signed.item as never, record, Math.floor(now.getTime() / 1000));
  if ('error' in checked) throw new Error(`server refused: ${checked.error.code} ${checked.error.message}`);
  return { signed, checked };
}

describe('client order math and signing', () => {
  it.each([
    // side, price, size, decimals, maker_amount, taker_amount
    ['BUY', '0.33', '0.1', 18, '33000000000000000', '100000000000000000'],
    ['SELL', '0.33', '0.1', 18, '100000000000000000', '33000000000000000'],
    ['BUY', '0.07', '1.000001', 6, '70001', '1000001'], // 70000.07 rounds up for the buyer's counterparty
    ['SELL', '0.07', '1.000001', 6, '1000001', '70000'], // 70000.07 rounds down for the seller's counterparty
    ['BUY', '1', '3', 0, '3', '3'],
  ] as const)('when a trader %s at %s for %s shares (D=%i), then the amounts are %s / %s and the server accepts them', async (side, price, size, decimals, maker, taker) => {
    const { signed } = await judged({ side, outcome: 1, price, size }, decimals);
    expect(signed.item.maker_amount).toBe(maker);
    expect(signed.item.taker_amount).toBe(taker);
  });

  it('when any valid price, size and side is signed, then the server recomputes the same amounts and recovers the same signer and hash', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        fc.constantFrom<0 | 1>(0, 1),
        fc.integer({ min: 1, max: 100 }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        fc.constantFrom(6, 18),
        async (side, outcome, ticks, micro, decimals) => {
          const size = `${(micro + 100_000n) / 1_000_000n}.${((micro + 100_000n) % 1_000_000n).toString().padStart(6, '0')}`;
          const price = ticks === 100 ? '1' : `0.${String(ticks).padStart(2, '0')}`;
          const { signed, checked } = await judged({ side, outcome, price, size }, decimals);
          const verdict = verifyOrderSignature(checked.order, signed.item.signature, checked.domain);
          expect(verdict).toEqual({ ok: true, orderHash: signed.orderHash, signer: account.address as Address });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('when the price is sub-tick or the size below 0.1, then the client refuses with the server\'s own codes before signing', async () => {
    const { wire } = marketOf(18);
    const attempt = (price: string, size: string) => signOrderItem(wire, { market: wire.condition_id, side: 'BUY', outcome: 1, price, size }, account, 0n);
    await expect(attempt('0.555', '1')).rejects.toMatchObject({ code: 'PRICE_OUT_OF_RANGE' });
    await expect(attempt('1.01', '1')).rejects.toMatchObject({ code: 'PRICE_OUT_OF_RANGE' });
    await expect(attempt('0.5', '0.09')).rejects.toMatchObject({ code: 'SIZE_TOO_SMALL' });
    await expect(attempt('0.5', '1e3')).rejects.toBeInstanceOf(PredexError);
  });

  it('when GTD, post-only and client ids are given, then they travel unsigned beside the order and the server accepts them', async () => {
    const expiration = Math.floor(now.getTime() / 1000) + 3600;
    const { signed } = await judged({ side: 'SELL', outcome: 'NO', price: '0.4', size: '2', type: 'GTD', expiration, post_only: true, client_order_id: 'q-1' });
    expect(signed.item).toMatchObject({ order_type: 'GTD', outcome: 0, expiration: String(expiration), post_only: true, client_order_id: 'q-1', token_id: '1000' });
  });
});
