/** A saved transaction's pool trades: only the service's own pools count, named by their market. */
import { privateKeyToAccount } from 'viem/accounts';
import { parseUnits, type Address, type Hex } from 'viem';
import { createAmmVenue, type MarketLike } from '../../src/amm/amm-venue';
import { poolTradesOfTx } from '../../src/amm/pool-trades-of-tx';
import { createMarketModel } from '../../src/db/models/market.model';
import type { TxLog } from '../../src/trade/trade-tx-chain';
import { useTestDatabase } from '../helpers/test-database';
import { E18, startPoolFixture, type PoolFixture } from './pool-fixture';

const { db } = useTestDatabase('pooltx');
let fx: PoolFixture;
beforeAll(async () => {
  fx = await startPoolFixture({ feeBps: 100 });
});
afterAll(async () => {
  await fx.stop();
});

/** One real pool BUY of 40 by a fresh wallet: the receipt's logs as the trade-tx workflow reads them. */
async function buyLogs(): Promise<{ logs: TxLog[]; wallet: Address; shares: bigint }> {
  const trader = fx.local.accounts[8];
  await fx.port.fundWallet(trader.address, 100n * E18);
  const conditionId = fx.condition.conditionId.toLowerCase();
  const market = { chain_id: fx.local.chainId, condition_id: conditionId, kind: 'AMM', status: 'OPEN', fee_rate_bps: 100,
    tokens: [{ outcome: 0, token_id: fx.condition.noTokenId.toString(), decimals: 18 }, { outcome: 1, token_id: fx.condition.yesTokenId.toString(), decimals: 18 }],
    collateral_token: fx.local.addresses.collateral, amm: { pool_address: fx.pool, liquidity: '1000' } } as unknown as MarketLike;
  const venue = createAmmVenue({ clientFor: () => fx.port.context.publicClient });
  const built = await venue.trade(market, { outcome: 1, side: 'BUY', amount: '40', wallet: trader.address, slippage_bps: 100 });
  const wallet = fx.wallet(trader);
  let last: Hex = '0x';
  for (const tx of [...(built.approvals as { to: Address; data: Hex }[]), built.tx as { to: Address; data: Hex }]) {
    last = await wallet.sendTransaction({ to: tx.to, data: tx.data, account: privateKeyToAccount(trader.privateKey), chain: wallet.chain });
    await fx.port.waitForReceipt(last, 0);
  }
  const receipt = await fx.port.context.publicClient.getTransactionReceipt({ hash: last });
  return {
    logs: receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data, logIndex: l.logIndex })),
    wallet: trader.address,
    shares: parseUnits((built.quote as Record<string, string>).expected_shares, 18),
  };
}

describe('pool trades of a saved transaction', () => {
  it('when the logs come from a pool of a known market, then each trade names that market, its trader and the collateral net of the fee', async () => {
    const { logs, wallet, shares } = await buyLogs();
    const decode = poolTradesOfTx(db(), fx.local.chainId);
    // Not yet a market of this service: the same logs are nobody's trade.
    expect(await decode(logs)).toEqual([]);

    await createMarketModel(db()).collection.insertOne({
      chain_id: fx.local.chainId, condition_id: fx.condition.conditionId.toLowerCase(), kind: 'AMM', amm: { pool_address: fx.pool.toLowerCase(), liquidity: '1000' },
    });
    expect(await decode(logs)).toEqual([{
      log_index: expect.any(Number), condition_id: fx.condition.conditionId.toLowerCase(), outcome: 1, side: 'BUY', trader: wallet,
      shares: shares.toString(), collateral: (40n * E18 - 4n * E18 / 10n).toString(), fee: (4n * E18 / 10n).toString(),
    }]);
    // Another chain's market with the same pool address is not this chain's.
    expect(await poolTradesOfTx(db(), fx.local.chainId + 1)(logs)).toEqual([]);
  });
});
