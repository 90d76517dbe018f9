/**
 * An AMM market through the routes on the embedded stack, wired as `npm start` wires it: a platform
 * key; a quote, the trade's approvals and pool call sent by a funded wallet, and the transaction
 * saved. The wallet's balances move as quoted, the saved transaction ends CONFIRMED, the pool
 * watcher and the saved path agree on one public trade, the ticker shows its price, and the
 * sockets saw the print, the ticker and every trade_tx status.
 */
import { io as connectSocket } from 'socket.io-client';
import { createPublicClient, createWalletClient, http, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { collateralAbi, conditionalTokensAbi } from '../../src/chain/generated';
import { chainPortFromConfig } from '../../src/runtime/chain-from-config';
import { eventually } from '../helpers/eventually';
import { useTradingStack } from '../helpers/trading-stack';

const E18 = 10n ** 18n;


describe('an AMM market through /trade on the embedded stack', () => {
  // A local dev chain: the pool's liquidity is minted to the operator, as `npm start` does.
  const stack = useTradingStack('ammtrade', { LOCAL_DEV_CHAIN: 'true' });

  it('when a wallet quotes, trades and saves on an AMM market, then its balances move as quoted and the saved transaction, the public trade, the ticker and the sockets agree', async () => {
    const { call, chain, config, jwtFor, api } = stack();
    const port = chainPortFromConfig(config);
    const [, , , carol] = chain.accounts;
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const wallet = createWalletClient({ account: privateKeyToAccount(carol.privateKey), chain: port.context.chain, transport: http(chain.rpcUrl) });

    const key = (await call('POST', '/admin/platform-keys', { admin: true, body: { name: 'wallet app' } })).body;
    const platform = { 'fs-platform-key': key.key_id, 'fs-platform-secret': key.secret };
    const created = await call('POST', '/admin/markets', { admin: true, body: { question: 'Will the pool trade?', end_date: '2030-01-01T00:00:00Z', fee_rate_bps: 100, kind: 'AMM', initial_liquidity: '1000' } });
    expect(created.status).toBe(201);
    const id = created.body.condition_id as Hex;
    const market = await eventually('the AMM market OPEN', async () => {
      const m = (await call('GET', `/v1/markets/${id}`)).body;
      return m.status === 'OPEN' ? m : undefined;
    }, { timeoutMs: 90_000, everyMs: 250 });
    const yes = BigInt(market.tokens.find((t: { outcome: number }) => t.outcome === 1).token_id);
    await port.fundWallet(carol.address, 100n * E18, { privateKey: carol.privateKey });
    const collateralOf = () => client.readContract({ address: market.collateral_token, abi: collateralAbi, functionName: 'balanceOf', args: [carol.address] });
    const yesOf = () => client.readContract({ address: market.conditional_tokens_address, abi: conditionalTokensAbi, functionName: 'balanceOf', args: [carol.address, yes] });

    // Carol's socket: her user channel, and the market's public trades and ticker.
    const wsToken = (await call('POST', '/v1/auth/ws-token', { jwt: await jwtFor(carol.address) })).body.token as string;
    const socket = connectSocket(api.url, { path: '/v1/ws', transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: wsToken } });
    const seen: { channel: string; event: Record<string, any> }[] = [];
    for (const channel of ['user', 'trades', 'ticker']) socket.on(channel, (event: Record<string, any>) => seen.push({ channel, event }));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    expect(await socket.timeout(5_000).emitWithAck('subscribe', { channel: 'user' })).toEqual({ ok: true });
    for (const channel of ['trades', 'ticker']) expect(await socket.timeout(5_000).emitWithAck('subscribe', { channel, condition_id: id, chain_id: 56 })).toEqual({ ok: true });

    // Quote, then the trade: the approval it still needs and the pool call, sent by Carol.
    const body = { chain_id: 56, condition_id: id, outcome: 1, side: 'BUY', amount: '10' };
    const quote = (await call('POST', '/trade/quote', { body })).body;
    expect(quote).toMatchObject({ kind: 'AMM', side: 'BUY', amount: '10', expected_shares: expect.any(String) });
    const trade = await call('POST', '/trade', { headers: platform, body: { ...body, wallet: carol.address, slippage_bps: 50 } });
    expect(trade.status).toBe(200);
    expect(trade.body.quote.expected_shares).toBe(quote.expected_shares);
    expect(trade.body.approvals).toHaveLength(1);
    const collateralBefore = await collateralOf();
    for (const approval of trade.body.approvals as { to: Address; data: Hex }[]) {
      expect((await client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: approval.to, data: approval.data }) })).status).toBe('success');
    }
    const sent = await wallet.sendTransaction({ to: trade.body.tx.to, data: trade.body.tx.data });
    const saved = await call('POST', '/trade/save', { headers: platform, body: { chain_id: 56, tx_hash: sent, wallet: carol.address } });
    expect(saved.status).toBe(202);
    const receipt = await client.waitForTransactionReceipt({ hash: sent });
    expect(receipt.status).toBe('success');

    // Balances moved exactly as quoted: the amount spent, the expected shares received.
    expect(collateralBefore - (await collateralOf())).toBe(10n * E18);
    expect(await yesOf()).toBe(parseUnits(quote.expected_shares, 18));

    const confirmed = await eventually('the saved transaction CONFIRMED', async () => {
      const r = (await call('GET', `/trade/save/${sent}?chain_id=56`)).body;
      return r.status === 'PENDING' ? undefined : r;
    }, { timeoutMs: 90_000, everyMs: 250 });
    const poolLog = receipt.logs.find((l) => l.address.toLowerCase() === String(trade.body.tx.to).toLowerCase() && l.topics.length === 3)!;
    const tradeId = `pool:56:${sent.toLowerCase()}:${poolLog.logIndex}`;
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', trade_ids: [tradeId] });

    // One public trade, whichever of the watcher and the saved path wrote it, and the ticker shows it.
    const trades = (await call('GET', `/v1/markets/${id}/trades`)).body.data;
    expect(trades).toEqual([expect.objectContaining({ trade_id: tradeId, size: quote.expected_shares })]);
    const ticker = (await call('GET', `/v1/markets/${id}/ticker`)).body;
    expect(Number(ticker.last_price)).toBeCloseTo(Number(trades[0].price), 1);

    await eventually('the print, the ticker and both trade_tx statuses on the socket', async () => {
      const statuses = seen.filter((s) => s.channel === 'user' && s.event.type === 'trade_tx').map((s) => s.event.trade_tx.status);
      return statuses.includes('CONFIRMED') && seen.some((s) => s.channel === 'trades') && seen.some((s) => s.channel === 'ticker') ? true : undefined;
    }, { timeoutMs: 15_000, everyMs: 250 });
    expect(seen.filter((s) => s.channel === 'user' && s.event.type === 'trade_tx').map((s) => s.event.trade_tx.status)).toEqual(['PENDING', 'CONFIRMED']);
    expect(seen.filter((s) => s.channel === 'trades').map((s) => s.event.trade_id)).toEqual([tradeId]);
    expect(seen.find((s) => s.channel === 'ticker')?.event).toMatchObject({ condition_id: id, last_price: ticker.last_price });
    socket.disconnect();
  }, 240_000);
});
