/**
 * A settlement send whose answer is lost between the node and the worker: a proxy in front of the
 * embedded chain forwards or drops the broadcast and then cuts the connection. The send's outcome
 * must be what the node did: its transaction when it took it, a failure when it did not, unknown
 * when it cannot be asked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hex } from 'viem';
import { createChainPort, orderFillFor, type ChainPort } from '../../src/chain';
import { SendOutcomeUnknownError } from '../../src/chain/lost-send-answer';
import { AppError } from '../../src/errors';
import { E18, startFixture, withoutHash, type Fixture } from './chain-fixture';

let fx: Fixture;
let proxy: http.Server;
let port: ChainPort;
/**
 * What the proxy does with a broadcast: forward it, or drop it (once), or hold it and forward it just
 * before the next broadcast (a send still on its way when the node is asked for it); the answer
 * is lost in all three.
 */
let broadcast: 'forward' | 'taken' | 'unsent' | 'late' = 'forward';
/** A broadcast held back ('late'), forwarded before the next one. */
let held: string | undefined;
const toNode = (body: string) => fetch(fx.local.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
/** While true, the proxy cuts every lookup of a transaction by hash. */
let lookupsFail = false;

beforeAll(async () => {
  fx = await startFixture();
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const sends = body.includes('eth_sendRawTransaction');
      if ((sends && broadcast === 'unsent') || (lookupsFail && body.includes('eth_getTransactionByHash'))) {
        if (sends) broadcast = 'forward'; // one broadcast dropped: the next one gets through
        res.destroy();
        return;
      }
      if (sends && broadcast === 'late' && held === undefined) {
        held = body;
        res.destroy();
        return;
      }
      const before = sends && held !== undefined ? toNode(held).then(() => { held = undefined; }) : Promise.resolve();
      before.then(() => toNode(body))
        .then((r) => r.text())
        .then((text) => (sends && broadcast === 'taken' ? res.destroy() : res.writeHead(200, { 'content-type': 'application/json' }).end(text)), () => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  port = createChainPort({
    rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, chainId: fx.local.chainId,
    operatorKey: fx.local.operatorKey, addresses: fx.local.addresses, confirmations: 0, pollingIntervalMs: 20,
  });
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await fx.stop();
});
afterEach(() => {
  broadcast = 'forward';
  lookupsFail = false;
  held = undefined;
});

/** The operator's transactions the node has taken (its nonce). */
const operatorNonce = () => fx.port.context.publicClient.getTransactionCount({ address: port.operatorAddress, blockTag: 'pending' });

/** A BUY YES taker against a SELL YES maker, 2 shares at 0.55. */
function aMatch() {
  const [alice, bob] = fx.traders;
  const taker = fx.sign(alice, { side: 'BUY', outcome: 1, price: '0.6', size: '2' });
  const maker = fx.sign(bob, { side: 'SELL', outcome: 1, price: '0.55', size: '2' });
  return {
    takerHash: taker.hash,
    submission: { taker: withoutHash(taker), makers: [withoutHash(maker)], takerFill: orderFillFor('BUY', 2n * E18, 55), makerFills: [orderFillFor('SELL', 2n * E18, 55)] },
  };
}

describe('a settlement send whose answer is lost', () => {
  /** Sends a fresh match with the proxy in `mode`, and checks that the send is the transaction that settled it. */
  async function expectSettledBySend(mode: typeof broadcast, send: (m: ReturnType<typeof aMatch>['submission']) => Promise<(Hex | Error)[]>) {
    const { takerHash, submission } = aMatch();
    broadcast = mode;
    const [outcome] = await send(submission);
    broadcast = 'forward';
    expect(typeof outcome).toBe('string');
    expect((await port.waitForReceipt(outcome as Hex, 0)).status).toBe('success');
    expect(await port.findMatchOfTaker(takerHash)).toBe(outcome);
  }

  it('when the node took the transaction, then the send is that transaction (it mines and settles the match), not a failure', async () => {
    await expectSettledBySend('taken', (m) => port.submitMatchBatches([m]));
  });

  it('when the node never got the transaction, then its nonce is spent by a transfer to the operator itself, so it can never mine: the send failed for good, and the next send settles', async () => {
    const { takerHash, submission } = aMatch();
    const nonce = await operatorNonce();
    broadcast = 'unsent';
    const [outcome] = await port.submitMatches([submission]);
    broadcast = 'forward';
    expect(outcome).toBeInstanceOf(AppError);
    expect(outcome).not.toBeInstanceOf(SendOutcomeUnknownError);
    expect(await port.findMatchOfTaker(takerHash)).toBeNull();
    // The lost transaction's nonce holds the transfer now.
    expect(await operatorNonce()).toBe(nonce + 1);
    const block = await fx.port.context.publicClient.getBlock({ blockTag: 'latest', includeTransactions: true });
    expect(block.transactions.map((t) => [t.from.toLowerCase(), t.to?.toLowerCase(), t.value, t.nonce])).toEqual([[port.operatorAddress.toLowerCase(), port.operatorAddress.toLowerCase(), 0n, nonce]]);
    const [again] = await port.submitMatches([submission]);
    expect(typeof again).toBe('string');
    expect((await port.waitForReceipt(again as Hex, 0)).status).toBe('success');
  });

  it('when the transaction reaches the node only after the node said it did not hold it, then spending its nonce finds it taken: the send is that transaction (before: a failure, while the match settled)', async () => {
    await expectSettledBySend('late', (m) => port.submitMatches([m]));
  });

  it('when the node took it and cannot be asked about it, then the outcome is unknown and names the transaction, which mines', async () => {
    const { takerHash, submission } = aMatch();
    broadcast = 'taken';
    lookupsFail = true;
    const [outcome] = await port.submitMatchBatches([submission]);
    broadcast = 'forward';
    lookupsFail = false;
    expect(outcome).toBeInstanceOf(SendOutcomeUnknownError);
    const { txHash } = outcome as SendOutcomeUnknownError;
    expect((await port.waitForReceipt(txHash, 0)).status).toBe('success');
    expect(await port.findMatchOfTaker(takerHash)).toBe(txHash);
  });
});
