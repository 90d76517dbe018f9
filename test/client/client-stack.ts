/**
 * The embedded stack for the client's, the command line's and the bots' tests: the shared trading
 * stack (a local chain, the API on a random port, the worker with settlement) with an OPEN market.
 * Traders are Hardhat dev accounts funded and approved on that chain.
 */
import { SignJWT } from 'jose';
import type { Address, Hex } from 'viem';
import type { ChainPort, LocalChain } from '../../src/chain';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { privateKeyToAccount } from 'viem/accounts';
import { eventually } from '../helpers/eventually';
import { STACK_JWT_SECRET, useTradingStack, type TradingStack } from '../helpers/trading-stack';

export const JWT_SECRET = STACK_JWT_SECRET;

export interface Stack {
  url: string;
  chain: LocalChain;
  port: ChainPort;
  /** condition_id of the OPEN market the stack created. */
  market: string;
  /** condition_id of an OPEN AMM market with a funded pool, created on first use. */
  ammMarket(): Promise<string>;
  /** A platform key pair for the /trade routes that need one, issued on first use. */
  platformKey(): Promise<{ platformKey: string; platformSecret: string }>;
  /** Dev account i (1..), funded with collateral and approved for the exchange. */
  trader(i: number): Promise<{ address: Address; privateKey: Hex }>;
  jwt(wallet: Address): Promise<string>;
}

export function useClientStack(prefix: string): () => Stack {
  const trading = useTradingStack(prefix);
  let stack: Stack | undefined;

  beforeAll(async () => {
    const { api, chain, config, call } = trading();
    const created = await call('POST', '/admin/markets', {
      admin: true, body: { question: 'Will the client trade?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100 },
    });
    if (created.status !== 201) throw new Error(`market not created: ${created.status} ${JSON.stringify(created.body)}`);
    const market = created.body.condition_id as string;
    const port = chainPortFromConfig(config);
    const funded = new Map<number, Promise<void>>();
    let amm: Promise<string> | undefined;
    let platform: Promise<{ platformKey: string; platformSecret: string }> | undefined;
    stack = {
      url: api.url, chain, port, market,
      ammMarket: () => (amm ??= openAmmMarket(trading(), port)),
      platformKey: () => (platform ??= call('POST', '/admin/platform-keys', { admin: true, body: { name: 'client tests' } }).then((issued) => {
        if (issued.status !== 201) throw new Error(`platform key not issued: ${issued.status} ${JSON.stringify(issued.body)}`);
        return { platformKey: issued.body.key_id as string, platformSecret: issued.body.secret as string };
      })),
      trader: async (i) => {
        const account = chain.accounts[i];
        if (!funded.has(i)) funded.set(i, port.fundWallet(account.address, 1_000n * 10n ** 18n, { privateKey: account.privateKey }));
        await funded.get(i);
        return { address: account.address, privateKey: account.privateKey };
      },
      // An hour, not the trading stack's ten minutes: a client test may hold its token that long under load.
      jwt: (wallet) => new SignJWT({ wallet_address: wallet }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(JWT_SECRET)),
    };
  }, 180_000);

  return () => {
    if (!stack) throw new Error('the client stack is not up yet (use inside tests)');
    return stack;
  };
}

/** An AMM market funded from the operator's collateral (not a local-dev stack: no open-mint funding), waited until OPEN. */
async function openAmmMarket(trading: TradingStack, port: ChainPort): Promise<string> {
  // Only the mint: the worker's setup approves the pool with the operator's own nonces.
  await port.fundWallet(privateKeyToAccount(trading.chain.operatorKey).address, 1_000n * 10n ** 18n);
  const created = await trading.call('POST', '/admin/markets', {
    admin: true, body: { question: 'Will the pool trade?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100, kind: 'AMM', initial_liquidity: '500' },
  });
  if (created.status !== 201) throw new Error(`AMM market not created: ${created.status} ${JSON.stringify(created.body)}`);
  const conditionId = created.body.condition_id as string;
  await eventually('the AMM market OPEN', async () => {
    const market = await trading.call('GET', `/v1/markets/${conditionId}?chain_id=56`);
    return market.body.status === 'OPEN' ? true : undefined;
  }, { timeoutMs: 90_000 });
  return conditionId;
}

