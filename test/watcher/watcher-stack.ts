/**
 * The trading stack for the chain watcher's tests: a local chain mining a block a second, and a
 * worker that starts the chain watcher as workers/main.ts does. The worker can be stopped and
 * started again while the chain, Temporal, the store and the API stay up.
 */
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ChainPort } from '../../src/chain';
import { matchingCollections, type StoredOrder } from '../../src/matching/collections';
import type { SignedOrder } from '../../src/signing';
import { chainWatcherWorkflowId } from '../../src/temporal/chain-watcher.client';
import type { ChainWatcherInput } from '../../workflows/chain-watcher.workflow';
import { eventually } from '../helpers/eventually';
import { useTradingStack, type OrderTerms, type TradableMarket } from '../helpers/trading-stack';

export const E18 = 10n ** 18n;

/** How the tests run the watcher: polls faster than the default so 5 s leaves a wide margin under load. */
export const WATCHER_INPUT: Omit<ChainWatcherInput, 'chainId'> = { pollMs: 250, windowMs: 5_000, reorgDepth: 1 };

/** How often the tests read the store for a status: the lag they measure is at most this much late. */
const READ_EVERY_MS = 50;

export interface MarketView extends TradableMarket {
  collateral_token: Address;
  conditional_tokens_address: Address;
}

export interface Trader {
  address: Address;
  privateKey: Hex;
  wallet: ReturnType<typeof walletOf>;
  jwt: string;
}

export interface PlacedOrder {
  hash: string;
  signed: SignedOrder;
}

function walletOf(port: ChainPort, rpcUrl: string, privateKey: Hex) {
  return createWalletClient({ chain: port.context.chain, transport: http(rpcUrl), account: privateKeyToAccount(privateKey) });
}

/** Registers the stack's hooks in the calling describe block. */
export function useWatcherStack() {
  const stack = useTradingStack('watcher', {}, { blockIntervalMs: 1_000, chainWatcher: WATCHER_INPUT });

  const order = (hash: string): Promise<StoredOrder | null> => matchingCollections(stack().db).orders.findOne({ _id: hash.toLowerCase() });

  return {
    get chain() {
      return stack().chain;
    },
    get port() {
      return stack().port;
    },
    get client() {
      return stack().temporal.client;
    },
    call: (...args: Parameters<ReturnType<typeof stack>['call']>) => stack().call(...args),
    startWorker: () => stack().startWorker(),
    stopWorker: () => stack().stopWorker(),
    watcherId: () => chainWatcherWorkflowId(56),
    taskQueue: () => stack().config.TEMPORAL_TASK_QUEUE,
    order,

    async createMarket(): Promise<MarketView> {
      const created = await stack().call('POST', '/admin/markets', { admin: true, body: { question: `Watcher ${Math.random()}?`, end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 } });
      if (created.status !== 201) throw new Error(`market not created: ${JSON.stringify(created.body)}`);
      return created.body as unknown as MarketView;
    },

    /** A new wallet with gas, `collateral` minted and both exchange approvals set (the faucet's). */
    async newTrader(collateral: bigint): Promise<Trader> {
      const { port, chain, jwtFor } = stack();
      const privateKey = generatePrivateKey();
      const address = privateKeyToAccount(privateKey).address;
      await port.fundWallet(address, collateral, { privateKey, nativeAmount: E18 });
      return { address, privateKey, wallet: walletOf(port, chain.rpcUrl, privateKey), jwt: await jwtFor(address) };
    },

    /** Signs and places one order over HTTP; resolves once it rests on the book (unless `rests` is false: a taker). */
    async place(trader: Trader, market: MarketView, terms: OrderTerms, { rests = true } = {}): Promise<PlacedOrder> {
      const { item, hash, signed } = stack().signedItem(trader, market, terms);
      const placed = await stack().call('POST', '/v1/orders', { jwt: trader.jwt, body: { orders: [item] } });
      const result = placed.body.results?.[0] as { status?: string; error?: unknown } | undefined;
      if (result?.status !== 'OPEN') throw new Error(`order not placed: ${JSON.stringify(placed.body)}`);
      if (rests) await eventually('order resting', async () => (await order(hash))?.book_added_at, { timeoutMs: 60_000, everyMs: READ_EVERY_MS });
      return { hash, signed };
    },

    /** The `user` order events the worker published for the wallet, oldest first. */
    userOrderEvents(wallet: string): Record<string, unknown>[] {
      return stack().published.flatMap((e) => (e.channel === 'user' && e.wallet === wallet.toLowerCase() && e.payload.type === 'order' ? [e.payload.order] : []));
    },

    /** Sends a transaction from the trader and waits for its block; resolves the time it was mined (ms). */
    async send(trader: Trader, write: (wallet: Trader['wallet']) => Promise<Hex>): Promise<number> {
      const hash = await write(trader.wallet);
      const receipt = await stack().port.waitForReceipt(hash, 0);
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
      return Date.now();
    },

    /** Resolves the order once it has `status`, with when that was first seen. */
    async until(hash: string, status: string, timeoutMs = 30_000): Promise<{ order: StoredOrder; seenAt: number }> {
      const found = await eventually(`${hash} ${status}`, async () => {
        const o = await order(hash);
        return o?.status === status && o;
      }, { timeoutMs, everyMs: READ_EVERY_MS });
      return { order: found, seenAt: Date.now() };
    },
  };
}

export type WatcherStack = ReturnType<typeof useWatcherStack>;
