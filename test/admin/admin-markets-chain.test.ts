import { createChainPort, outcomeTokenIds, startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { conditionalTokensAbi } from '../../src/chain/generated';
import { chainInfoOf, createChainConditionPreparer } from '../../src/markets/chain-condition-preparer';
import { reprepareMarketConditions } from '../../src/markets/reprepare-conditions';
import { useTestDatabase } from '../helpers/test-database';
import { ADMIN_TOKEN, call, Harness, startHarness } from '../api/app-harness';

describe('admin market creation on the embedded chain', () => {
  const database = useTestDatabase('adminchain');
  let local: LocalChain;
  let port: ChainPort;
  let harness: Harness;

  beforeAll(async () => {
    local = await startLocalChain({ port: 0, blockIntervalMs: 0 });
    port = createChainPort({ rpcUrl: local.rpcUrl, chainId: local.chainId, operatorKey: local.operatorKey, addresses: local.addresses, confirmations: 0, pollingIntervalMs: 20 });
    harness = await startHarness(database.db(), { preparer: createChainConditionPreparer(port), chains: [await chainInfoOf(port)] });
  });
  afterAll(async () => {
    await harness?.close();
    await local?.stop();
  });

  const slots = (conditionId: string) =>
    port.context.publicClient.readContract({ address: local.addresses.conditionalTokens, abi: conditionalTokensAbi, functionName: 'getOutcomeSlotCount', args: [conditionId as `0x${string}`] });

  test('when a market is created without condition_id, then the condition is prepared on chain and the tokens are its real position ids', async () => {
    const res = await call(`${harness.url}/admin/markets`, { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN }, body: { question: 'On chain?', end_date: '2027-01-01T00:00:00Z' } });
    expect(res.status).toBe(201);
    expect(await slots(res.body.condition_id)).toBe(2n);
    const { yes, no } = outcomeTokenIds(local.addresses.collateral, res.body.condition_id);
    expect(res.body.tokens).toEqual([
      { outcome: 0, outcome_label: 'NO', token_id: no.toString(), decimals: 18 },
      { outcome: 1, outcome_label: 'YES', token_id: yes.toString(), decimals: 18 },
    ]);
    expect(res.body).toMatchObject({
      chain_id: 56,
      collateral_token: local.addresses.collateral.toLowerCase(),
      ctf_exchange_address: local.addresses.exchange.toLowerCase(),
      conditional_tokens_address: local.addresses.conditionalTokens.toLowerCase(),
    });
  });

  test('when a condition_id that is not prepared on chain is given, then 422 VALIDATION_ERROR', async () => {
    const res = await call(`${harness.url}/admin/markets`, {
      method: 'POST',
      headers: { 'x-admin-token': ADMIN_TOKEN },
      body: { question: 'Unprepared?', end_date: '2027-01-01T00:00:00Z', condition_id: `0x${'ef'.repeat(32)}` },
    });
    expect(res.status).toBe(422);
  });

  test('when conditions are prepared again (fresh dev chain), then every market keeps its condition id', async () => {
    const count = await harness.modules.store.markets.countDocuments({ question_id: { $ne: null } }).exec();
    const prepared = await reprepareMarketConditions({ store: harness.modules.store, chainId: 56, preparer: createChainConditionPreparer(port) });
    expect(prepared).toBe(count);
  });
});
