/**
 * A fresh embedded chain with one prepared condition and funded, approved trader wallets.
 * Every trader starts with 1000 collateral and 100 YES + 100 NO (split from 100 more collateral).
 */
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  createChainPort, questionIdOf, startLocalChain, type ChainPort, type DevAccount, type LocalChain, type OrderFill, type PreparedCondition,
} from '../../src/chain';
import { collateralAbi, conditionalTokensAbi, exchangeAbi } from '../../src/chain/generated';
import { buildOrder, signOrder, type BuildOrderInput, type Order, type SignedOrder } from '../../src/signing';

export const E18 = 10n ** 18n;
export const FEE_BPS = 100;

export interface Fixture {
  local: LocalChain;
  port: ChainPort;
  condition: PreparedCondition;
  operator: DevAccount;
  traders: DevAccount[];
  market: BuildOrderInput['market'];
  sign(trader: DevAccount, input: Omit<BuildOrderInput, 'market' | 'maker'>, overrides?: Partial<Order>): SignedOrder & { hash: Hex };
  walletOf(trader: DevAccount): ReturnType<typeof walletFor>;
  balances(address: Address): Promise<{ collateral: bigint; yes: bigint; no: bigint }>;
  /** Submits and waits; resolves the receipt or throws the mapped chain error. */
  match(taker: SignedOrder, makers: SignedOrder[], takerFill: OrderFill, makerFills: readonly OrderFill[]): Promise<void>;
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

function walletFor(local: LocalChain, port: ChainPort, key: Hex) {
  return createWalletClient({ chain: port.context.chain, transport: http(local.rpcUrl), account: privateKeyToAccount(key) });
}

export async function startFixture(): Promise<Fixture> {
  const local = await startLocalChain({ port: 0, blockIntervalMs: 0 });
  const port = createChainPort({
    rpcUrl: local.rpcUrl, chainId: local.chainId, operatorKey: local.operatorKey, addresses: local.addresses,
    confirmations: 0, pollingIntervalMs: 20,
  });
  const condition = await port.prepareCondition(questionIdOf(`fixture ${Math.random()}`));
  const [operator, ...traders] = local.accounts;
  const { collateral, conditionalTokens } = local.addresses;
  for (const trader of traders.slice(0, 6)) {
    await port.fundWallet(trader.address, 1100n * E18, { privateKey: trader.privateKey });
    const wallet = walletFor(local, port, trader.privateKey);
    await wallet.writeContract({ address: collateral, abi: collateralAbi, functionName: 'approve', args: [conditionalTokens, 100n * E18] });
    const hash = await wallet.writeContract({
      address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'splitPosition', args: [collateral, condition.conditionId, 100n * E18],
    });
    await port.waitForReceipt(hash, 0);
  }
  const market = {
    exchange: local.addresses.exchange, chainId: local.chainId, decimals: 18, feeRateBps: FEE_BPS,
    tokens: [{ outcome: 1, token_id: condition.yesTokenId.toString() }, { outcome: 0, token_id: condition.noTokenId.toString() }],
  };
  const readToken = (address: Address, id: bigint) =>
    port.context.publicClient.readContract({ address: conditionalTokens, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [address, id] });

  return {
    local, port, condition, operator, traders, market,
    sign(trader, input, overrides = {}) {
      const built = buildOrder({ market, maker: trader.address, ...input });
      const order = { ...built.order, ...overrides };
      const signed = signOrder({ order, domain: built.domain }, trader.privateKey);
      return { ...order, signature: signed.signature, hash: signed.orderHash };
    },
    walletOf: (trader) => walletFor(local, port, trader.privateKey),
    async balances(address) {
      const [c, yes, no] = await Promise.all([
        port.context.publicClient.readContract({ address: collateral, abi: collateralAbi, functionName: 'balanceOf', args: [address] }),
        readToken(address, condition.yesTokenId),
        readToken(address, condition.noTokenId),
      ]);
      return { collateral: c, yes, no };
    },
    async match(taker, makers, takerFill, makerFills) {
      const hash = await port.submitMatch({ taker: withoutHash(taker), makers: makers.map(withoutHash), takerFill, makerFills: [...makerFills] });
      const receipt = await port.waitForReceipt(hash, 0);
      if (receipt.status !== 'success') throw new Error(`match ${hash} reverted`);
    },
    rpc: (method, params = []) => port.context.publicClient.request({ method: method as never, params: params as never }),
    stop: () => local.stop(),
  };
}

/** A signed order as the chain port takes it: without the hash `sign` adds beside it. */
export function withoutHash({ hash: _hash, ...order }: SignedOrder & { hash?: Hex }): SignedOrder {
  return order;
}

export { exchangeAbi };
