/**
 * Pre-signed crossing order streams. Buyers only BUY YES at 0.51..0.55, sellers only SELL YES at
 * 0.45..0.49, all of size 1: any buy crosses any sell, and a buyer/seller pair sends the same number
 * of orders to the same markets, so every order can match (self-trades cannot happen: a wallet
 * only ever trades one side).
 */
import { zeroAddress } from 'viem';
import type { PlaceOrderItem } from '../../src/orders/order.schema';
import { buildOrder, signOrder } from '../../src/signing';
import type { BenchMarket, Trader } from './setup';

/** The POST /v1/orders item: the very type the route validates. */
export type WireOrder = PlaceOrderItem;

export interface SignedBenchOrder {
  hash: string;
  trader: Trader;
  market: BenchMarket;
  wire: WireOrder;
}

export const ORDER_SIZE = '1';
let priceCounter = 0;

export function signBenchOrder(trader: Trader, market: BenchMarket): SignedBenchOrder {
  const side = trader.role === 'buyer' ? 'BUY' : 'SELL';
  priceCounter += 1;
  const cents = side === 'BUY' ? 51 + (priceCounter % 5) : 45 + (priceCounter % 5);
  return signOrderAt(trader, market, `0.${cents}`);
}

/**
 * A size-1 YES order on the trader's side at `price`; `expiration` (unix seconds) makes it GTD.
 * A price outside the crossing bands rests until cancelled or expired.
 */
export function signOrderAt(trader: Trader, market: BenchMarket, price: string, expiration?: bigint): SignedBenchOrder {
  const side = trader.role === 'buyer' ? 'BUY' : 'SELL';
  const built = buildOrder({ market: market.signing, maker: trader.address, side, outcome: 1, price, size: ORDER_SIZE, expiration });
  const signed = signOrder(built, trader.privateKey);
  const o = built.order;
  return {
    hash: signed.orderHash.toLowerCase(),
    trader,
    market,
    wire: {
      condition_id: market.condition_id,
      chain_id: market.chain_id,
      side,
      order_type: expiration ? 'GTD' : 'LIMIT',
      outcome: 1,
      price: built.price,
      size: ORDER_SIZE,
      salt: o.salt.toString(),
      signer: trader.address,
      taker: zeroAddress,
      token_id: o.tokenId.toString(),
      maker_amount: o.makerAmount.toString(),
      taker_amount: o.takerAmount.toString(),
      expiration: o.expiration.toString(),
      nonce: o.nonce.toString(),
      fee_rate_bps: market.signing.feeRateBps,
      signature_type: 0,
      signature: signed.signature,
    },
  };
}

/**
 * Per trader, `perTrader` orders cut into batches of `batch`; batch k of pair j goes to market
 * (k + j) mod markets.length, identical for the pair's buyer and seller, so each market gets as many
 * buys as sells.
 */
export function closedLoopStreams(traders: Trader[], markets: BenchMarket[], perTrader: number, batch: number): SignedBenchOrder[][][] {
  return traders.map((trader, t) => {
    const pair = Math.floor(t / 2);
    const batches: SignedBenchOrder[][] = [];
    for (let k = 0, left = perTrader; left > 0; k += 1) {
      const n = Math.min(batch, left);
      const market = markets[(k + pair) % markets.length];
      batches.push(Array.from({ length: n }, () => signBenchOrder(trader, market)));
      left -= n;
    }
    return batches;
  });
}

/** `groups` buy batches and sell batches of `k` orders each for one market, rotating over the trader pairs. */
export function batchPairStream(traders: Trader[], market: BenchMarket, groups: number, k: number): [SignedBenchOrder[], SignedBenchOrder[]][] {
  const buyers = traders.filter((t) => t.role === 'buyer');
  const sellers = traders.filter((t) => t.role === 'seller');
  const n = Math.min(buyers.length, sellers.length);
  const batch = (t: Trader) => Array.from({ length: k }, () => signBenchOrder(t, market));
  return Array.from({ length: groups }, (_, i) => [batch(buyers[i % n]), batch(sellers[i % n])]);
}

/** Pairs (buy, sell) for one market: `batchPairStream` with one order a side. */
export function pairStream(traders: Trader[], market: BenchMarket, pairs: number): [SignedBenchOrder, SignedBenchOrder][] {
  return batchPairStream(traders, market, pairs, 1).map(([[buy], [sell]]) => [buy, sell]);
}
