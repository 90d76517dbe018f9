import { createChainPort, startLocalChain, type ChainPort, type LocalChain } from '../../src/chain';
import { hashOrder, signOrder } from '../../src/signing';
import { makerOf, randomKey, randomOrder, seededRandom } from '../signing/random-orders';

let chain: LocalChain;
let port: ChainPort;
beforeAll(async () => {
  chain = await startLocalChain({ port: 0, blockIntervalMs: 0 });
  port = createChainPort({ rpcUrl: chain.rpcUrl, chainId: 56, operatorKey: chain.operatorKey, addresses: chain.addresses, confirmations: 0 });
});
afterAll(async () => {
  await chain.stop();
});

describe('hashOrder against the deployed exchange', () => {
  it('when hashing 300 random orders, then src/signing equals the contract hashOrder view', async () => {
    const rand = seededRandom(2024);
    const domain = { chainId: 56, verifyingContract: chain.addresses.exchange };
    const key = randomKey(rand);
    const orders = Array.from({ length: 300 }, () => randomOrder(rand, makerOf(key)));
    const onChain = await Promise.all(orders.map((order) => port.contractOrderHash({ ...order, signature: '0x' })));
    expect(onChain).toEqual(orders.map((order) => hashOrder(order, domain)));
  });

  it('when the order is signed, then the hash signOrder reports is the one the exchange computes', async () => {
    const key = chain.accounts[3].privateKey;
    const order = randomOrder(seededRandom(1), chain.accounts[3].address);
    const signed = signOrder({ order, domain: { chainId: 56, verifyingContract: chain.addresses.exchange } }, key);
    expect(await port.contractOrderHash({ ...order, signature: signed.signature })).toBe(signed.orderHash);
  });
});
